import ExamData
import Foundation
import HTTPServer
import TemplateEngine

/// `GET /me/review`: everything due for review across the student's exams, a button to review
/// each, and the next 30 days of reviews as a chart (with the same numbers as a table). One
/// read of the student's cards grouped by exam and day; the exams' names come from the shared
/// domain facts.
struct ReviewPage: Encodable {
    struct Exam: Encodable {
        var title: String
        var language: String
        var regionCode: String
        var slug: String
        var due: String
        /// The questions the button starts: everything due, up to a session's most.
        var reviewCount: Int
    }

    struct Day: Encodable {
        var date: String
        var reviews: Int
    }

    static let daysAhead = 30

    var csrfToken: String
    /// "5 questions are due for review today." or "Nothing is due for review today."
    var lead: String
    var anyDue: Bool
    /// The day and size of the next reviews when nothing is due today.
    var next: String?
    /// No cards at all: what the page is for, and where to start.
    var nothingStudied: Bool
    var exams: [Exam]
    /// The next 30 days as a bar chart (SVG), when anything is due in them.
    var chart: String?
    /// The chart's description: how many in all and the busiest day.
    var chartSummary: String
    var days: [Day]
    /// Each exam within the next 30 days: "Network Fundamentals on 14 December: 12 reviews until then."
    var examPlans: [String]

    static func handler(
        pages: PageRenderer, clock: @escaping @Sendable () -> Date, versions: SharedVersions, domains: DomainFactsCache
    ) -> @Sendable (PortalRequest, SessionUser) throws -> Response {
        { request, user in
            let locale = pages.locale(for: request), now = clock()
            let catalog = ExamCatalog()
            let version = try versions.catalogue { try request.database.shared { try catalog.catalogVersion($0) } }
            let facts = try domains.facts(version: version) { try request.database.shared { try catalog.domainFacts($0) } }
            let read = try request.database.read([ReviewForecast.statement(now: now, days: daysAhead), ExamDateStore.datesStatement])
            let page = ReviewPage(
                user: user, forecast: try ReviewForecast.forecast(read[0]), examDates: try ExamDateStore.dates(read[1]), facts: facts, pages: pages,
                locale: locale, now: now)
            return .html(try pages.render("me/review", page, for: request))
        }
    }

    init(
        user: SessionUser, forecast: ReviewForecast, examDates: [Int: ExamDate], facts: [Int: DomainFacts], pages: PageRenderer, locale: String, now: Date
    ) {
        csrfToken = user.csrfToken
        let today = LocalDates.day(of: now, zone: TimeZone(identifier: user.timeZone) ?? .gmt)
        let examFacts = Dictionary(facts.values.map { ($0.examID, $0) }, uniquingKeysWith: { first, _ in first })
        exams = forecast.dueToday.compactMap { examID, due -> Exam? in
            guard let exam = examFacts[examID], due > 0 else { return nil }
            return Exam(
                title: exam.examTitle, language: exam.language, regionCode: exam.regionCode, slug: exam.examSlug,
                due: pages.message("dashboard.due", locale: locale, ["count": NumberFormatting.grouped(due, locale: locale)], count: Double(due)),
                reviewCount: min(due, SessionStart.maximumCount))
        }.sorted { $0.title < $1.title }
        let perDay = forecast.perDay(Self.daysAhead)
        let dueNow = perDay.first ?? 0
        anyDue = dueNow > 0
        nothingStudied = forecast.counts.isEmpty
        lead = anyDue
            ? pages.message("review.lead_due", locale: locale, ["count": NumberFormatting.grouped(dueNow, locale: locale)], count: Double(dueNow))
            : pages.message("review.lead_none", locale: locale)
        let dates = (0..<Self.daysAhead).map { LocalDates.day(LocalDates.day(today, plus: $0), locale: locale) }
        next = anyDue ? nil : perDay.firstIndex { $0 > 0 }.map { index in
            pages.message("review.next", locale: locale, [
                "count": NumberFormatting.grouped(perDay[index], locale: locale), "date": dates[index],
            ], count: Double(perDay[index]))
        }
        days = zip(dates, perDay).map { Day(date: $0, reviews: $1) }
        // An exam within the chart's days: its day named under its bar, and the reviews until then.
        let examDays = examDates.compactMap { examID, date -> (day: Int, title: String)? in
            guard let day = ExamDateForm.days(from: today, to: date.day), (0..<Self.daysAhead).contains(day) else { return nil }
            return (day, examFacts[examID]?.examTitle ?? "")
        }.sorted { $0.day < $1.day }
        examPlans = examDays.map { exam in
            let before = perDay.prefix(exam.day).reduce(0, +)
            return pages.message("review.exam_plan", locale: locale, [
                "exam": exam.title, "date": dates[exam.day], "count": NumberFormatting.grouped(before, locale: locale),
            ], count: Double(before))
        }
        let total = perDay.reduce(0, +)
        if total == 0 {
            chart = nil
            chartSummary = pages.message("review.forecast_empty", locale: locale)
        } else {
            let busiest = perDay.indices.max { perDay[$0] < perDay[$1] || (perDay[$0] == perDay[$1] && $0 > $1) } ?? 0
            chartSummary = pages.message("review.forecast_summary", locale: locale, [
                "count": NumberFormatting.grouped(total, locale: locale), "date": dates[busiest],
                "most": NumberFormatting.grouped(perDay[busiest], locale: locale),
            ], count: Double(total))
            // Today and every seventh day are named under their bars; each bar tells its own on hover.
            let short = LocalDates.shortDays(today, count: Self.daysAhead, locale: locale)
            chart = BarChartSVG.svg(
                bars: perDay.indices.map { index in
                    BarChartSVG.Bar(
                        label: examDays.contains { $0.day == index && index > 0 } ? pages.message("review.exam_day", locale: locale)
                            : index == 0 ? pages.message("review.today", locale: locale) : index % 7 == 0 ? short[index] : "",
                        value: Double(perDay[index]), marked: index == 0,
                        tip: pages.message("review.tip", locale: locale, [
                            "date": dates[index], "count": NumberFormatting.grouped(perDay[index], locale: locale),
                        ]))
                },
                title: pages.message("review.forecast_title", locale: locale), description: chartSummary,
                unit: pages.message("review.forecast_unit", locale: locale, ["most": NumberFormatting.grouped(perDay.max() ?? 0, locale: locale)]),
                id: "forecast-chart", step: 11)
        }
    }
}
