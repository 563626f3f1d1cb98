import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// The question bank: the list with its filters, and one question with its versions.
extension AdminPages {
    func questionList(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let locale = pages.locale(for: request)
        let query = request.query
        func text(_ name: String) -> String? { query[name].flatMap { $0.isEmpty ? nil : String($0.prefix(200)) } }
        guard let pageNumber = Int(query["page"] ?? "1"), (1...100_000).contains(pageNumber) else {
            throw PageRefusal(.badRequest, "leaderboard.bad_page", ["value": String((query["page"] ?? "").prefix(20))])
        }
        var difficulty: Int?
        if let value = text("difficulty") {
            guard let level = Int(value), (1...5).contains(level) else {
                throw PageRefusal(.badRequest, "error.bad_difficulty", ["value": String(value.prefix(20))])
            }
            difficulty = level
        }
        let examKey = text("exam")
        let (exams, result) = try request.database.transaction { connection -> ([RegionSummary], (items: [QuestionListItem], total: Int)) in
            var examID: Int?
            if let examKey {
                let parts = examKey.split(separator: "/", maxSplits: 1).map(String.init)
                examID = parts.count == 2 ? try ExamCatalog().examHeading(region: parts[0], slug: parts[1], connection)?.id : nil
                if examID == nil { throw PageRefusal(.badRequest, "live.bad_exam") }
            }
            let filter = QuestionFilter(
                examID: examID, domain: text("domain"), type: text("type"), difficulty: difficulty, status: text("status"), text: text("q"),
                only: query["flagged"] == "on" ? try flaggedQuestions(connection).map(\.id) : nil)
            return (try ExamCatalog().regions(connection), try AdminStore().questions(filter, offset: (pageNumber - 1) * 50, limit: 50, connection))
        }
        let value = AdminQuestionList(
            regions: exams, selectedExam: examKey ?? "", query: query, items: result.items, total: result.total, page: pageNumber, pages: pages,
            locale: locale)
        return try pages.privatePage("admin/questions", value, request)
    }

    func question(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let value = try request.database.transaction { connection -> AdminQuestionPage in
            guard let question = try StudyStore().questions(ids: [id], connection).first else {
                throw PageRefusal(.notFound, "school.not_found")
            }
            let store = AdminStore()
            var value = AdminQuestionPage(
                question: question, versions: try store.versions(questionID: id, connection), reports: try store.reports(questionID: id, connection),
                statistics: try store.itemStatistics(questionIDs: [id], connection)[id], language: "", pages: pages, locale: locale,
                zone: TimeZone(identifier: user.timeZone) ?? .gmt)
            value.saved = request.query["saved"] != nil
            value.unnamedPicture = try store.unnamedPicture(questionID: id, connection).map {
                pages.message("admin.unnamed_picture", locale: locale, ["name": String($0.prefix(80))])
            }
            return value
        }
        return try pages.privatePage("admin/question", value, request)
    }

    /// `POST /admin/questions/publish`: the drafts chosen in the list (an import's, say) published
    /// at once, each audited; back to the drafts left.
    func publishDrafts(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let ids = Array(request.formFields.values("question").compactMap { UUID(uuidString: $0) }.prefix(500))
        guard !ids.isEmpty else { throw PageRefusal(.unprocessableContent, "admin.publish_none") }
        let (published, held) = try request.database.transaction { connection -> ([UUID], Int) in
            let (published, held) = try AdminStore().publishDrafts(ids, connection)
            for id in published {
                try AdminStore().audit(actorName: user.displayName, action: "question.publish", target: id.lowercasedText, details: [:], at: clock(), connection)
            }
            return (published, held)
        }
        return .redirect(to: "/admin/questions?status=draft&published=\(published.count)" + (held > 0 ? "&held=\(held)" : ""))
    }
}
