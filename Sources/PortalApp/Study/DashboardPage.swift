import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine
import TemplateEngine

/// `GET /me`: what is due today, the streak, readiness per exam, accuracy per domain over the
/// last weeks and the latest sessions. Every figure is aggregated by the database.
///
/// The figures are one fragment (`{{%figures}}`), kept for the reader's session by their data
/// version for up to a minute: meanwhile the page costs one indexed read of that version and
/// the layout around the kept fragment.
struct DashboardPage: Encodable {
    struct Exam: Encodable {
        var title: String
        var language: String
        var regionCode: String
        var slug: String
        var cards: Int
        var dueToday: Int
        var hasDue: Bool
        /// The questions the "review" button starts: everything due, up to a session's most.
        var reviewCount: Int
        var readiness: Int
        var passMark: Int
        var ready: Bool
        /// "You remembered 87% of 140 reviews in the last 30 days; you aim at 90%.", when there were any.
        var remembered: String?
        /// "You sit this exam on 15 December 2026, in 14 days: predicted score that day 72%.", when set.
        var examDay: String?
        /// In the last days before the exam (no new questions, weakest domains first).
        var finalStretch: Bool
        var weeks: [String]
        var domains: [DomainRow]
        /// The predicted score of each domain against the pass mark, as a chart and its figures.
        var domainChart: String
        var domainFigures: [DomainFigure]
        /// The chart's domains, weakest first, each a one-tap practice of that domain.
        var practise: [DomainFigure]
        var hasPractise: Bool
        /// The id of the words the practise buttons are described by.
        var practiseLabelID: String
    }

    struct DomainFigure: Encodable {
        var slug: String
        var title: String
        var percent: String
    }

    /// A week of the activity calendar, for its table.
    struct ActivityWeek: Encodable {
        var week: String
        var days: String
    }

    struct DomainRow: Encodable {
        var title: String
        var cells: [Cell]
    }

    struct Cell: Encodable {
        /// The week the cell is in, written out (its label when the table stacks on a phone).
        var week: String
        var answered: Int
        var hasAnswers: Bool
        var percent: Int?
    }

    struct Session: Encodable {
        var href: String
        var examTitle: String
        var language: String
        var modeLabel: String
        var startedAgo: String
        var finished: Bool
        var percent: Int?
        var passed: Bool
        var questions: Int
    }

    /// The form token of the reader's session, for the review buttons in the fragment.
    var csrfToken: String
    var dueToday: Int
    /// Something is due: the page says why it is.
    var anyDue: Bool
    var streak: Int
    /// The freezes held, or the days one covered: why a missed day did not end the streak.
    var streakNote: String?
    /// Each holiday not over yet, and what it moved.
    var holidays: [String]
    var answeredToday: Int
    /// The days studied in the last weeks as a calendar, its description and its table.
    var activityChart: String
    var activitySummary: String
    var activityWeeks: [ActivityWeek]
    var exams: [Exam]
    var sessions: [Session]
    /// Mock exams still running, first on the page with the way back to them.
    var runningMocks: [RunningMock]
    /// A zone never confirmed is asked about once, here, with the browser's chosen by script.
    var zonePrompt: ZonePrompt?
    /// Assignments due within three days (or overdue) and not done: first on the page.
    var dueSoon: PupilAssignmentRow.List?
    /// An admin's recent decision on the reader's request to teach, and where it leads.
    var teaching: TeachingNews?

    struct TeachingNews: Encodable {
        var text: String
        var href: String
        var label: String
    }

    struct ZonePrompt: Encodable {
        var timeZoneGroups: [TimeZoneChoices.Group]
    }

    struct RunningMock: Encodable {
        var href: String
        var text: String
    }
    /// Which weights the schedule uses and how well they predict the student's reviews.
    var schedule: String

    static let weeksShown = 4
    /// The activity calendar's span.
    static let calendarWeeks = 12


    /// What the page shows around the fragment.
    struct Around: Encodable {
        var displayName: String
        /// Nothing written for them yet (no session, no class): greeted as new, not "back".
        var isNewcomer: Bool
    }

    /// How the page is kept: for its reader's sign-in, by their data version and the
    /// catalogue's (the exams their cards are in). Only a signed-in reader sees it.
    static let cached = CachedPage(name: "me", dependsOn: [.readerData, .catalogue], visitors: .builtEachTime)

    static func handler(
        pages: PageRenderer, keeper: PageKeeper, clock: @escaping @Sendable () -> Date, domains: DomainFactsCache, fitter: WeightFitter? = nil
    ) -> @Sendable (PortalRequest, SessionUser) throws -> Response {
        { request, user in
            // The student's history may have grown enough for their own weights.
            fitter?.enqueue(sessionToken: request.database.sessionToken)
            let locale = pages.locale(for: request), now = clock()
            let catalog = ExamCatalog()
            let statements = DashboardStore.readingStatements(now: now, since: now.addingTimeInterval(-Double(weeksShown - 1) * 7 * 86_400), recent: 10)
            // The reader's data version, when not remembered, is read in the same flight as the figures.
            let (versions, fresh) = try keeper.versions(request, cached, alongside: statements)
            return try keeper.readerPage(request, user, cached, versions) {
                let dataVersion = versions.readerData ?? 0, version = versions.catalogue ?? .distantPast
                // Keyed by the session (the fragment carries its form token); kept a minute at most,
                // as what is due today and how well it is remembered move with the clock.
                let figures = Fragment(key: "\(user.sessionID)|\(dataVersion)|\(version.timeIntervalSince1970)") { () -> DashboardPage in
                    let facts = try domains.facts(version: version) { try request.database.shared { try catalog.domainFacts($0) } }
                    let reading = try DashboardStore.reading(fresh ?? request.database.read(statements))
                    return DashboardPage(user: user, reading: reading, facts: facts, pages: pages, locale: locale, now: now)
                }
                return try pages.render(
                    "me/dashboard", Around(displayName: user.displayName, isNewcomer: dataVersion == 0), locale: locale, viewer: request.viewer,
                    fragments: ["figures": figures])
            }
        }
    }

    init(user: SessionUser, reading: DashboardReading, facts: [Int: DomainFacts], pages: PageRenderer, locale: String, now: Date) {
        // Today in the student's own time zone, for the days left before their exams.
        let today = LocalDates.day(of: now, zone: TimeZone(identifier: user.timeZone) ?? .gmt)
        let weeks = Array(Set(reading.weeks.map(\.week)).sorted().suffix(Self.weeksShown))
        // The exams the student holds cards in, by title; each with all its domains for readiness.
        let examIDs = Set(reading.cards.keys.compactMap { facts[$0]?.examID })
        let domainsByExam = Dictionary(grouping: facts.values.filter { examIDs.contains($0.examID) }, by: \.examID)
        exams = examIDs.compactMap { examID -> Exam? in
            guard let domains = domainsByExam[examID], let first = domains.first else { return nil }
            let cards = domains.compactMap { reading.cards[$0.id] }
            // The exam's domains with questions, heaviest first: readiness now, per domain and on the exam day.
            let weighed = domains.filter { $0.questions > 0 }.sorted { ($0.weight, $1.slug) > ($1.weight, $0.slug) }
            let recall = weighed.map { domain in
                DomainRecall(
                    weight: domain.weight, questions: domain.questions, seen: reading.cards[domain.id]?.seen ?? 0,
                    recallSum: reading.cards[domain.id]?.recallSum ?? 0)
            }
            let readiness = Readiness.predict(recall)
            let byDomain = zip(weighed, recall).map { (slug: $0.slug, title: $0.title, share: $1.expectedScore(prior: Readiness.unseenPrior)) }
            let passShare = Double(first.passMark) / 100
            let domainFigures = byDomain.map { DomainFigure(slug: $0.slug, title: $0.title, percent: Percentages.format($0.share, locale: locale)) }
            let practise = zip(domainFigures, byDomain).sorted { ($0.1.share, $0.0.title) < ($1.1.share, $1.0.title) }.map(\.0)
            let domainChart = BarChartSVG.rows(
                byDomain.map { (label: $0.title, share: $0.share, figure: Percentages.format($0.share, locale: locale)) }, mark: passShare,
                markLabel: pages.message("results.pass_mark", locale: locale, ["percent": String(first.passMark)]),
                title: pages.message("dashboard.by_domain_title", locale: locale),
                description: pages.message("dashboard.by_domain_summary", locale: locale, [
                    "reached": String(byDomain.count { $0.share >= passShare }), "total": String(byDomain.count),
                    "pass": pages.message("results.pass_mark", locale: locale, ["percent": String(first.passMark)]),
                ], count: Double(byDomain.count)),
                id: "domains-\(first.regionCode)-\(first.examSlug)")
            let examDate = reading.examDates[examID]
            let daysLeft = examDate.flatMap { ExamDateForm.days(from: today, to: $0.day) }
            let onExamDay = Readiness.predict(weighed.map { domain in
                DomainRecall(
                    weight: domain.weight, questions: domain.questions, seen: reading.cards[domain.id]?.seen ?? 0,
                    recallSum: reading.cards[domain.id]?.recallOnExamDay ?? 0)
            })
            let dueToday = cards.reduce(0) { $0 + $1.dueToday }
            let cells = Dictionary(grouping: reading.weeks.filter { facts[$0.domainID]?.examID == examID }) { facts[$0.domainID]?.title ?? "" }
            let spaced = domains.compactMap { reading.remembered[$0.id] }
            let reviews = spaced.reduce(0) { $0 + $1.reviews }, recalled = spaced.reduce(0) { $0 + $1.recalled }
            return Exam(
                title: first.examTitle, language: first.language, regionCode: first.regionCode, slug: first.examSlug,
                cards: cards.reduce(0) { $0 + $1.cards }, dueToday: dueToday, hasDue: dueToday > 0,
                reviewCount: min(dueToday, SessionStart.maximumCount),
                readiness: Int((readiness * 100).rounded()), passMark: first.passMark, ready: readiness * 100 >= Double(first.passMark),
                remembered: reviews == 0 ? nil : pages.message("dashboard.remembered", locale: locale, [
                    "percent": String(Int((Double(recalled) * 100 / Double(reviews)).rounded())), "count": String(reviews),
                    "desired": String(Int((reading.desiredRetention * 100).rounded())),
                ], count: Double(reviews)),
                examDay: examDate.flatMap { date -> String? in
                    guard let daysLeft, daysLeft >= 0 else { return nil }
                    let arguments = [
                        "date": ExamDateForm.longDate(date.day, locale: locale), "count": String(daysLeft),
                        "percent": String(Int((onExamDay * 100).rounded())),
                    ]
                    return daysLeft == 0 ? pages.message("dashboard.exam_today", locale: locale, arguments)
                        : pages.message("dashboard.exam_day", locale: locale, arguments, count: Double(daysLeft))
                },
                finalStretch: daysLeft.map { $0 > 0 && $0 <= ExamDayPlan.finalDays } ?? false,
                weeks: weeks.map { LocalDates.day($0, locale: locale) },
                domains: cells.keys.sorted().map { title in
                    DomainRow(title: title, cells: weeks.map { week in
                        let found = cells[title]!.filter { $0.week == week }
                        let answered = found.reduce(0) { $0 + $1.answered }, correct = found.reduce(0) { $0 + $1.correct }
                        return Cell(
                            week: LocalDates.day(week, locale: locale), answered: answered, hasAnswers: answered > 0,
                            percent: answered > 0 ? Int((Double(correct) * 100 / Double(answered)).rounded()) : nil)
                    })
                },
                domainChart: domainChart, domainFigures: domainFigures, practise: practise, hasPractise: !practise.isEmpty,
                practiseLabelID: "practise-\(first.regionCode)-\(first.examSlug)")
        }.sorted { $0.title < $1.title }
        csrfToken = user.csrfToken
        // In words a student reads: the fit's log loss before and after stays in the data
        // download (fitted-weights.json), not on the dashboard.
        if let fitted = reading.fitted, fitted.weights != nil, fitted.logLossBefore != nil, fitted.logLossAfter != nil {
            schedule = pages.message("dashboard.weights_fitted", locale: locale, [
                "count": NumberFormatting.grouped(fitted.reviews, locale: locale),
            ], count: Double(fitted.reviews))
        } else {
            schedule = pages.message("dashboard.weights_default", locale: locale, ["minimum": String(FittedWeightsStore.minimumReviews)])
        }
        dueToday = exams.reduce(0) { $0 + $1.dueToday }
        anyDue = dueToday > 0
        streak = reading.streak.days
        streakNote = reading.streak.freezes > 0
            ? pages.message("dashboard.streak_freezes", locale: locale, ["count": String(reading.streak.freezes)], count: Double(reading.streak.freezes))
            : reading.streak.frozenDays > 0 && reading.streak.days > 0
            ? pages.message("dashboard.streak_frozen", locale: locale, ["count": String(reading.streak.frozenDays)], count: Double(reading.streak.frozenDays))
            : nil
        holidays = reading.holidaysAhead.map { holiday in
            pages.message("dashboard.holiday", locale: locale, [
                "dates": pages.message("rhythm.holiday_dates", locale: locale, [
                    "from": LocalDates.day(holiday.startsOn, locale: locale), "to": LocalDates.day(holiday.endsOn, locale: locale),
                ]),
                "cost": pages.message("rhythm.holiday_cost", locale: locale, [
                    "before": pages.message("rhythm.reviews", locale: locale, ["count": String(holiday.movedBefore)], count: Double(holiday.movedBefore)),
                    "after": pages.message("rhythm.reviews", locale: locale, ["count": String(holiday.movedAfter)], count: Double(holiday.movedAfter)),
                ]),
            ])
        }
        answeredToday = reading.answeredToday
        // The calendar: twelve weeks up to this one, Monday on top; a week's label every fourth.
        let weekday = reading.weekday, span = Self.calendarWeeks
        let mondays = (0..<span).map { LocalDates.day(today, plus: -((span - 1 - $0) * 7 + weekday)) }
        let daysShown = (span - 1) * 7 + weekday + 1
        let studiedShown = reading.studiedDaysAgo.count { $0 >= 0 && $0 < daysShown }
        activitySummary = pages.message("dashboard.activity_summary", locale: locale, [
            "count": String(studiedShown), "days": String(daysShown),
        ], count: Double(studiedShown))
        let short = mondays.map { LocalDates.shortDays($0, count: 1, locale: locale)[0] }
        activityChart = ActivityCalendarSVG.svg(
            weeks: span, weekday: weekday, studied: { reading.studiedDaysAgo.contains($0) },
            labels: short.enumerated().map { $0 % 4 == 0 ? $1 : "" },
            title: pages.message("dashboard.activity_title", locale: locale), description: activitySummary, id: "activity")
        activityWeeks = mondays.enumerated().reversed().map { index, monday in
            let first = (span - 1 - index) * 7 + weekday  // the Monday, in days ago
            let count = (max(0, first - 6)...first).count { reading.studiedDaysAgo.contains($0) }
            return ActivityWeek(
                week: pages.message("dashboard.week_of", locale: locale, ["date": LocalDates.day(monday, locale: locale)]),
                days: pages.message("dashboard.days", locale: locale, ["count": String(count)], count: Double(count)))
        }
        sessions = reading.sessions.map { session in
            Session(
                href: "/sessions/\(session.id.lowercasedText)" + (session.finishedAt == nil ? "" : "/results"),
                examTitle: session.examTitle, language: session.examLanguage,
                modeLabel: pages.message("sessions.mode.\(session.mode.rawValue)", locale: locale),
                startedAgo: pages.ago(session.startedAt, locale: locale), finished: session.finishedAt != nil,
                percent: session.scorePercent.map { Int($0.rounded()) }, passed: session.passed ?? false, questions: session.questions)
        }
        zonePrompt = reading.timeZoneConfirmed ? nil : ZonePrompt(timeZoneGroups: TimeZoneChoices.groups(selected: user.timeZone))
        let zone = TimeZone(identifier: user.timeZone) ?? .gmt
        let due = reading.assignments.filter { PupilAssignmentRow.isDueSoon($0, now: now) }.map {
            var row = PupilAssignmentRow($0, now: now, zone: zone, pages: pages, locale: locale)
            row.showsClass = true
            return row
        }
        dueSoon = due.isEmpty ? nil : PupilAssignmentRow.List(assignments: due)
        teaching = reading.teachingDecision.map { decision in
            let approved = decision == .approved
            return TeachingNews(
                text: pages.message(approved ? "dashboard.teaching_approved" : "dashboard.teaching_refused", locale: locale),
                href: approved ? "/teach" : "/me/teaching",
                label: pages.message(approved ? "dashboard.teaching_open" : "dashboard.teaching_again", locale: locale))
        }
        runningMocks = reading.sessions.compactMap { session in
            guard session.mode == .mock, session.finishedAt == nil, let deadline = session.deadline, deadline > now else { return nil }
            return RunningMock(
                href: "/sessions/\(session.id.lowercasedText)",
                text: pages.message("dashboard.running_mock", locale: locale, [
                    "exam": session.examTitle, "time": QuestionPage.clockTime(deadline, zone: user.timeZone)]))
        }
    }
}
