import Foundation

/// iCalendar text as RFC 5545 writes it: content lines ending in CRLF, folded before 75
/// octets (never inside a UTF-8 character), TEXT values escaped, times in UTC.
struct ICalendarText {
    private(set) var text = ""

    /// One property: `name` (with any parameters, `DTSTART;VALUE=DATE`) and its raw value.
    mutating func line(_ name: String, _ value: String) {
        append(name + ":" + value)
    }

    /// One property whose value is TEXT: backslashes, semicolons, commas and newlines escaped.
    mutating func text(_ name: String, _ value: String) {
        line(name, Self.escaped(value))
    }

    /// An alarm that shows `text`, `trigger` from the event's start (`PT0M`, `-P1D`).
    mutating func alarm(_ text: String, trigger: String) {
        line("BEGIN", "VALARM")
        line("ACTION", "DISPLAY")
        self.text("DESCRIPTION", text)
        line("TRIGGER", trigger)
        line("END", "VALARM")
    }

    /// A content line folded at 75 octets: each continuation begins with one space (RFC 5545 §3.1).
    private mutating func append(_ line: String) {
        var octets = 0
        var folded = ""
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                folded += "\r\n "
                octets = 1
            }
            folded.append(character)
            octets += size
        }
        text += folded + "\r\n"
    }

    /// A TEXT value (RFC 5545 §3.3.11).
    static func escaped(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n", "\r\n": escaped += "\\n"
            case "\r": continue
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A UTC DATE-TIME: `20261205T170000Z`.
    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .gmt
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// A DATE from `YYYY-MM-DD`: `20261205`.
    static func date(_ day: String) -> String { day.replacingOccurrences(of: "-", with: "") }
}
