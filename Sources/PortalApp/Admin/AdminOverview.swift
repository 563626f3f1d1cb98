import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// `/admin`: what needs an admin's attention, exam by exam.
extension AdminPages {
    /// What the overview shows: each exam with its counts and links, and the mail outbox.
    struct OverviewPage: Encodable {
        struct Exam: Encodable {
            var title: String
            var language: String
            var exportHref: String
            var moodleHref: String
            var qtiHref: String
            var qti21Href: String
            /// The exam's questions, and those of them that need review, in the question list.
            var questionsHref: String
            var flaggedHref: String
            var updated: String
            var statuses: String
            var types: String
            /// Published questions by difficulty, each count beside its level: "1: 3 · 2: 5 · …".
            var difficultyMix: String
            var openReports: Int
            var flagged: Int
            var hasFlagged: Bool
        }
        var exams: [Exam]
        /// The mail outbox: waiting, sent and given up (30 days), the latest failure.
        struct Mail: Encodable {
            var waiting: Int
            var sent: Int
            var givenUp: Int
            var oldestWaiting: String?
            var lastError: String?
            var lastErrorAgo: String?
        }
        var mail: Mail?
    }

    func overview(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let locale = pages.locale(for: request)
        let (exams, flagged, outbox) = try request.database.transaction { connection -> ([ExamOverview], [Int: Int], MailOutbox.Summary?) in
            var flagged: [Int: Int] = [:]
            for (examID, _) in try flaggedQuestions(connection) { flagged[examID, default: 0] += 1 }
            return (try AdminStore().overview(connection), flagged, mailEnabled ? try MailOutbox().summary(connection) : nil)
        }
        var value = OverviewPage(exams: exams.map { exam in
            OverviewPage.Exam(
                title: exam.title, language: exam.language, exportHref: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.json",
                moodleHref: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.moodle.xml",
                qtiHref: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.qti.zip",
                qti21Href: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.qti21.zip",
                questionsHref: "/admin/questions?exam=\(exam.regionCode)/\(exam.slug)",
                flaggedHref: "/admin/questions?exam=\(exam.regionCode)/\(exam.slug)&flagged=on",
                updated: pages.ago(exam.contentUpdatedAt, locale: locale),
                statuses: exam.byStatus.sorted { $0.key < $1.key }.map { pages.message("admin.state." + $0.key, locale: locale) + " \($0.value)" }
                    .joined(separator: " · "),
                types: exam.byType.sorted { $0.key < $1.key }.map { pages.message("admin.kind." + $0.key, locale: locale) + " \($0.value)" }
                    .joined(separator: " · "),
                difficultyMix: exam.byDifficulty.enumerated().map { "\($0.offset + 1): \($0.element)" }.joined(separator: " · "), openReports: exam.openReports, flagged: flagged[exam.examID] ?? 0,
                hasFlagged: (flagged[exam.examID] ?? 0) > 0)
        })
        value.mail = outbox.map {
            OverviewPage.Mail(
                waiting: $0.waiting, sent: $0.sent, givenUp: $0.givenUp, oldestWaiting: $0.oldestWaiting.map { pages.ago($0, locale: locale) },
                lastError: $0.lastError, lastErrorAgo: $0.lastErrorAt.map { pages.ago($0, locale: locale) })
        }
        return try pages.privatePage("admin/overview", value, request)
    }

    /// The questions that need review, with their exam ids: by their statistics where they have
    /// first attempts, and by their writing in any case.
    func flaggedQuestions(_ connection: PostgresConnection) throws -> [(examID: Int, id: UUID)] {
        let store = AdminStore()
        let questions = try store.reviewableQuestions(connection)
        let statistics = try store.itemStatistics(questionIDs: questions.map(\.question.id), connection)
        return questions.filter { _, question in
            !ItemReview.flags(statistics[question.id], kind: question.kind, key: question.correct, optionTexts: question.options.map(\.text)).isEmpty
        }.map { ($0.examID, $0.question.id) }
    }
}
