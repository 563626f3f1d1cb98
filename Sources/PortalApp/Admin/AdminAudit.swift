import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// The audit log: who did what, newest first.
extension AdminPages {
    func audit(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let query = request.query
        let action = query["action"].flatMap { $0.isEmpty ? nil : String($0.prefix(60)) }
        guard let pageNumber = Int(query["page"] ?? "1"), (1...10_000).contains(pageNumber) else {
            throw PageRefusal(.badRequest, "leaderboard.bad_page", ["value": String((query["page"] ?? "").prefix(20))])
        }
        let (entries, context) = try request.database.transaction { connection -> ([AuditEntry], AuditContext) in
            let entries = try AdminStore().auditEntries(action: action, offset: (pageNumber - 1) * 50, limit: 51, connection)
            return (entries, try AuditContext.read(for: Array(entries.prefix(50)), connection))
        }
        struct Page: Encodable {
            struct Entry: Encodable {
                var at: String
                var when: String
                /// What happened, in words.
                var sentence: String
                /// The question the entry is about, for a link to it.
                var questionHref: String?
                /// A question saved again: its lines that changed.
                var changes: [LineDiff.Line]
                var hasChanges: Bool
                var action: String
                var target: String
                var details: String
            }
            var entries: [Entry]
            var hasEntries: Bool
            var action: String
            var nextHref: String?
            var previousHref: String?
        }
        let iso = ISO8601DateFormatter(), locale = pages.locale(for: request), zone = TimeZone(identifier: user.timeZone) ?? .gmt
        let filter = action.map { "action=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&" } ?? ""
        let value = Page(
            entries: entries.prefix(50).map { entry in
                let isQuestion = entry.action.hasPrefix("question.") && UUID(uuidString: entry.target) != nil
                let version = AuditDetails(entry.details)["version"].flatMap(Int.init)
                let change = version.flatMap { context.changes[AuditContext.changeKey(question: entry.target, version: $0)] }
                let changes = change.flatMap { change in change.before.flatMap { LineDiff.changes($0, change.after) } } ?? []
                return Page.Entry(
                    at: iso.string(from: entry.at), when: LocalDates.dateTime(entry.at, locale: locale, zone: zone),
                    sentence: AuditSentence.text(entry, stems: context.stems, pages: pages, locale: locale),
                    questionHref: isQuestion ? "/admin/questions/\(entry.target)" : nil,
                    changes: changes, hasChanges: !changes.isEmpty,
                    action: entry.action, target: entry.target, details: entry.details)
            },
            hasEntries: !entries.isEmpty, action: action ?? "",
            nextHref: entries.count > 50 ? "/admin/audit?\(filter)page=\(pageNumber + 1)" : nil,
            previousHref: pageNumber > 1 ? "/admin/audit?\(filter)page=\(pageNumber - 1)" : nil)
        return try pages.privatePage("admin/audit", value, request)
    }
}
