/// CSV for spreadsheets: UTF-8 with a byte-order mark (so Japanese and Thai names open right),
/// quoted where needed, and safe from formula injection: a cell whose first character, after
/// any leading blanks, control or invisible (zero-width, bidi) characters, is `=`, `+`, `-`,
/// `@`, their full-width forms, a tab or a carriage return is prefixed with `'`, so it stays
/// text. (Spreadsheets skip what is invisible before deciding a cell is a formula.)
enum CSVWriter {
    static func document(_ rows: [[String]]) -> [UInt8] {
        var text = "\u{FEFF}"
        for row in rows {
            text += row.map(cell).joined(separator: ",") + "\r\n"
        }
        return Array(text.utf8)
    }

    static func cell(_ value: String) -> String {
        let value = startsLikeFormula(value) ? "'" + value : value
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet could read `value` as a formula.
    static func startsLikeFormula(_ value: String) -> Bool {
        for scalar in value.unicodeScalars {
            switch scalar {
            case "=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}": return true
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: continue
                default: return false
                }
            }
        }
        return false
    }
}
