import QuestionEngine

/// The security exam: entropy, hashes, brute force and ports, computed.
extension Families {
    static func entropy(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let alphabets: [(String, Int)] = [("digits", 10), ("lower-case letters", 26), ("letters of both cases", 52), ("letters and digits", 62), ("printable ASCII characters", 94)]
        let (name, size) = alphabets[index % alphabets.count]
        let length = Int.random(in: 4...20, using: &r)
        let bitsPerCharacter = [10: 3.3219, 26: 4.7004, 52: 5.7004, 62: 5.9542, 94: 6.5546][size]!
        let bits = Int((Double(length) * bitsPerCharacter).rounded())
        return QuestionBuilder.single(
            key: key, stem: "A password of \(length) characters is drawn uniformly at random from \(name) (\(size) symbols). About how many bits of entropy does it have?",
            answer: Choice(text: "\(bits)", explanation: ""),
            distractors: [
                Choice(text: "\(length * 8)", explanation: "That is its size in bits as ASCII, not its entropy."),
                Choice(text: "\(length * size)", explanation: "Entropy multiplies length by log2 of the alphabet, not by its size."),
                Choice(text: "\(Int(Double(bits) / 2))", explanation: "That halves the figure."),
            ],
            explanation: "\(length) × log2(\(size)) ≈ \(length) × \(bitsPerCharacter) ≈ \(bits) bits.",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static let hashes: [(String, Int)] = [("MD5", 128), ("SHA-1", 160), ("SHA-224", 224), ("SHA-256", 256), ("SHA-384", 384), ("SHA-512", 512)]

    static func hashLengths(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let (name, bits) = hashes[index % hashes.count]
        let askHex = (index / hashes.count) % 2 == 0
        let answer = askHex ? bits / 4 : bits / 8
        return QuestionBuilder.single(
            key: key, stem: askHex ? "How many hexadecimal characters long is a \(name) digest?" : "How many bytes long is a \(name) digest?",
            answer: Choice(text: "\(answer)", explanation: ""),
            distractors: [
                Choice(text: "\(bits)", explanation: "That is its length in bits."),
                Choice(text: "\(askHex ? bits / 8 : bits / 4)", explanation: askHex ? "That is its length in bytes." : "That is its length in hex characters."),
                Choice(text: "\(answer * 2)", explanation: "Twice too long."),
            ],
            explanation: "\(name) produces \(bits) bits = \(bits / 8) bytes = \(bits / 4) hex characters.",
            difficulty: askHex ? 2 : 1, using: &r)
    }

    static func bruteForce(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let digits = Int.random(in: 4...8, using: &r)
        let rate = [10, 100, 1000, 10_000][index % 4]
        var space = 1
        for _ in 0..<digits { space *= 10 }
        let hours = Double(space) / Double(rate) / 3600
        return QuestionBuilder.single(
            key: key, stem: "An attacker tries \(rate) PINs per second against a \(digits)-digit PIN. How many hours does it take to try every PIN? (to two decimals)",
            answer: Choice(text: format2(hours), explanation: ""),
            distractors: [
                Choice(text: format2(hours / 2), explanation: "That is the expected time to find it, not to try all."),
                Choice(text: format2(hours * 60), explanation: "That is the figure in minutes."),
                Choice(text: format2(hours * 3600), explanation: "That is the figure in seconds."),
            ],
            explanation: "10^\(digits) = \(space) PINs ÷ \(rate)/s = \(space / rate) s = \(format2(hours)) hours.",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static let securePairs: [(String, String, Int)] = [
        ("HTTP", "HTTPS", 443), ("IMAP", "IMAPS", 993), ("POP3", "POP3S", 995), ("LDAP", "LDAPS", 636),
        ("Telnet", "SSH", 22), ("FTP", "SFTP (over SSH)", 22), ("SMTP relay", "SMTP submission with STARTTLS", 587),
    ]

    static func securePorts(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let (plain, secure, port) = securePairs[index % securePairs.count]
        let others = securePairs.filter { $0.2 != port }.map(\.2) + [80, 21, 23, 25, 143, 110]
        return QuestionBuilder.single(
            key: key, stem: "Which port does \(secure), the encrypted replacement for \(plain), use by default?",
            answer: Choice(text: "\(port)", explanation: ""),
            distractors: Array(Set(others)).sorted().shuffled(using: &r).prefix(4).map { Choice(text: "\($0)", explanation: "Port \($0) belongs to another service.") },
            explanation: "\(secure) listens on port \(port).", difficulty: index % securePairs.count < 3 ? 1 : 2, using: &r)
    }

    static let tlsHandshake = [
        "ClientHello with key share", "ServerHello with key share", "Server sends EncryptedExtensions",
        "Server sends Certificate and CertificateVerify", "Server sends Finished", "Client sends Finished",
    ]

    static func tlsSteps(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let count = 3 + index % 4
        let start = Int.random(in: 0...(tlsHandshake.count - count), using: &r)
        let steps = Array(tlsHandshake[start..<start + count])
        return QuestionBuilder.ordering(
            key: key, stem: "Put these TLS 1.3 handshake messages in order.",
            steps: steps.map { Choice(text: $0, explanation: "") },
            explanation: "TLS 1.3: " + tlsHandshake.joined(separator: " → ") + ".", difficulty: min(5, count - 1), using: &r)
    }

    static func keySpace(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let bits = [40, 56, 64, 80, 112, 128][index % 6]
        let extra = Int.random(in: 1...8, using: &r)
        return QuestionBuilder.single(
            key: key, stem: "How many times larger is the key space of a \(bits + extra)-bit key than that of a \(bits)-bit key?",
            answer: Choice(text: "\(1 << extra)", explanation: ""),
            distractors: [
                Choice(text: "\(extra)", explanation: "Each extra bit doubles the key space; it does not add one."),
                Choice(text: "\(extra * 2)", explanation: "Doubling per bit compounds: 2^\(extra)."),
                Choice(text: "\((bits + extra) / bits)", explanation: "Key spaces grow exponentially with length."),
            ],
            explanation: "Each bit doubles the number of keys: 2^\(extra) = \(1 << extra).", difficulty: extra < 4 ? 2 : 3, using: &r)
    }
}
