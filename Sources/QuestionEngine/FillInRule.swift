import Foundation

/// A fill-in question's key: the accepted answers and how a typed answer is compared with them.
/// Both sides are normalised first — Unicode NFC, blanks trimmed, inner runs of blanks made one
/// space — and a number may be typed with full-width digits or a decimal comma, so a student is
/// not marked wrong for their keyboard. The database (`fill_in_normalized`, `fill_in_number`)
/// and the browser apply the same rules. An answer that is none of the accepted ones may still
/// be one worth part of the marks (`partial`): the best share among those it matches.
public struct FillInRule: Sendable, Equatable {
    public var accepted: [String]
    public var match: FillInMatch
    public var tolerance: Double
    public var partial: [PartialAnswer]

    public init(accepted: [String], match: FillInMatch, tolerance: Double = 0, partial: [PartialAnswer] = []) {
        self.accepted = accepted
        self.match = match
        self.tolerance = tolerance
        self.partial = partial
    }

    /// The longest answer taken (in Unicode scalars, after normalising).
    public static let maximumLength = 200

    /// The blanks normalising trims and collapses: ASCII blanks, no-break, the typographic
    /// spaces and the ideographic space.
    static let blanks: Set<Unicode.Scalar> = Set(
        [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{202F}", "\u{205F}", "\u{3000}"].map { Unicode.Scalar($0)! }
            + (0x2000...0x200A).compactMap(Unicode.Scalar.init))

    /// `text` in NFC, trimmed, each inner run of blanks one space.
    public static func normalized(_ text: String) -> String {
        var result = "", gap = false
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            if blanks.contains(scalar) {
                gap = !result.isEmpty
            } else {
                if gap { result.unicodeScalars.append(" ") }
                result.unicodeScalars.append(scalar)
                gap = false
            }
        }
        return result
    }

    /// The number a normalised answer states, or nil: digits (full-width ones too) with an
    /// optional sign and one decimal separator, a point or a comma.
    public static func number(_ text: String) -> Double? {
        var ascii = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xFF10...0xFF19: ascii.unicodeScalars.append(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)
            case 0xFF0E: ascii += "."
            case 0xFF0C: ascii += ","
            case 0xFF0B: ascii += "+"
            case 0xFF0D, 0x2212: ascii += "-"
            default: ascii.unicodeScalars.append(scalar)
            }
        }
        if ascii.contains(",") {
            guard !ascii.contains(".") else { return nil }
            ascii = ascii.replacingOccurrences(of: ",", with: ".")
        }
        guard ascii.range(of: #"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$"#, options: .regularExpression) != nil else { return nil }
        return Double(ascii)
    }

    /// The verdict on a typed answer (already normalised and not empty): right when it is one
    /// of the accepted answers, else the best share of the partly right ones it matches.
    func outcome(_ answer: String) -> AnswerOutcome {
        if accepted.contains(where: { matches(answer, $0, tolerance: tolerance) }) { return AnswerOutcome(isCorrect: true, score: 1) }
        let share = partial.filter { matches(answer, $0.answer, tolerance: $0.tolerance ?? tolerance) }.map(\.share).max() ?? 0
        return AnswerOutcome(isCorrect: false, score: share)
    }

    /// Whether a typed answer is `expected`, compared the question's way.
    private func matches(_ answer: String, _ expected: String, tolerance: Double) -> Bool {
        switch match {
        case .exact:
            return Self.normalized(expected) == answer
        case .caseInsensitive:
            return Self.normalized(expected).lowercased() == answer.lowercased()
        case .numeric:
            guard let value = Self.number(answer), let wanted = Self.number(Self.normalized(expected)) else { return false }
            return abs(value - wanted) <= tolerance
        }
    }
}
