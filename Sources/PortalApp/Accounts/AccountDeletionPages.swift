import ExamData
import Foundation
import HTTPServer

/// "Delete my account" (`/me/delete`) and an admin's deletion on request
/// (`/admin/users/{id}/delete`). The page says what goes and what stays; the database decides
/// and does it (`AccountDeletion`): the password's proof — or, for an account that signs in with
/// its school, a sign-in under ten minutes old — then the person's data erased, their answers
/// kept only as anonymous rows, every sign-in ended. The leaderboard is rebuilt at once, so the
/// name leaves it too.
struct AccountDeletionPages: Sendable {
    let pages: PageRenderer
    let settings: SessionSettings
    let hashing: HashLimiter
    let viewers: ViewerCache

    struct OwnPage: Encodable {
        var hasPassword: Bool
        /// Without a password: this sign-in is fresh enough to confirm with.
        var freshSignIn: Bool
        /// Without a password and not fresh: where to sign in again.
        var signIns: [AccountPages.ProviderButton]
        var error: String?
    }

    struct DeletedPage: Encodable {}

    struct AdminQuestion: Encodable {
        var name: String
        var username: String
        var action: String
        var csrfToken: String
    }

    /// `GET /me/delete`.
    func ownForm(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try showOwn(request, error: nil, status: .ok)
    }

    /// The deletion form: the account's password, which it asks for when the account has one.
    struct PasswordForm: PostedForm {
        let password: String

        init(_ form: FormReader) throws(PageRefusal) { password = form.text("password") }
    }

    /// `POST /me/delete`.
    func deleteOwn(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let password = try request.form(PasswordForm.self).password
        guard let confirmation = try request.database.transaction({ try AccountDeletion().confirmation($0) }) else {
            throw PageRefusal(.notFound, "error.no_account")
        }
        var attempt: UUID?, proof: [UInt8]?
        if confirmation.hasPassword {
            let username = try request.database.transaction { try AccountStore().settings($0)?.username ?? "" }
            // Guessing the password from a stolen session counts like guessing at sign-in.
            let reservation = try request.database.run { try AccountStore().beginLogin(username: username, address: request.clientAddress, $0) }
            guard case .attempt(let id, let salt, let memoryLimit, let passes) = reservation else {
                let seconds = if case .wait(let seconds) = reservation { seconds } else { 60 }
                var response = try showOwn(
                    request, error: pages.message("account.throttled", for: request, ["minutes": String((seconds + 59) / 60)]), status: .tooManyRequests)
                response.headers.set("Retry-After", String(seconds))
                return response
            }
            guard password.utf8.count <= PasswordPolicy.maximumBytes,
                  let made = try hashing.run({ Crypto.passwordProof(password, salt: salt, passes: passes, memoryLimit: memoryLimit) }) else {
                return try showOwn(request, error: pages.message("account.current_password_wrong", for: request), status: .unprocessableContent)
            }
            attempt = id
            proof = made
        }
        let outcome = try request.database.transaction { try AccountDeletion().deleteOwn(attempt: attempt, proof: proof, $0) }
        guard outcome == .deleted else {
            let reason = confirmation.hasPassword ? "account.current_password_wrong" : "account.delete_sign_in_again"
            return try showOwn(request, error: pages.message(reason, for: request), status: .unprocessableContent)
        }
        viewers.forget(userID: user.userID)
        rebuildLeaderboard(request)
        // Shown signed out: the account is gone.
        var response = Response.html(try pages.render("me/deleted", DeletedPage(), locale: pages.locale(for: request), viewer: .anonymous))
        response.headers.set("Cache-Control", "private, no-store")
        response.setCookie(SetCookie.expired(name: settings.cookieName, secure: settings.secure))
        return response
    }

    /// `GET /admin/users/{id}/delete`: asked first.
    func adminAsk(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        guard let holder = try request.database.transaction({ try PasswordResetStore().holder(userID: id, $0) }), id != user.userID else {
            throw PageRefusal(.notFound, "error.no_account")
        }
        let question = AdminQuestion(name: holder.displayName, username: holder.username, action: "/admin/users/\(id.lowercasedText)/delete", csrfToken: user.csrfToken)
        return try pages.privatePage("admin/delete_account", question, request)
    }

    /// `POST /admin/users/{id}/delete`.
    func adminDelete(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        guard try request.form(Confirmation.self).confirmed else { return .redirect(to: "/admin/users/\(id.lowercasedText)/delete") }
        guard try request.database.transaction({ try AccountDeletion().deleteByAdmin(userID: id, $0) }) else {
            throw PageRefusal(.notFound, "error.no_account")
        }
        viewers.forget(userID: id)
        rebuildLeaderboard(request)
        return .redirect(to: "/admin/users?deleted=1")
    }

    private func showOwn(_ request: PortalRequest, error: String?, status: HTTPStatus) throws -> Response {
        let (confirmation, providers) = try request.database.transaction { connection in
            (try AccountDeletion().confirmation(connection), try SSOStore().providers(connection))
        }
        guard let confirmation else { throw PageRefusal(.notFound, "error.no_account") }
        let page = OwnPage(
            hasPassword: confirmation.hasPassword, freshSignIn: confirmation.freshSignIn,
            signIns: providers.map { AccountPages.ProviderButton(label: $0.label, href: "/auth/\($0.slug)?next=%2Fme%2Fdelete") }, error: error)
        return try pages.privatePage("me/delete", page, request, status: status)
    }

    /// The leaderboard without the deleted account, now (another instance refreshing at this
    /// moment has it on its next round).
    private func rebuildLeaderboard(_ request: PortalRequest) {
        do {
            _ = try request.database.transaction { try LeaderboardStore().refresh(every: 0, instance: "account deletion", $0) }
        } catch {
            FileHandle.standardError.write(Data("leaderboard: the rebuild after a deletion failed: \(error)\n".utf8))
        }
    }
}
