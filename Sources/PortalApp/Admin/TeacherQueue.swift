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
    /// This site's addresses (an invitation's link).
    let site: SiteAddress

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

    struct InvitationForm: PostedForm {
        let school: String
        let days: Int
        let uses: Int
        var problems: [FormProblem] = []

        init(_ form: FormReader) throws(PageRefusal) {
            school = form.trimmed("school")
            days = form.int("days") ?? 0
            uses = form.int("uses") ?? 0
            if !(1...120).contains(school.count) { problems.append(FormProblem("school", "school.request_school_missing")) }
            if !(1...90).contains(days) { problems.append(FormProblem("days", "admin.exams.bad_number", ["min": "1", "max": "90"])) }
            if !(1...500).contains(uses) { problems.append(FormProblem("uses", "admin.exams.bad_number", ["min": "1", "max": "500"])) }
        }
    }

    struct Page: Encodable {
        struct Invitation: Encodable {
            var id: String
            var school: String
            var expires: String
            var usesLeft: Int
            var standing: Bool
        }

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
        var invitations: [Invitation] = []
        var hasInvitations = false
        var fieldErrors: [String: String] = [:]
        var school = ""
        var days = 14
        var uses = 20
        var formToken = SentOnce.newToken()
    }

    /// A new invitation's link, shown this once (only its hash is kept).
    struct CreatedPage: Encodable {
        var school: String
        var url: String
        var expires: String
        var uses: Int
    }

    /// `GET /admin/teachers`.
    func page(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try show(request, user, form: nil, status: .ok)
    }

    private func show(_ request: PortalRequest, _ user: SessionUser, form: InvitationForm?, status: HTTPStatus) throws -> Response {
        let store = TeacherRequestStore()
        let (open, decided, invitations) = try request.database.transaction { connection in
            (try store.open(limit: Self.openShown, connection), try store.decided(limit: Self.decidedShown, connection),
             try TeacherInvitationStore().invitations(connection))
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
        var page = Page(
            open: open.map(entry), decided: decided.map(entry), hasOpen: !open.isEmpty, hasDecided: !decided.isEmpty,
            notice: notice ?? (query["revoked"] != nil ? pages.message("admin.invitation_revoked", locale: locale) : nil))
        let now = pages.clock()
        page.invitations = invitations.map { invitation in
            Page.Invitation(
                id: invitation.id.lowercasedText, school: invitation.school,
                expires: LocalDates.dateTime(invitation.expiresAt, locale: locale, zone: zone), usesLeft: invitation.usesLeft,
                standing: !invitation.revoked && invitation.expiresAt > now && invitation.usesLeft > 0)
        }
        page.hasInvitations = !invitations.isEmpty
        if let form {
            (page.school, page.days, page.uses) = (form.school, form.days, form.uses)
            page.fieldErrors = pages.fieldErrors(form.problems, locale: locale)
        }
        return try pages.privatePage("admin/teachers", page, request, status: status)
    }

    /// `POST /admin/teachers/invitations`: a school's link to register as a teacher, shown once.
    func createInvitation(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(InvitationForm.self)
        guard form.problems.isEmpty else { return try show(request, user, form: form, status: .unprocessableContent) }
        let token = Crypto.token(), now = pages.clock()
        let expires = now.addingTimeInterval(Double(form.days) * 86_400)
        let sent = try SentOnce.send(request) { connection -> String in
            _ = try TeacherInvitationStore().create(
                school: form.school, tokenHash: Crypto.sha256(Array(token.utf8)), expiresAt: expires, uses: form.uses, at: now, connection)
            try AdminStore().audit(
                actorName: user.displayName, action: "teacher-invitation.create", target: form.school,
                details: ["days": String(form.days), "uses": String(form.uses)], at: now, connection)
            return "/admin/teachers#invitations"
        }
        guard let sent, sent.madeNow else { return .redirect(to: sent?.location ?? "/admin/teachers") }
        let locale = pages.locale(for: request), zone = TimeZone(identifier: user.timeZone) ?? .gmt
        let page = CreatedPage(
            school: form.school, url: site.url("/register?invite=\(token)", for: request.head, peer: request.http.remoteAddress),
            expires: LocalDates.dateTime(expires, locale: locale, zone: zone), uses: form.uses)
        return try pages.privatePage("admin/invitation-created", page, request)
    }

    /// `POST /admin/teachers/invitations/{id}/revoke`.
    func revokeInvitation(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        try request.database.transaction { connection in
            if try TeacherInvitationStore().revoke(id, at: pages.clock(), connection) {
                try AdminStore().audit(actorName: user.displayName, action: "teacher-invitation.revoke", target: id.lowercasedText, details: [:],
                                       at: pages.clock(), connection)
            }
        }
        return .redirect(to: "/admin/teachers?revoked=1#invitations")
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
