import QuestionEngine

/// The demo catalogue `portal seed` loads: 3 regions, 10 exams (one each in Italian, Japanese,
/// Spanish, German, Simplified Chinese and Thai), 62 domains and 7,750 published questions of
/// all seven kinds (250 each of matching, fill-in and hotspot, their diagrams drawn here).
/// Every question is computed from parameters, so its key is right by construction.
enum DemoCorpus {
    struct Region {
        var code: String
        var name: String
        var exams: [Exam]
    }

    struct Exam {
        var slug: String
        var title: String
        var description: String
        var language: String
        var passMark: Int
        var timeLimitSeconds: Int
        var questionCount: Int
        var domains: [Domain]
    }

    struct Domain {
        var slug: String
        var title: String
        var weight: Int
        var make: (_ key: String, _ index: Int, _ random: inout SeededGenerator) -> NewQuestion
    }

    static let questionsPerDomain = 125

    static var regions: [Region] {
        [
            Region(code: "europe", name: "Europe", exams: [networking, python, spanishNetworking, germanNetworking]),
            Region(code: "asia-pacific", name: "Asia Pacific", exams: [databases, cloud, chineseNetworking, thaiNetworking]),
            Region(code: "americas", name: "Americas", exams: [javascript, security]),
        ]
    }

    /// Every question of a domain, in order.
    static func questions(exam: Exam, domain: Domain) -> [NewQuestion] {
        (0..<questionsPerDomain).map { index in
            let key = "demo/\(exam.slug)/\(domain.slug)/\(index)"
            var random = SeededGenerator(key: key)
            return domain.make(key, index, &random)
        }
    }

    /// Difficulty spread evenly over 1–5 within each domain.
    static func difficulty(_ index: Int) -> Int { index % 5 + 1 }

    // MARK: Exams

    static var networking: Exam {
        Exam(
            slug: "network-fundamentals", title: "Network Fundamentals",
            description: "IPv4 addressing and subnetting, number bases, ports and protocols, and how connections are set up.",
            language: "en", passMark: 70, timeLimitSeconds: 90 * 60, questionCount: 60,
            domains: [
                Domain(slug: "subnet-sizes", title: "Subnet sizes", weight: 15, make: Families.subnetHosts),
                Domain(slug: "network-addresses", title: "Network and broadcast addresses", weight: 10, make: Families.networkAddress),
                Domain(slug: "number-bases", title: "Binary and hexadecimal", weight: 10, make: Families.numberBases),
                Domain(slug: "private-addressing", title: "Private addressing", weight: 5, make: Families.privateAddresses),
                Domain(slug: "ports", title: "Ports and services", weight: 10, make: Families.wellKnownPorts),
                Domain(slug: "connection-setup", title: "Connection set-up", weight: 5, make: Families.protocolSteps),
                Domain(slug: "topologies", title: "Topologies", weight: 5, make: Families.topologies),
                Domain(slug: "typed-addresses", title: "Addresses, typed", weight: 10, make: Families.typedAddresses),
                Domain(slug: "port-matching", title: "Ports and services, matched", weight: 5, make: Families.portMatching),
                Domain(slug: "network-diagrams", title: "Devices in a network diagram", weight: 10, make: Families.networkDiagrams),
                Domain(slug: "routing-tables", title: "Routing tables", weight: 10, make: Families.routingTables),
                Domain(slug: "window-size", title: FormulaPhrasebook.english.domainTitle, weight: 5, make: Families.windowSize(.english)),
            ])
    }

    static var python: Exam {
        Exam(
            slug: "programmazione-python", title: "Programmazione in Python",
            description: "Leggere ed eseguire a mente brevi programmi Python: espressioni, liste, stringhe e valori di verità.",
            language: "it", passMark: 65, timeLimitSeconds: 60 * 60, questionCount: 40,
            domains: [
                Domain(slug: "espressioni", title: "Espressioni aritmetiche", weight: 15, make: Families.pythonArithmetic),
                Domain(slug: "liste", title: "Liste e comprensioni", weight: 15, make: Families.pythonLists),
                Domain(slug: "stringhe", title: "Stringhe e slicing", weight: 15, make: Families.pythonStrings),
                Domain(slug: "verita", title: "Valori di verità", weight: 15, make: Families.pythonTruthiness),
                Domain(slug: "basi-numeriche", title: "Basi numeriche", weight: 10, make: Families.pythonBases),
                Domain(slug: "ambienti", title: "Ambienti e pacchetti", weight: 15, make: Families.pythonWorkflow),
                Domain(slug: "output-scritto", title: "Output da scrivere", weight: 15, make: Families.pythonTyped),
            ])
    }

    static var databases: Exam {
        Exam(
            slug: "database-kiso", title: "データベース基礎",
            description: "小さな表に対する SQL の結果、結合の行数、データ量の単位、問い合わせの評価順序を学びます。",
            language: "ja", passMark: 60, timeLimitSeconds: 75 * 60, questionCount: 50,
            domains: [
                Domain(slug: "count", title: "件数の集計", weight: 15, make: Families.sqlCount),
                Domain(slug: "sum", title: "合計と最大値", weight: 15, make: Families.sqlSum),
                Domain(slug: "join", title: "結合の行数", weight: 15, make: Families.joinRows),
                Domain(slug: "where", title: "条件に合う行", weight: 15, make: Families.sqlMatchingRows),
                Domain(slug: "units", title: "データ量の単位", weight: 15, make: Families.storageUnitsJapanese),
                Domain(slug: "evaluation-order", title: "句の評価順序", weight: 10, make: Families.sqlClauseOrder),
                Domain(slug: "indexes", title: "索引と検索回数", weight: 15, make: Families.binarySearchSteps),
            ])
    }

    static var cloud: Exam {
        Exam(
            slug: "cloud-practitioner", title: "Cloud Practitioner",
            description: "Availability targets, costs, storage units and capacity, as a cloud practitioner reasons about them.",
            language: "en", passMark: 70, timeLimitSeconds: 90 * 60, questionCount: 65,
            domains: [
                Domain(slug: "availability", title: "Availability and downtime", weight: 20, make: Families.availability),
                Domain(slug: "costs", title: "Costs", weight: 20, make: Families.computeCost),
                Domain(slug: "storage-units", title: "Storage units", weight: 15, make: Families.storageUnits),
                Domain(slug: "transfer-time", title: "Transfer time", weight: 15, make: Families.transferTime),
                Domain(slug: "scaling", title: "Scaling", weight: 10, make: Families.scaling),
                Domain(slug: "incident-response", title: "Incident response", weight: 10, make: Families.incidentSteps),
                Domain(slug: "redundancy", title: "Redundancy", weight: 10, make: Families.redundancy),
            ])
    }

    static var javascript: Exam {
        Exam(
            slug: "javascript-developer", title: "JavaScript Developer",
            description: "Predict what short JavaScript programs print: arrays, strings, coercion and control flow.",
            language: "en", passMark: 65, timeLimitSeconds: 60 * 60, questionCount: 45,
            domains: [
                Domain(slug: "array-methods", title: "Array methods", weight: 25, make: Families.javascriptArrays),
                Domain(slug: "strings", title: "Strings", weight: 20, make: Families.javascriptStrings),
                Domain(slug: "coercion", title: "Type coercion", weight: 15, make: Families.javascriptCoercion),
                Domain(slug: "loops", title: "Loops", weight: 20, make: Families.javascriptLoops),
                Domain(slug: "event-loop", title: "The event loop", weight: 10, make: Families.eventLoopOrder),
                Domain(slug: "falsy-values", title: "Falsy values", weight: 10, make: Families.javascriptFalsy),
            ])
    }

    static var security: Exam {
        Exam(
            slug: "security-essentials", title: "Security Essentials",
            description: "Entropy, hashes, secure ports, handshakes and the arithmetic of brute force.",
            language: "en", passMark: 75, timeLimitSeconds: 90 * 60, questionCount: 60,
            domains: [
                Domain(slug: "entropy", title: "Password entropy", weight: 15, make: Families.entropy),
                Domain(slug: "hashes", title: "Hash output sizes", weight: 10, make: Families.hashLengths),
                Domain(slug: "brute-force", title: "Brute-force time", weight: 10, make: Families.bruteForce),
                Domain(slug: "secure-ports", title: "Secure protocols and ports", weight: 15, make: Families.securePorts),
                Domain(slug: "tls", title: "TLS handshake", weight: 10, make: Families.tlsSteps),
                Domain(slug: "private-networks", title: "Private networks", weight: 10, make: Families.privateAddresses),
                Domain(slug: "key-space", title: "Key space", weight: 10, make: Families.keySpace),
                Domain(slug: "hash-matching", title: "Hash sizes, matched", weight: 10, make: Families.hashMatching),
                Domain(slug: "network-diagrams", title: "Controls in a network diagram", weight: 10, make: Families.securityDiagrams),
            ])
    }
}
