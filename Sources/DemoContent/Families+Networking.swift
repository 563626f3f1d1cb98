import QuestionEngine

/// Question families: each computes a question, its key and its explanations from parameters.
enum Families {
    typealias Random = SeededGenerator

    static func ip(_ value: UInt32) -> String {
        "\(value >> 24).\((value >> 16) & 255).\((value >> 8) & 255).\(value & 255)"
    }

    static func subnetHosts(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let prefix = Int.random(in: 16...30, using: &r)
        let size = 1 << (32 - prefix)
        return QuestionBuilder.single(
            key: key, stem: "How many usable host addresses does an IPv4 network with prefix /\(prefix) have?",
            answer: Choice(text: "\(size - 2)", explanation: ""),
            distractors: [
                Choice(text: "\(size)", explanation: "That counts the network and broadcast addresses too."),
                Choice(text: "\(size - 1)", explanation: "Both the network and the broadcast address are unusable, not only one."),
                Choice(text: "\(size / 2 - 2)", explanation: "That is the count for /\(prefix + 1)."),
                Choice(text: "\(size * 2 - 2)", explanation: "That is the count for /\(prefix - 1)."),
            ],
            explanation: "A /\(prefix) leaves \(32 - prefix) host bits: 2^\(32 - prefix) = \(size) addresses, minus the network and broadcast addresses.",
            difficulty: prefix >= 28 ? 1 : prefix >= 24 ? 2 : prefix >= 21 ? 3 : prefix >= 18 ? 4 : 5, using: &r)
    }

    static func networkAddress(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let prefix = Int.random(in: 17...29, using: &r)
        let address = UInt32(10) << 24 | UInt32.random(in: 0...0xFFFFFF, using: &r)
        let mask = UInt32.max << UInt32(32 - prefix)
        let network = address & mask
        let broadcast = network | ~mask
        let askBroadcast = index % 2 == 1
        let answer = askBroadcast ? broadcast : network
        return QuestionBuilder.single(
            key: key, stem: "What is the \(askBroadcast ? "broadcast" : "network") address of \(ip(address))/\(prefix)?",
            answer: Choice(text: ip(answer), explanation: ""),
            distractors: [
                Choice(text: ip(askBroadcast ? network : broadcast), explanation: askBroadcast ? "That is the network address." : "That is the broadcast address."),
                Choice(text: ip(address), explanation: "That is the host's own address."),
                Choice(text: ip(askBroadcast ? broadcast &- 1 : network &+ 1), explanation: askBroadcast ? "That is the last usable host." : "That is the first usable host."),
                Choice(text: ip(address & (UInt32.max << UInt32(32 - max(8, prefix - 4)))), explanation: "That uses a shorter prefix."),
            ],
            explanation: "Keep the first \(prefix) bits of \(ip(address)) and set the rest to \(askBroadcast ? "ones" : "zeros"): \(ip(answer)).",
            difficulty: difficulty(prefix: prefix), using: &r)
    }

    static func difficulty(prefix: Int) -> Int {
        prefix % 8 == 0 ? 1 : prefix > 24 ? 3 : prefix > 20 ? 4 : 5
    }

    static func numberBases(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let value = Int.random(in: 2...(index % 5 < 2 ? 255 : 65535), using: &r)
        let toHex = index % 2 == 0
        let answer = toHex ? "0x" + String(value, radix: 16, uppercase: true) : String(value, radix: 2)
        let nearby = [value + 1, value - 1, value ^ 0x10, value * 2].filter { $0 > 0 }
        return QuestionBuilder.single(
            key: key, stem: "What is the decimal number \(value) in \(toHex ? "hexadecimal" : "binary")?",
            answer: Choice(text: answer, explanation: ""),
            distractors: nearby.map { other in
                Choice(text: toHex ? "0x" + String(other, radix: 16, uppercase: true) : String(other, radix: 2),
                       explanation: "That is \(other) in decimal.")
            },
            explanation: "\(value) = \(answer) (\(toHex ? "divide by 16" : "divide by 2") repeatedly and read the remainders backwards).",
            difficulty: value < 16 ? 1 : value < 256 ? 2 : value < 4096 ? 3 : 4, using: &r)
    }

    static func privateAddresses(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        func isPrivate(_ a: UInt32) -> Bool {
            a >> 24 == 10 || a >> 20 == (172 << 4 | 1) || a >> 16 == (192 << 8 | 168)
        }
        let candidates: [UInt32] = [
            UInt32(10) << 24 | UInt32.random(in: 0...0xFFFFFF, using: &r),
            UInt32(172) << 24 | UInt32.random(in: 16...31, using: &r) << 16 | UInt32.random(in: 0...0xFFFF, using: &r),
            UInt32(192 << 24 | 168 << 16) | UInt32.random(in: 0...0xFFFF, using: &r),
            UInt32(172) << 24 | UInt32.random(in: 32...63, using: &r) << 16 | UInt32.random(in: 0...0xFFFF, using: &r),
            UInt32(192 << 24 | 169 << 16) | UInt32.random(in: 0...0xFFFF, using: &r),
            UInt32(11) << 24 | UInt32.random(in: 0...0xFFFFFF, using: &r),
            UInt32(8 << 24 | 8 << 16 | 8 << 8 | 8),
        ]
        var chosen = Array(candidates.shuffled(using: &r).prefix(5))
        if !chosen.contains(where: isPrivate) { chosen[0] = candidates[0] }
        return QuestionBuilder.multiple(
            key: key, stem: "Which of these IPv4 addresses are private (RFC 1918)? Choose all that apply.",
            choices: chosen.map { address in
                (Choice(text: ip(address), explanation: isPrivate(address) ? "Inside a private range." : "Outside 10/8, 172.16/12 and 192.168/16."), isPrivate(address))
            },
            explanation: "The private ranges are 10.0.0.0/8, 172.16.0.0/12 (172.16–172.31) and 192.168.0.0/16.",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static let ports: [(String, Int)] = [
        ("HTTP", 80), ("HTTPS", 443), ("SSH", 22), ("DNS", 53), ("SMTP", 25), ("FTP (control)", 21), ("Telnet", 23),
        ("POP3", 110), ("IMAP", 143), ("NTP", 123), ("SNMP", 161), ("LDAP", 389), ("RDP", 3389), ("PostgreSQL", 5432),
        ("MySQL", 3306), ("Redis", 6379), ("IMAPS", 993), ("POP3S", 995), ("SMTP submission", 587), ("LDAPS", 636),
    ]

    static func wellKnownPorts(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let (service, port) = ports[index % ports.count]
        let others = ports.filter { $0.1 != port }.shuffled(using: &r).prefix(4)
        if (index / ports.count) % 2 == 1 {
            return QuestionBuilder.single(
                key: key, stem: "Which service listens on port \(port) by default?",
                answer: Choice(text: service, explanation: ""),
                distractors: others.map { Choice(text: $0.0, explanation: "\($0.0) uses port \($0.1).") },
                explanation: "Port \(port) is the default port of \(service).",
                difficulty: index % ports.count < 6 ? 2 : 3, using: &r)
        }
        return QuestionBuilder.single(
            key: key, stem: "Which TCP or UDP port does \(service) use by default?",
            answer: Choice(text: "\(port)", explanation: ""),
            distractors: others.map { Choice(text: "\($0.1)", explanation: "\($0.1) is the default port of \($0.0).") },
            explanation: "\(service) listens on port \(port) by default.",
            difficulty: index % ports.count < 6 ? 1 : index % ports.count < 12 ? 2 : 3, using: &r)
    }

    static let procedures: [(String, [String])] = [
        ("the TCP three-way handshake", ["The client sends SYN", "The server answers SYN-ACK", "The client sends ACK"]),
        ("a DNS lookup by a stub resolver", ["The application asks the stub resolver", "The resolver queries a root server", "The resolver queries the TLD server", "The resolver queries the authoritative server", "The answer is cached and returned"]),
        ("DHCP address assignment", ["DHCPDISCOVER", "DHCPOFFER", "DHCPREQUEST", "DHCPACK"]),
        ("an HTTP request over a new connection", ["Resolve the host name", "Open the TCP connection", "Send the request line and headers", "Receive the status line and headers", "Read the body"]),
        ("the OSI layers from the bottom up", ["Physical", "Data link", "Network", "Transport", "Session", "Presentation", "Application"]),
        ("orderly TCP connection teardown", ["One side sends FIN", "The other side acknowledges with ACK", "The other side sends its FIN", "The first side acknowledges with ACK"]),
    ]

    static func protocolSteps(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let (name, steps) = procedures[index % procedures.count]
        let count = min(steps.count, 3 + index % 3)
        let start = steps.count > count ? Int.random(in: 0...(steps.count - count), using: &r) : 0
        let chosen = Array(steps[start..<start + count])
        return QuestionBuilder.ordering(
            key: key, stem: "Put these steps of \(name) in order.",
            steps: chosen.map { Choice(text: $0, explanation: "") },
            explanation: "In order: " + chosen.joined(separator: " → ") + ".",
            difficulty: min(5, count - 1), using: &r)
    }

    static let topologyNames = ["star", "ring", "bus", "mesh"]

    /// Each topology's diagram: a neutral file name and what the drawing shows, in words that
    /// describe the shape without naming it (the option must not print the answer; the words
    /// serve those who cannot see the drawing and the live screen, which shows text only).
    static let topologyDiagrams = [
        "star": (image: "/images/diagrams/network-a.svg", text: "Six nodes, each linked only to one node in the middle"),
        "ring": (image: "/images/diagrams/network-b.svg", text: "Six nodes in a closed loop, each linked to its two neighbours"),
        "bus": (image: "/images/diagrams/network-c.svg", text: "Five nodes, each tapping one shared line"),
        "mesh": (image: "/images/diagrams/network-d.svg", text: "Five nodes, each linked directly to every other node"),
    ]

    static func topologies(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let wanted = topologyNames[index % 4]
        func diagram(_ name: String, explanation: String) -> Choice {
            Choice(text: topologyDiagrams[name]!.text, explanation: explanation, imageUrl: topologyDiagrams[name]!.image)
        }
        return QuestionBuilder.single(
            key: key, stem: "Which diagram shows a \(wanted) topology?",
            answer: diagram(wanted, explanation: ""),
            distractors: topologyNames.filter { $0 != wanted }.map { diagram($0, explanation: "This is a \($0) topology.") },
            explanation: topologyExplanation[wanted]!, difficulty: index % 4 < 2 ? 1 : 2, using: &r)
    }

    static let topologyExplanation = [
        "star": "In a star every node connects to one central switch.",
        "ring": "In a ring each node connects to exactly two neighbours, closing a loop.",
        "bus": "In a bus every node taps one shared backbone cable.",
        "mesh": "In a full mesh every node connects directly to every other node.",
    ]
}
