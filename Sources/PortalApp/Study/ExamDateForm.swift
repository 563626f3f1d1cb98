import ExamData
import Foundation
import HTTPServer
import QuestionEngine

/// The day a student sits an exam: the form on the exam page (`POST
/// /exams/:region/:exam/date`), and how the exam page and the dashboard word it.
struct ExamDateForm: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date

    /// The furthest ahead a date may be: certification exams are booked months ahead, not years.
    static let furthestDays = 3 * 366

    /// What the exam page shows a student: the form, with their date when they have set one.
    struct Section: Encodable {
        var action: String
        /// `YYYY-MM-DD`, for the date field; empty when unset.
        var day: String
        var hasDate: Bool
        /// "You sit this exam on 15 December 2026: …", when set.
        var sentence: String?
    }

    static func section(region: String, slug: String, date: ExamDate?, pages: PageRenderer, locale: String) -> Section {
        Section(
            action: "/exams/\(region)/\(slug)/date", day: date?.day ?? "", hasDate: date != nil,
            sentence: date.map { pages.message("exam_date.set", locale: locale, ["date": longDate($0.day, locale: locale)]) })
    }

    /// Saves (or clears, with `clear`) the date and reschedules the student's cards for it.
    func save(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = FormFields(body: request.body)
        let region = request.parameter("region"), slug = request.parameter("exam")
        let clear = form["clear"] != nil
        let typed = (form["sits_on"] ?? "").trimmingCharacters(in: .whitespaces)
        let now = clock()
        try request.database.transaction { connection in
            guard let exam = try ExamCatalog().examHeading(region: region, slug: slug, connection) else {
                throw HTTPError(.notFound, pages.message("error.no_exam", for: request, ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))]))
            }
            let store = ExamDateStore()
            if clear {
                try store.set(examID: exam.id, day: nil, at: now, connection)
                return
            }
            guard let day = Self.calendarDay(typed) else {
                throw HTTPError(.unprocessableContent, pages.message("exam_date.invalid", for: request, ["value": String(typed.prefix(20))]))
            }
            let today = LocalDates.day(of: now, zone: TimeZone(identifier: user.timeZone) ?? .gmt)
            guard day >= today else { throw HTTPError(.unprocessableContent, pages.message("exam_date.past", for: request)) }
            guard let furthest = Self.adding(days: Self.furthestDays, to: today), day <= furthest else {
                throw HTTPError(.unprocessableContent, pages.message("exam_date.too_far", for: request))
            }
            try store.set(examID: exam.id, day: day, at: now, connection)
        }
        return .redirect(to: "/exams/\(region)/\(slug)#exam-date")
    }

    /// `text` when it is a real calendar day written `YYYY-MM-DD` (what a date field sends).
    static func calendarDay(_ text: String) -> String? {
        guard let date = LocalDates.midnight(of: text), LocalDates.day(of: date) == text, text >= "2000-01-01" else { return nil }
        return text
    }

    /// The calendar day `days` after `day` (both `YYYY-MM-DD`).
    static func adding(days: Int, to day: String) -> String? {
        LocalDates.midnight(of: day).flatMap { LocalDates.utc.date(byAdding: .day, value: days, to: $0) }.map { LocalDates.day(of: $0) }
    }

    /// Whole days from `today` to `day` (both `YYYY-MM-DD`).
    static func days(from today: String, to day: String) -> Int? {
        guard let start = LocalDates.midnight(of: today), let end = LocalDates.midnight(of: day) else { return nil }
        return LocalDates.utc.dateComponents([.day], from: start, to: end).day
    }

    /// "15 December 2026" in the page's language.
    static func longDate(_ day: String, locale: String) -> String { LocalDates.day(day, locale: locale) }
}
