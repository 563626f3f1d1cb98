import QuestionEngine

/// Network fundamentals in Spanish, German, Simplified Chinese and Thai: the same computations
/// as the English families (so every key is right by construction), worded by a phrasebook as
/// a native speaker would write the question.
struct NetworkPhrasebook: Sendable {
    /// "How many usable host addresses does an IPv4 network with prefix /26 have?"
    var hostsStem: @Sendable (_ prefix: Int) -> String
    var hostsCountsAll: String
    var hostsOneUnusable: String
    /// "That is the count for /27."
    var hostsOtherPrefix: @Sendable (_ prefix: Int) -> String
    /// "A /26 leaves 6 host bits: 2^6 = 64 addresses, minus the network and broadcast addresses."
    var hostsExplanation: @Sendable (_ prefix: Int, _ bits: Int, _ size: Int) -> String
    /// "What is the broadcast (or network) address of 10.1.2.3/20?"
    var addressStem: @Sendable (_ broadcast: Bool, _ address: String, _ prefix: Int) -> String
    var isNetwork: String
    var isBroadcast: String
    var isHost: String
    var isLastHost: String
    var isFirstHost: String
    var isShorterPrefix: String
    /// "Keep the first 20 bits of 10.1.2.3 and set the rest to ones: 10.1.15.255."
    var addressExplanation: @Sendable (_ prefix: Int, _ address: String, _ broadcast: Bool, _ answer: String) -> String
    /// "What is the decimal number 200 in hexadecimal (binary)?"
    var basesStem: @Sendable (_ value: Int, _ hexadecimal: Bool) -> String
    /// "That is 201 in decimal."
    var basesOther: @Sendable (_ value: Int) -> String
    /// "200 = 0xC8 (divide by 16 repeatedly and read the remainders backwards)."
    var basesExplanation: @Sendable (_ value: Int, _ answer: String, _ hexadecimal: Bool) -> String

    static let spanish = NetworkPhrasebook(
        hostsStem: { "¿Cuántas direcciones de host utilizables tiene una red IPv4 con prefijo /\($0)?" },
        hostsCountsAll: "Eso cuenta también las direcciones de red y de difusión.",
        hostsOneUnusable: "No se pueden usar ni la dirección de red ni la de difusión, no solo una de ellas.",
        hostsOtherPrefix: { "Ese es el número para /\($0)." },
        hostsExplanation: { "Un /\($0) deja \($1) bits de host: 2^\($1) = \($2) direcciones, menos las de red y de difusión." },
        addressStem: { "¿Cuál es la dirección de \($0 ? "difusión" : "red") de \($1)/\($2)?" },
        isNetwork: "Esa es la dirección de red.", isBroadcast: "Esa es la dirección de difusión.", isHost: "Esa es la dirección del propio host.",
        isLastHost: "Ese es el último host utilizable.", isFirstHost: "Ese es el primer host utilizable.", isShorterPrefix: "Eso usa un prefijo más corto.",
        addressExplanation: { "Conserva los primeros \($0) bits de \($1) y pon el resto a \($2 ? "unos" : "ceros"): \($3)." },
        basesStem: { "¿Cómo se escribe el número decimal \($0) en \($1 ? "hexadecimal" : "binario")?" },
        basesOther: { "Ese es el \($0) en decimal." },
        basesExplanation: { "\($0) = \($1) (divide entre \($2 ? "16" : "2") una y otra vez y lee los restos al revés)." })

    static let german = NetworkPhrasebook(
        hostsStem: { "Wie viele nutzbare Hostadressen hat ein IPv4-Netz mit dem Präfix /\($0)?" },
        hostsCountsAll: "Da sind die Netz- und die Broadcastadresse mitgezählt.",
        hostsOneUnusable: "Weder die Netz- noch die Broadcastadresse ist nutzbar, nicht nur eine von beiden.",
        hostsOtherPrefix: { "Das ist die Anzahl für /\($0)." },
        hostsExplanation: { "Ein /\($0) lässt \($1) Hostbits: 2^\($1) = \($2) Adressen, abzüglich Netz- und Broadcastadresse." },
        addressStem: { "Wie lautet die \($0 ? "Broadcastadresse" : "Netzadresse") von \($1)/\($2)?" },
        isNetwork: "Das ist die Netzadresse.", isBroadcast: "Das ist die Broadcastadresse.", isHost: "Das ist die Adresse des Hosts selbst.",
        isLastHost: "Das ist der letzte nutzbare Host.", isFirstHost: "Das ist der erste nutzbare Host.", isShorterPrefix: "Das verwendet ein kürzeres Präfix.",
        addressExplanation: { "Behalte die ersten \($0) Bits von \($1) und setze den Rest auf \($2 ? "Einsen" : "Nullen"): \($3)." },
        basesStem: { "Wie lautet die Dezimalzahl \($0) im \($1 ? "Hexadezimalsystem" : "Binärsystem")?" },
        basesOther: { "Das ist \($0) im Dezimalsystem." },
        basesExplanation: { "\($0) = \($1) (wiederholt durch \($2 ? "16" : "2") teilen und die Reste von hinten lesen)." })

    static let chinese = NetworkPhrasebook(
        hostsStem: { "前缀为 /\($0) 的 IPv4 网络有多少个可用的主机地址？" },
        hostsCountsAll: "这个数把网络地址和广播地址也算进去了。",
        hostsOneUnusable: "网络地址和广播地址都不能用，而不只是其中一个。",
        hostsOtherPrefix: { "这是 /\($0) 的地址数。" },
        hostsExplanation: { "/\($0) 留下 \($1) 个主机位：2^\($1) = \($2) 个地址，再减去网络地址和广播地址。" },
        addressStem: { "\($1)/\($2) 的\($0 ? "广播地址" : "网络地址")是什么？" },
        isNetwork: "这是网络地址。", isBroadcast: "这是广播地址。", isHost: "这是主机本身的地址。",
        isLastHost: "这是最后一个可用主机。", isFirstHost: "这是第一个可用主机。", isShorterPrefix: "这用了更短的前缀。",
        addressExplanation: { "保留 \($1) 的前 \($0) 位，其余各位置为 \($2 ? "1" : "0")：\($3)。" },
        basesStem: { "十进制数 \($0) 用\($1 ? "十六进制" : "二进制")怎么表示？" },
        basesOther: { "这是十进制的 \($0)。" },
        basesExplanation: { "\($0) = \($1)（反复除以 \($2 ? "16" : "2")，再把余数倒过来读）。" })

    static let thai = NetworkPhrasebook(
        hostsStem: { "เครือข่าย IPv4 ที่มีพรีฟิกซ์ /\($0) มีที่อยู่โฮสต์ที่ใช้งานได้กี่ที่อยู่" },
        hostsCountsAll: "ตัวเลขนี้นับรวมที่อยู่เครือข่ายและที่อยู่บรอดแคสต์ด้วย",
        hostsOneUnusable: "ใช้งานไม่ได้ทั้งที่อยู่เครือข่ายและที่อยู่บรอดแคสต์ ไม่ใช่แค่อย่างใดอย่างหนึ่ง",
        hostsOtherPrefix: { "นั่นคือจำนวนของ /\($0)" },
        hostsExplanation: { "/\($0) เหลือบิตโฮสต์ \($1) บิต: 2^\($1) = \($2) ที่อยู่ ลบที่อยู่เครือข่ายและที่อยู่บรอดแคสต์ออก" },
        addressStem: { "\($0 ? "ที่อยู่บรอดแคสต์" : "ที่อยู่เครือข่าย")ของ \($1)/\($2) คืออะไร" },
        isNetwork: "นั่นคือที่อยู่เครือข่าย", isBroadcast: "นั่นคือที่อยู่บรอดแคสต์", isHost: "นั่นคือที่อยู่ของโฮสต์เอง",
        isLastHost: "นั่นคือโฮสต์สุดท้ายที่ใช้งานได้", isFirstHost: "นั่นคือโฮสต์แรกที่ใช้งานได้", isShorterPrefix: "นั่นใช้พรีฟิกซ์ที่สั้นกว่า",
        addressExplanation: { "เก็บ \($0) บิตแรกของ \($1) ไว้ แล้วตั้งบิตที่เหลือเป็น \($2 ? "1" : "0"): \($3)" },
        basesStem: { "เลขฐานสิบ \($0) เขียนเป็น\($1 ? "เลขฐานสิบหก" : "เลขฐานสอง")ได้อย่างไร" },
        basesOther: { "นั่นคือ \($0) ในฐานสิบ" },
        basesExplanation: { "\($0) = \($1) (หารด้วย \($2 ? "16" : "2") ซ้ำๆ แล้วอ่านเศษจากหลังมาหน้า)" })
}

extension Families {
    /// Usable hosts of a prefix, worded by `phrases` (the computation of `subnetHosts`).
    static func subnetHosts(_ phrases: NetworkPhrasebook) -> (String, Int, inout Random) -> NewQuestion {
        { key, _, r in
            let prefix = Int.random(in: 16...30, using: &r)
            let bits = 32 - prefix, size = 1 << bits
            return QuestionBuilder.single(
                key: key, stem: phrases.hostsStem(prefix), answer: Choice(text: "\(size - 2)", explanation: ""),
                distractors: [
                    Choice(text: "\(size)", explanation: phrases.hostsCountsAll),
                    Choice(text: "\(size - 1)", explanation: phrases.hostsOneUnusable),
                    Choice(text: "\(size / 2 - 2)", explanation: phrases.hostsOtherPrefix(prefix + 1)),
                    Choice(text: "\(size * 2 - 2)", explanation: phrases.hostsOtherPrefix(prefix - 1)),
                ],
                explanation: phrases.hostsExplanation(prefix, bits, size),
                difficulty: prefix >= 28 ? 1 : prefix >= 24 ? 2 : prefix >= 21 ? 3 : prefix >= 18 ? 4 : 5, using: &r)
        }
    }

    /// A network or broadcast address, worded by `phrases` (the computation of `networkAddress`).
    static func networkAddress(_ phrases: NetworkPhrasebook) -> (String, Int, inout Random) -> NewQuestion {
        { key, index, r in
            let prefix = Int.random(in: 17...29, using: &r)
            let address = UInt32(10) << 24 | UInt32.random(in: 0...0xFFFFFF, using: &r)
            let mask = UInt32.max << UInt32(32 - prefix)
            let network = address & mask, broadcast = network | ~mask
            let askBroadcast = index % 2 == 1
            let answer = askBroadcast ? broadcast : network
            return QuestionBuilder.single(
                key: key, stem: phrases.addressStem(askBroadcast, ip(address), prefix), answer: Choice(text: ip(answer), explanation: ""),
                distractors: [
                    Choice(text: ip(askBroadcast ? network : broadcast), explanation: askBroadcast ? phrases.isNetwork : phrases.isBroadcast),
                    Choice(text: ip(address), explanation: phrases.isHost),
                    Choice(text: ip(askBroadcast ? broadcast &- 1 : network &+ 1), explanation: askBroadcast ? phrases.isLastHost : phrases.isFirstHost),
                    Choice(text: ip(address & (UInt32.max << UInt32(32 - max(8, prefix - 4)))), explanation: phrases.isShorterPrefix),
                ],
                explanation: phrases.addressExplanation(prefix, ip(address), askBroadcast, ip(answer)),
                difficulty: difficulty(prefix: prefix), using: &r)
        }
    }

    /// A decimal number in binary or hexadecimal, worded by `phrases` (the computation of `numberBases`).
    static func numberBases(_ phrases: NetworkPhrasebook) -> (String, Int, inout Random) -> NewQuestion {
        { key, index, r in
            let value = Int.random(in: 2...(index % 5 < 2 ? 255 : 65535), using: &r)
            let toHex = index % 2 == 0
            func written(_ number: Int) -> String { toHex ? "0x" + String(number, radix: 16, uppercase: true) : String(number, radix: 2) }
            let nearby = [value + 1, value - 1, value ^ 0x10, value * 2].filter { $0 > 0 }
            return QuestionBuilder.single(
                key: key, stem: phrases.basesStem(value, toHex), answer: Choice(text: written(value), explanation: ""),
                distractors: nearby.map { Choice(text: written($0), explanation: phrases.basesOther($0)) },
                explanation: phrases.basesExplanation(value, written(value), toHex),
                difficulty: value < 16 ? 1 : value < 256 ? 2 : value < 4096 ? 3 : 4, using: &r)
        }
    }
}

extension DemoCorpus {
    /// Network fundamentals in another language: three domains, each computed like the English ones.
    static func networkFundamentals(
        slug: String, title: String, description: String, language: String, domainTitles: (hosts: String, addresses: String, bases: String),
        phrases: NetworkPhrasebook, formulas: FormulaPhrasebook? = nil
    ) -> Exam {
        // The blueprint adds up to 100 with or without the formulas' domain.
        var domains = [
            Domain(slug: "subnet-sizes", title: domainTitles.hosts, weight: formulas == nil ? 35 : 30, make: Families.subnetHosts(phrases)),
            Domain(slug: "addresses", title: domainTitles.addresses, weight: formulas == nil ? 35 : 30, make: Families.networkAddress(phrases)),
            Domain(slug: "number-bases", title: domainTitles.bases, weight: formulas == nil ? 30 : 25, make: Families.numberBases(phrases)),
        ]
        // Questions with formulas, where the language has their words.
        if let formulas { domains.append(Domain(slug: "window-size", title: formulas.domainTitle, weight: 15, make: Families.windowSize(formulas))) }
        return Exam(
            slug: slug, title: title, description: description, language: language, passMark: 70, timeLimitSeconds: 45 * 60, questionCount: 30,
            domains: domains)
    }

    static var spanishNetworking: Exam {
        networkFundamentals(
            slug: "fundamentos-de-redes", title: "Fundamentos de redes",
            description: "Direccionamiento IPv4 y subredes, direcciones de red y de difusión, y sistemas de numeración.", language: "es",
            domainTitles: ("Tamaño de las subredes", "Direcciones de red y de difusión", "Binario y hexadecimal"), phrases: .spanish, formulas: .spanish)
    }

    static var germanNetworking: Exam {
        networkFundamentals(
            slug: "netzwerkgrundlagen", title: "Netzwerkgrundlagen",
            description: "IPv4-Adressierung und Subnetze, Netz- und Broadcastadressen sowie Zahlensysteme.", language: "de",
            domainTitles: ("Subnetzgrößen", "Netz- und Broadcastadressen", "Binär und hexadezimal"), phrases: .german, formulas: .german)
    }

    static var chineseNetworking: Exam {
        networkFundamentals(
            slug: "wangluo-jichu", title: "网络基础", description: "IPv4 编址与子网划分、网络地址与广播地址，以及数制转换。", language: "zh",
            domainTitles: ("子网大小", "网络地址与广播地址", "二进制与十六进制"), phrases: .chinese)
    }

    static var thaiNetworking: Exam {
        networkFundamentals(
            slug: "phuenthan-khruea-khai", title: "พื้นฐานเครือข่าย",
            description: "การกำหนดที่อยู่ IPv4 และการแบ่งซับเน็ต ที่อยู่เครือข่ายและที่อยู่บรอดแคสต์ และระบบเลขฐาน", language: "th",
            domainTitles: ("ขนาดของซับเน็ต", "ที่อยู่เครือข่ายและบรอดแคสต์", "เลขฐานสองและฐานสิบหก"), phrases: .thai)
    }
}
