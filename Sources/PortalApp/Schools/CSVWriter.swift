/// CSV for spreadsheets: UTF-8 with a byte-order mark (so Japanese and Thai names open right),
/// quoted where needed, and safe from formula injection (a cell starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return is prefixed with `'`, so it stays text).
enum CSVWriter {
    static func document(_ rows: [[String]]) -> [UInt8] {
        var text = "\u{FEFF}"
        for row in rows {
            text += row.map(cell).joined(separator: ",") + "\r\n"
        }
        return Array(text.utf8)
    }

    static func cell(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@\t\r".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
