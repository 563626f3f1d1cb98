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
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = .gmt
        guard parts.count == 3, let date = gregorian.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else { return day }
        let formatter = formatter(locale: locale, zone: .gmt)
        formatter.setLocalizedDateFormatFromTemplate("dMMMMy")
        return formatter.string(from: date)
    }
}
