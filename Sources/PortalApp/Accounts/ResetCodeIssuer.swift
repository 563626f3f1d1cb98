import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode

/// A teacher (for a current member of their class) or an admin (for anyone) gives a student
/// who forgot their password a one-time code: asked first, then shown once on a card to print
/// or read out, with a QR code that opens the reset form already filled in. The database issues
/// it (`auth_issue_reset`): it checks the caller's right, keeps only the code's hash, and
/// audits who issued it.
struct ResetCodeIssuer: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    let site: SiteAddress

    /// The question before a code is issued.
    struct Question: Encodable {
        var name: String
        var username: String
        var action: String
        var backHref: String
        var csrfToken: String
        /// The form's one-time token: sent again, it issues no second code.
        var formToken = SentOnce.newToken()
        /// "A code was issued just now and shown once", when the same form came again.
        var issuedBefore: Bool
    }

    /// The card with the code, shown once.
    struct Card: Encodable {
        var name: String
        var username: String
        var code: String
        var address: String
        var until: String
        var qrCode: String
        var backHref: String
    }

    // MARK: Teachers, for a member of their class

    func askForStudent(_ request: PortalRequest, _ user: SessionUser, class id: UUID, student: UUID) throws -> Response {
        let holder = try member(request, class: id, student: student)
        return try ask(request, user, holder, action: studentPath(id, student), back: "/teach/classes/\(id.lowercasedText)")
    }

    func issueForStudent(_ request: PortalRequest, _ user: SessionUser, class id: UUID, student: UUID) throws -> Response {
        let path = studentPath(id, student)
        // Only from the page that asked first (an older form, or one made elsewhere, is sent there).
        guard try request.form(Confirmation.self).confirmed else { return .redirect(to: path) }
        let holder = try member(request, class: id, student: student)
        return try issue(request, student, holder, asked: path, back: "/teach/classes/\(id.lowercasedText)")
    }

    private func studentPath(_ classID: UUID, _ student: UUID) -> String {
        "/teach/classes/\(classID.lowercasedText)/members/\(student.lowercasedText)/reset"
    }

    /// A current member of a class the caller teaches, or a 404.
    private func member(_ request: PortalRequest, class id: UUID, student: UUID) throws -> (username: String, displayName: String) {
        try request.database.transaction { connection in
            let store = SchoolStore()
            guard try store.taughtClass(id: id, connection) != nil else { throw PageRefusal(.notFound, "school.not_found") }
            guard try store.members(classID: id, connection).contains(where: { $0.userID == student }),
                  let holder = try PasswordResetStore().holder(userID: student, connection) else {
                throw PageRefusal(.notFound, "school.not_a_member")
            }
            return holder
        }
    }

    // MARK: Admins, for any account

    func askForAccount(_ request: PortalRequest, _ user: SessionUser, account id: UUID) throws -> Response {
        return try ask(request, user, try account(request, id), action: "/admin/users/\(id.lowercasedText)/reset", back: "/admin/users")
    }

    func issueForAccount(_ request: PortalRequest, _ user: SessionUser, account id: UUID) throws -> Response {
        guard try request.form(Confirmation.self).confirmed else { return .redirect(to: "/admin/users/\(id.lowercasedText)/reset") }
        return try issue(request, id, try account(request, id), asked: "/admin/users/\(id.lowercasedText)/reset", back: "/admin/users")
    }

    private func account(_ request: PortalRequest, _ id: UUID) throws -> (username: String, displayName: String) {
        guard let holder = try request.database.run({ try PasswordResetStore().holder(userID: id, $0) }) else {
            throw PageRefusal(.notFound, "school.not_found")
        }
        return holder
    }

    // MARK: Both

    private func ask(_ request: PortalRequest, _ user: SessionUser, _ holder: (username: String, displayName: String), action: String, back: String) throws -> Response {
        let question = Question(
            name: holder.displayName, username: holder.username, action: action, backHref: back, csrfToken: user.csrfToken,
            issuedBefore: request.query["issued"] != nil)
        return try pages.privatePage("accounts/reset_ask", question, request)
    }

    /// Issues the code once per showing of the question (`asked`): the same form sent again — a
    /// reload of the card, a double tap — issues no second code (which would end the one just
    /// printed) and leads back to the question, saying a code was shown a moment ago.
    private func issue(
        _ request: PortalRequest, _ id: UUID, _ holder: (username: String, displayName: String), asked: String, back: String
    ) throws -> Response {
        let code = ResetCode.random()
        let sent = try SentOnce.send(request) { connection -> String in
            switch try PasswordResetStore().issue(userID: id, codeHash: code.hash, connection) {
            case .issued:
                return asked + "?issued=1"
            case .external:
                throw PageRefusal(.conflict, "account.reset_external", ["name": holder.displayName])
            case .limited:
                throw PageRefusal(.tooManyRequests, "account.reset_limited")
            case .unknown:
                throw PageRefusal(.notFound, "school.not_found")
            }
        }
        // Sent again, or a form without its token (shown before tokens): the question, again.
        guard let sent, sent.madeNow else { return .redirect(to: sent?.location ?? asked) }
        let locale = pages.locale(for: request)
        let zone = TimeZone(identifier: request.user?.timeZone ?? "") ?? .gmt
        let address = site.url("/reset", for: request.head, peer: request.http.remoteAddress)
        let card = Card(
            name: holder.displayName, username: holder.username, code: code.grouped, address: address,
            until: LocalDates.dateTime(clock().addingTimeInterval(86_400), locale: locale, zone: zone),
            qrCode: QRCode(text: code.formURL(address: address, username: holder.username))?.svg(label: pages.message("account.reset_qr_alt", for: request, ["name": holder.displayName])) ?? "",
            backHref: back)
        return try pages.privatePage("accounts/reset_code", card, request)
    }
}
