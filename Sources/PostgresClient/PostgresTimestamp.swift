import Foundation

/// Reads and writes `timestamptz` in the text form a session with `DateStyle=ISO` and
/// `TimeZone=UTC` uses: `2025-01-16 01:43:00.123456+00`.
enum PostgresTimestamp {
    static func format(_ date: Date) -> String {
        let totalMicros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        var seconds = Int(floor(totalMicros / 1_000_000))
        let micros = Int(totalMicros) - seconds * 1_000_000
        let days = Int(floor(Double(seconds) / 86_400))
        seconds -= days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let yearText = year > 0 ? pad(year, 4) : pad(1 - year, 4)
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2)) \(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(micros, 6))+00"
            + (year > 0 ? "" : " BC")
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.ffffff](+|-)HH[:MM[:SS]]`; nil when the text is not of that form.
    static func parse(_ text: Substring) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2), expect(UInt8(ascii: " ")), let hour = number(2), expect(UInt8(ascii: ":")),
              let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2)
        else { return nil }
        var micros = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 6 { micros = micros * 10 + Int(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            for _ in digits..<max(digits, 6) { micros *= 10 }
        }
        guard index < bytes.count else { return nil }
        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let offsetHours = number(2) else { return nil }
        var offset = offsetHours * 3600
        if expect(UInt8(ascii: ":")), let minutes = number(2) {
            offset += minutes * 60
            if expect(UInt8(ascii: ":")), let secs = number(2) { offset += secs }
        }
        var days = Self.days(fromCivil: year, month, day)
        if index < bytes.count {
            guard String(decoding: bytes[index...], as: UTF8.self) == " BC" else { return nil }
            days = Self.days(fromCivil: 1 - year, month, day)
        }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - sign * offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
