import ExamData
import Foundation
import HTTPServer
import PostgresClient
import QuestionEngine

/// `GET /me`: what is due today, the streak, readiness per exam, accuracy per domain over the
/// last weeks and the latest sessions. Every figure is aggregated by the database.
struct DashboardPage: Encodable {
    struct Exam: Encodable {
        var title: String
        var language: String
        var regionCode: String
        var slug: String
        var cards: Int
        var dueToday: Int
        var hasDue: Bool
        var readiness: Int
        var passMark: Int
        var ready: Bool
        var weeks: [String]
        var domains: [DomainRow]
    }

    struct DomainRow: Encodable {
        var title: String
        var cells: [Cell]
    }

    struct Cell: Encodable {
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

    var displayName: String
    var dueToday: Int
    var streak: Int
    var answeredToday: Int
    var exams: [Exam]
    var sessions: [Session]

    static let weeksShown = 4

    static func handler(pages: PageRenderer, clock: @escaping @Sendable () -> Date) -> @Sendable (PortalRequest, SessionUser) throws -> Response {
        { request, user in
            let locale = pages.locale(for: request), now = clock()
            let page = try request.database.transaction { connection -> DashboardPage in
                let store = DashboardStore()
                let startOfDay = try store.startOfDay(at: now, connection)
                let due = try store.dueByExam(endOfToday: startOfDay.addingTimeInterval(86_400), connection)
                let recall = try store.recallByDomain(examIDs: due.map(\.examID), at: now, connection)
                let accuracy = try store.weeklyAccuracy(since: now.addingTimeInterval(-Double(weeksShown - 1) * 7 * 86_400), connection)
                let weeks = Array(Set(accuracy.map(\.week))).sorted().suffix(weeksShown)
                let exams = due.map { exam -> Exam in
                    let readiness = Readiness.predict((recall[exam.examID] ?? []).map(\.recall))
                    let rows = Dictionary(grouping: accuracy.filter { $0.examID == exam.examID }, by: \.domainTitle)
                    return Exam(
                        title: exam.title, language: exam.language, regionCode: exam.regionCode, slug: exam.slug, cards: exam.cards,
                        dueToday: exam.dueToday, hasDue: exam.dueToday > 0, readiness: Int((readiness * 100).rounded()), passMark: exam.passMark,
                        ready: readiness * 100 >= Double(exam.passMark), weeks: Array(weeks),
                        domains: rows.keys.sorted().map { title in
                            DomainRow(title: title, cells: weeks.map { week in
                                let cell = rows[title]!.first { $0.week == week }
                                return Cell(
                                    answered: cell?.answered ?? 0, hasAnswers: (cell?.answered ?? 0) > 0,
                                    percent: cell.flatMap { $0.answered > 0 ? Int((Double($0.correct) * 100 / Double($0.answered)).rounded()) : nil })
                            })
                        })
                }
                return DashboardPage(
                    displayName: user.displayName, dueToday: due.reduce(0) { $0 + $1.dueToday }, streak: try store.streak(at: now, connection),
                    answeredToday: try store.answeredToday(at: now, connection), exams: exams,
                    sessions: try store.recentSessions(limit: 10, connection).map { session in
                        Session(
                            href: "/sessions/\(session.id.uuidString.lowercased())" + (session.finishedAt == nil ? "" : "/results"),
                            examTitle: session.examTitle, language: session.examLanguage,
                            modeLabel: pages.message("sessions.mode.\(session.mode.rawValue)", locale: locale),
                            startedAgo: pages.ago(session.startedAt, locale: locale), finished: session.finishedAt != nil,
                            percent: session.scorePercent.map { Int($0.rounded(.down)) }, passed: session.passed ?? false, questions: session.questions)
                    })
            }
            return try pages.privatePage("me/dashboard", page, request)
        }
    }
}
