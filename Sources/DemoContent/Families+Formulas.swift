import QuestionEngine

/// The words of the formula questions in one language.
struct FormulaPhrasebook: Sendable {
    var domainTitle: String
    /// "A link carries $B = 100$ Mbit/s with a round-trip time of $RTT = 40$ ms. …"
    var windowStem: @Sendable (_ bandwidth: Int, _ rtt: Int) -> String
    var forgotBits: String
    var oneWay: String
    var kilobits: String
    /// The explanation's lead, before its displayed formula.
    var windowLead: String
    var unit: String

    static let english = FormulaPhrasebook(
        domainTitle: "Formulas: the bandwidth-delay product",
        windowStem: { "A link carries $B = \($0)$ Mbit/s with a round-trip time of $RTT = \($1)$ ms. How large must the TCP window $W$ be, at least, to keep the link full?" },
        forgotBits: "That is the product in bits: divide by 8 for bytes.", oneWay: "That covers only half the round trip.",
        kilobits: "That is the window in kilobits, not kilobytes.",
        windowLead: "The window must hold everything sent during one round trip, the **bandwidth-delay product**:", unit: "kB")

    static let spanish = FormulaPhrasebook(
        domainTitle: "Fórmulas: el producto ancho de banda por retardo",
        windowStem: { "Un enlace transmite $B = \($0)$ Mbit/s con un tiempo de ida y vuelta de $RTT = \($1)$ ms. ¿Qué tamaño mínimo debe tener la ventana TCP $W$ para mantener el enlace lleno?" },
        forgotBits: "Es el producto en bits: divida entre 8 para obtener bytes.", oneWay: "Eso cubre solo la mitad del viaje de ida y vuelta.",
        kilobits: "Es la ventana en kilobits, no en kilobytes.",
        windowLead: "La ventana debe contener todo lo enviado durante un viaje de ida y vuelta, el **producto ancho de banda por retardo**:", unit: "kB")

    static let german = FormulaPhrasebook(
        domainTitle: "Formeln: das Bandbreiten-Verzögerungs-Produkt",
        windowStem: { "Eine Leitung überträgt $B = \($0)$ Mbit/s bei einer Umlaufzeit von $RTT = \($1)$ ms. Wie groß muss das TCP-Fenster $W$ mindestens sein, damit die Leitung ausgelastet bleibt?" },
        forgotBits: "Das ist das Produkt in Bit: Für Byte durch 8 teilen.", oneWay: "Das deckt nur die Hälfte der Umlaufzeit ab.",
        kilobits: "Das ist das Fenster in Kilobit, nicht in Kilobyte.",
        windowLead: "Das Fenster muss alles fassen, was während einer Umlaufzeit gesendet wird, das **Bandbreiten-Verzögerungs-Produkt**:", unit: "kB")
}

extension Families {
    /// The TCP window a link needs: its bandwidth times its round-trip time, in kilobytes. The
    /// stem and explanation are markdown with formulas (the explanation displays the working).
    static func windowSize(_ phrases: FormulaPhrasebook) -> (String, Int, inout Random) -> NewQuestion {
        { key, index, r in
            let bandwidths = [10, 20, 50, 100, 200, 500, 1_000], rtts = [8, 10, 20, 40, 80, 100, 160, 200]
            let bandwidth = bandwidths[Int.random(in: bandwidths.indices, using: &r)]
            let rtt = rtts[Int.random(in: rtts.indices, using: &r)]
            // B × RTT bits = B·10⁶ × RTT/1000 bits = B·RTT·1000 bits = B·RTT/8 kB.
            let kilobytes = Double(bandwidth * rtt) / 8
            func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
            let answer = number(kilobytes)
            var question = QuestionBuilder.single(
                key: key, stem: phrases.windowStem(bandwidth, rtt),
                answer: Choice(text: "\(answer) \(phrases.unit)", explanation: ""),
                distractors: [
                    Choice(text: "\(number(kilobytes * 8)) \(phrases.unit)", explanation: phrases.kilobits),
                    Choice(text: "\(number(kilobytes / 2)) \(phrases.unit)", explanation: phrases.oneWay),
                    Choice(text: "\(number(kilobytes * 8 * 1_000)) \(phrases.unit)", explanation: phrases.forgotBits),
                ],
                explanation: """
                    \(phrases.windowLead)

                    $$W = \\frac{B \\times RTT}{8} = \\frac{\(bandwidth) \\times 10^{6}\\,\\text{bit/s} \\times \(number(Double(rtt) / 1000))\\,\\text{s}}{8} = \(answer)\\ \\text{\(phrases.unit)}$$
                    """,
                difficulty: DemoCorpus.difficulty(index), using: &r)
            question.markup = "markdown"
            return question
        }
    }
}
