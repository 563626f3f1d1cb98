import ExamData
import Foundation
import HTTPServer
import Identifiers

/// `/admin/teachers`: the requests to teach, oldest first, each approved or refused with one
/// button; the latest decisions below. The database checks the admin, makes the account a
/// teacher's, audits the decision and queues the message that tells the requester.
struct TeacherQueue: Sendable {
    let pages: PageRenderer
    /// The messages' wording, when the portal sends mail.
    let wording: MailWording?

    /// Requests shown at once, and decisions below them.
    static let openShown = 100
    static let decidedShown = 20

    struct DecisionForm: PostedForm {
        let approve: Bool

        init(_ form: FormReader) throws(PageRefusal) {
            switch form.text("decision") {
            case "approve": approve = true
            case "refuse": approve = false
            default: throw PageRefusal(.badRequest, "admin.request_bad_decision")
            }
        }
    }

    struct Page: Encodable {
        struct Entry: Encodable {
            var id: String
            var username: String
            var displayName: String
            var school: String
            var note: String
            var when: String
            var decision: String?
        }

        var open: [Entry]
        var decided: [Entry]
        var hasOpen: Bool
        var hasDecided: Bool
        var notice: String?
    }

    /// `GET /admin/teachers`.
    func page(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let store = TeacherRequestStore()
        let (open, decided) = try request.database.transaction { connection in
            (try store.open(limit: Self.openShown, connection), try store.decided(limit: Self.decidedShown, connection))
        }
        let locale = pages.locale(for: request), zone = TimeZone(identifier: user.timeZone) ?? .gmt
        func entry(_ request: TeacherRequest) -> Page.Entry {
            Page.Entry(
                id: request.id.lowercasedText, username: request.username, displayName: request.displayName, school: request.school, note: request.note,
                when: LocalDates.dateTime(request.decidedAt ?? request.createdAt, locale: locale, zone: zone),
                decision: request.decision.map { pages.message("admin.request_\($0.rawValue)", locale: locale) })
        }
        let query = request.query
        let notice = query["decided"].map { who in
            pages.message(query["as"] == "approved" ? "admin.request_approved_notice" : "admin.request_refused_notice", locale: locale,
                          ["who": String(who.prefix(40))])
        }
        let page = Page(
            open: open.map(entry), decided: decided.map(entry), hasOpen: !open.isEmpty, hasDecided: !decided.isEmpty, notice: notice)
        return try pages.privatePage("admin/teachers", page, request)
    }

    /// `POST /admin/teachers/{id}`: approves or refuses one request. A request decided already
    /// (a second click, another admin first) keeps its decision, and the page says which.
    func decide(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        let form = try request.form(DecisionForm.self)
        let store = TeacherRequestStore()
        let decided: (TeacherRequest, TeacherRequest.Decision?)? = try request.database.transaction { connection in
            guard let asked = try store.request(id, connection) else { return nil }
            // In the requester's language; an account that never chose one reads the site's first.
            let message = try wording.map { try $0.teaching(approved: form.approve, name: asked.displayName, locale: asked.locale ?? "en") }
            return (asked, try store.decide(id, approve: form.approve, message: message, connection))
        }
        guard let (asked, decision) = decided, let decision else { throw PageRefusal(.notFound, "admin.request_unknown") }
        return .redirect(to: "/admin/teachers?decided=\(LocalPath.escaped(asked.username))&as=\(decision.rawValue)")
    }
}
