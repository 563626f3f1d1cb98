import Foundation

/// When a practised question comes back for this student, said after their answer from the
/// review card the database has just scheduled, in their zone and language: "Back in 10
/// minutes", "Back today at 18:40", "Back tomorrow", "Back in 4 days — Friday", "Back in 12 days
/// — 19 December". (Anki shows the same on each of its answer buttons.)
enum ComesBack {
    static func text(due: Date, now: Date, zone: TimeZone, pages: PageRenderer, locale: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: due)).day ?? 0
        let formatter = LocalDates.formatter(locale: locale, zone: zone)
        if days <= 0 {
            let minutes = max(1, Int((due.timeIntervalSince(now) / 60).rounded(.up)))
            if minutes < 60 {
                return pages.message("sessions.back_minutes", locale: locale, ["count": String(minutes)], count: Double(minutes))
            }
            formatter.setLocalizedDateFormatFromTemplate("jjmm")
            return pages.message("sessions.back_today", locale: locale, ["time": formatter.string(from: due)])
        }
        if days == 1 { return pages.message("sessions.back_tomorrow", locale: locale) }
        formatter.setLocalizedDateFormatFromTemplate(days < 7 ? "EEEE" : "dMMMM")
        return pages.message("sessions.back_days", locale: locale, ["count": String(days), "day": formatter.string(from: due)], count: Double(days))
    }
}
