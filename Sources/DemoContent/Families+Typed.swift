import QuestionEngine

/// Questions answered by typing or by matching: an address typed in, a program's output typed
/// in, ports and hash sizes matched with what they belong to. Every key is computed.
extension Families {
    /// An address of a subnet, typed: the network, broadcast, first or last host address.
    static func typedAddresses(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let prefix = Int.random(in: 17...29, using: &r)
        let address = UInt32(192) << 24 | UInt32(168) << 16 | UInt32.random(in: 0...0xFFFF, using: &r)
        let mask = UInt32.max << UInt32(32 - prefix)
        let network = address & mask, broadcast = network | ~mask
        let asks: [(String, UInt32, String)] = [
            ("broadcast address", broadcast, "set every host bit to 1"),
            ("network address", network, "set every host bit to 0"),
            ("first usable host address", network &+ 1, "take the network address and add 1"),
            ("last usable host address", broadcast &- 1, "take the broadcast address and subtract 1"),
        ]
        let (name, answer, rule) = asks[index % asks.count]
        return QuestionBuilder.fillIn(
            key: key, stem: "Type the \(name) of the subnet that \(ip(address))/\(prefix) belongs to.", accepted: [ip(answer)],
            explanation: "The mask keeps the first \(prefix) bits: the network is \(ip(network)) and the broadcast \(ip(broadcast)); for the \(name), \(rule): \(ip(answer)).",
            difficulty: difficulty(prefix: prefix))
    }

    /// Four services matched with their default ports, among two ports that belong to none of them.
    static func portMatching(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let chosen = Array(ports.shuffled(using: &r).prefix(6))
        let pairs = chosen.prefix(4).map { (item: $0.0, answer: String($0.1)) }
        return QuestionBuilder.matching(
            key: key, stem: "Match each service with the port it listens on by default.", pairs: Array(pairs),
            distractors: chosen.suffix(2).map { String($0.1) },
            explanation: pairs.map { "\($0.item): \($0.answer)" }.joined(separator: "; ") + ".",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    /// Hash functions matched with the size of their digests, among sizes none of them has.
    static func hashMatching(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let chosen = Array(hashes.shuffled(using: &r).prefix(4))
        let sizes = Set(chosen.map(\.1))
        let extra = [64, 96, 192, 320, 1024].filter { !sizes.contains($0) }.shuffled(using: &r).prefix(2)
        let pairs = chosen.prefix(3).map { (item: $0.0, answer: "\($0.1) bits") }
        return QuestionBuilder.matching(
            key: key, stem: "Match each hash function with the size of its digest.", pairs: Array(pairs),
            distractors: [chosen[3]].map { "\($0.1) bits" } + extra.map { "\($0) bits" },
            explanation: pairs.map { "\($0.item) gives \($0.answer)" }.joined(separator: "; ") + ".",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    /// A short Python program whose printed number is typed in (Italian).
    static func pythonTyped(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let a = Int.random(in: 10...60, using: &r), b = Int.random(in: 2...7, using: &r)
        let forms: [(String, Int, String)] = [
            ("print(\(a) // \(b))", a / b, "// è la divisione intera: \(a) // \(b) = \(a / b)."),
            ("print(\(a) % \(b))", a % b, "% è il resto: \(a) = \(b) × \(a / b) + \(a % b)."),
            ("x = \(a)\nx -= \(b) * 2\nprint(x)", a - b * 2, "x diventa \(a) − \(b * 2) = \(a - b * 2)."),
            ("print(len(range(\(b), \(a))))", a - b, "range(\(b), \(a)) va da \(b) a \(a - 1): \(a - b) numeri."),
            ("print(sum([\(a), \(b), \(a % b)]))", a + b + a % b, "\(a) + \(b) + \(a % b) = \(a + b + a % b)."),
        ]
        let (code, result, why) = forms[index % forms.count]
        return QuestionBuilder.fillIn(
            key: key, stem: "Scrivi il numero che questo programma stampa.", code: code, language: "python", accepted: [String(result)],
            match: .numeric, explanation: why, difficulty: DemoCorpus.difficulty(index))
    }
}
