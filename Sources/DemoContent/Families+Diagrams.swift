import QuestionEngine

/// Hotspot questions on generated network diagrams: which device does a job, or where a
/// security control belongs. The devices stand in shuffled places, so the key follows from the
/// drawing, not from memory of a picture.
extension Families {
    /// What each device does, as Network Fundamentals asks it.
    static let deviceRoles: [(device: NetworkDiagram.Device, name: String, asks: [String])] = [
        (.router, "router", ["Which device forwards packets between different IP networks?", "Which device chooses a path for packets by their destination IP address?"]),
        (.switchDevice, "switch", ["Which device connects the hosts of one LAN and forwards frames by MAC address?", "Which device learns which MAC address is behind each of its ports?"]),
        (.firewall, "firewall", ["Which device filters the traffic between the WAN and the inside network?", "Which device would block an inbound connection to port 23 from the internet?"]),
        (.server, "server", ["Which device is most likely the file server the hosts use?", "Which device would you expect to answer the LAN's DNS queries?"]),
        (.accessPoint, "wireless access point", ["Which device lets laptops and phones join the LAN without a cable?", "Which device bridges Wi-Fi clients onto the wired network?"]),
    ]

    static func networkDiagrams(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        diagramQuestion(key, index, &r, roles: deviceRoles, lead: "Click the device in the diagram, or choose its letter.")
    }

    /// The same diagrams as Security Essentials asks about them.
    static let securityRoles: [(device: NetworkDiagram.Device, name: String, asks: [String])] = [
        (.firewall, "firewall", ["Where should the stateful packet filter between the internet and the inside network go?", "Which device enforces the rule that no inbound Telnet is allowed?"]),
        (.router, "router", ["Which device would you configure with an access list that drops spoofed private source addresses arriving from the WAN side?"]),
        (.switchDevice, "switch", ["Which device would you configure with port security to limit the MAC addresses on each port?", "Where would you enable DHCP snooping to stop rogue DHCP servers?"]),
        (.accessPoint, "wireless access point", ["Which device needs WPA3 configured to protect the traffic of its clients?", "Which device is the likeliest way in for an attacker sitting in the car park?"]),
        (.server, "server", ["Which device holds the data that the backups and encryption at rest protect?"]),
    ]

    static func securityDiagrams(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        diagramQuestion(key, index, &r, roles: securityRoles, lead: "Click the device in the diagram, or choose its letter.")
    }

    private static func diagramQuestion(
        _ key: String, _ index: Int, _ r: inout Random, roles: [(device: NetworkDiagram.Device, name: String, asks: [String])], lead: String
    ) -> NewQuestion {
        let diagram = NetworkDiagram(using: &r)
        let role = roles[index % roles.count]
        let ask = role.asks[(index / roles.count) % role.asks.count]
        let target = diagram.devices.firstIndex(of: role.device)!
        let name = { (device: NetworkDiagram.Device) in deviceRoles.first { $0.device == device }?.name ?? "" }
        return QuestionBuilder.hotspot(
            key: key, stem: ask + "\n" + lead, image: diagram.image,
            regions: diagram.devices.enumerated().map { place, device in
                (label: "Device " + NetworkDiagram.letter(place), region: NetworkDiagram.region(place), explanation: "Device \(NetworkDiagram.letter(place)) is the \(name(device)).")
            },
            right: [target],
            explanation: "It is the \(role.name): device \(NetworkDiagram.letter(target)), drawn with the \(role.name)'s symbol.",
            difficulty: DemoCorpus.difficulty(index))
    }
}
