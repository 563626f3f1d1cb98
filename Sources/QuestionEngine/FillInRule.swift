import Foundation

/// A fill-in question's key: the accepted answers and how a typed answer is compared with them.
/// Both sides are normalised first — Unicode NFC, blanks trimmed, inner runs of blanks made one
/// space — and a number may be typed with full-width digits or a decimal comma, so a student is
/// not marked wrong for their keyboard. The database (`fill_in_normalized`, `fill_in_number`)
/// and the browser apply the same rules.
public struct FillInRule: Sendable, Equatable {
    public var accepted: [String]
    public var match: FillInMatch
    public var tolerance: Double

    public init(accepted: [String], match: FillInMatch, tolerance: Double = 0) {
        self.accepted = accepted
        self.match = match
        self.tolerance = tolerance
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

    /// Whether a typed answer (already normalised and not empty) is one of the accepted ones.
    func accepts(_ answer: String) -> Bool {
        switch match {
        case .exact:
            return accepted.contains { Self.normalized($0) == answer }
        case .caseInsensitive:
            let lower = answer.lowercased()
            return accepted.contains { Self.normalized($0).lowercased() == lower }
        case .numeric:
            guard let value = Self.number(answer) else { return false }
            return accepted.contains { Self.number(Self.normalized($0)).map { abs(value - $0) <= tolerance } ?? false }
        }
    }
}
