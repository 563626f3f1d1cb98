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
        /// `YYYY-MM-DD`, for the date field; empty when unset. The refused day, when one was.
        var day: String
        var hasDate: Bool
        /// "You sit this exam on 15 December 2026: …", when set.
        var sentence: String?
        /// The days the field offers (`min`, `max`): today in the student's zone to
        /// `furthestDays` ahead.
        var earliest: String
        var latest: String
        /// Why the date just sent was refused, said beside the field.
        var error: String?
    }

    /// A date the form refused: the exam page is shown again (422) with the reason beside the
    /// field and what was typed in it, never a page of its own.
    struct Refusal: Error, Sendable {
        var message: String
        var typed: String
    }

    static func section(
        region: String, slug: String, date: ExamDate?, today: String, refusal: Refusal? = nil, pages: PageRenderer, locale: String
    ) -> Section {
        Section(
            action: "/exams/\(region)/\(slug)/date", day: refusal?.typed ?? date?.day ?? "", hasDate: date != nil,
            sentence: date.map { pages.message("exam_date.set", locale: locale, ["date": longDate($0.day, locale: locale)]) },
            earliest: today, latest: adding(days: furthestDays, to: today) ?? today, error: refusal?.message)
    }

    /// Today in the student's zone, as the date field writes days.
    static func today(at now: Date, for user: SessionUser) -> String {
        LocalDates.day(of: now, zone: TimeZone(identifier: user.timeZone) ?? .gmt)
    }

    /// What the form sends: the day typed, or the clear button.
    struct Sent: PostedForm {
        let clear: Bool
        let typed: String

        init(_ form: FormReader) throws(PageRefusal) {
            (clear, typed) = (form.has("clear"), form.text("sits_on").trimmingCharacters(in: .whitespaces))
        }
    }

    /// Saves (or clears, with `clear`) the date and reschedules the student's cards for it;
    /// throws `Refusal` for a date it cannot take.
    func save(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress) throws -> Response {
        let form = try request.form(Sent.self)
        let region = exam.region, slug = exam.slug
        let (clear, typed) = (form.clear, form.typed)
        let now = clock()
        try request.database.transaction { connection in
            guard let exam = try ExamCatalog().examHeading(region: region, slug: slug, connection) else {
                throw PageRefusal.noExam(region: region, slug: slug)
            }
            let store = ExamDateStore()
            if clear {
                try store.set(examID: exam.id, day: nil, at: now, connection)
                return
            }
            let shown = String(typed.prefix(20))
            guard let day = Self.calendarDay(typed) else {
                // A date field holds only a day: what was typed is quoted in the message instead.
                throw Refusal(message: pages.message("exam_date.invalid", for: request, ["value": shown]), typed: "")
            }
            let today = Self.today(at: now, for: user)
            guard day >= today else { throw Refusal(message: pages.message("exam_date.past", for: request), typed: day) }
            guard let furthest = Self.adding(days: Self.furthestDays, to: today), day <= furthest else {
                throw Refusal(message: pages.message("exam_date.too_far", for: request), typed: day)
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
