import Foundation

/// Dates as each language writes them: 15 December 2026, 15. Dezember 2026, 2026年12月15日.
/// Thai shows the Buddhist Era year (15 ธันวาคม 2569): it is the year Thai students see in
/// school, on forms and in the news, and ICU's Thai default; the Gregorian year would read as
/// a foreign date.
enum LocalDates {
    /// A formatter for `locale` in `zone`, in the calendar that language's readers expect.
    static func formatter(locale: String, zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale == "zh" ? "zh-Hans" : locale)
        formatter.calendar = Calendar(identifier: locale == "th" ? .buddhist : .gregorian)
        formatter.timeZone = zone
        return formatter
    }

    /// A calendar day (`YYYY-MM-DD`) written out: "15 December 2026" in English.
    static func day(_ day: String, locale: String) -> String {
        guard let date = midnight(of: day) else { return day }
        let formatter = formatter(locale: locale, zone: .gmt)
        formatter.setLocalizedDateFormatFromTemplate("dMMMMy")
        return formatter.string(from: date)
    }

    /// `count` calendar days from `first` (`YYYY-MM-DD`) as the reader's language writes a day of
    /// a month in short: "12 Dec", "12. Dez.", "12月12日" (a chart's labels).
    static func shortDays(_ first: String, count: Int, locale: String) -> [String] {
        guard let start = midnight(of: first) else { return Array(repeating: first, count: count) }
        let formatter = formatter(locale: locale, zone: .gmt)
        formatter.setLocalizedDateFormatFromTemplate("dMMM")
        return (0..<count).map { formatter.string(from: utc.date(byAdding: .day, value: $0, to: start) ?? start) }
    }

    /// A moment as the reader's language writes a day and a time: "6 December 2026, 14:05".
    static func dateTime(_ date: Date, locale: String, zone: TimeZone) -> String {
        let formatter = formatter(locale: locale, zone: zone)
        formatter.setLocalizedDateFormatFromTemplate("dMMMMyjjmm")
        return formatter.string(from: date)
    }

    /// Midnight UTC of a `YYYY-MM-DD` day, its fields read strictly (four, two and two digits;
    /// an impossible day such as 02-30 rolls over, which `day(of:)` then tells apart).
    static func midnight(of day: String) -> Date? {
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard day.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2])
        else { return nil }
        return utc.date(from: DateComponents(year: year, month: month, day: dayOfMonth))
    }

    /// The calendar day (`YYYY-MM-DD`) `date` falls on in `zone`.
    static func day(of date: Date, zone: TimeZone = .gmt) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The calendar day `days` after `day` (`YYYY-MM-DD`; negative: before it).
    static func day(_ day: String, plus days: Int) -> String {
        guard let midnight = midnight(of: day), let later = utc.date(byAdding: .day, value: days, to: midnight) else { return day }
        return self.day(of: later)
    }

    /// The Gregorian calendar in UTC, for arithmetic on calendar days.
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
}
