import ExamData
import Foundation
import HTTPServer

/// An account's e-mail address, when the portal sends mail: set or changed from settings
/// (`POST /me/email`: a link goes to the new address, nothing changes until it is opened),
/// proved by opening the link (`/verify-email/{token}`, a day, once: a page with a button, so a
/// mail scanner fetching the link proves nothing), removed (`POST /me/email/remove`). The
/// address it replaces is told.
struct EmailAddressPages: Sendable {
    let pages: PageRenderer
    let accounts: AccountPages
    let wording: MailWording

    struct VerifyPage: Encodable {
        var token = ""
        /// The button that proves the address (the link was just opened).
        var form = false
        var verified = false
        /// Another account verified the address first.
        var taken = false
        /// The link was used, replaced or is more than a day old.
        var expired = false
        var signedIn: Bool
    }

    /// The e-mail address typed, at most 254 bytes' worth of characters.
    struct AddressForm: PostedForm {
        let email: String

        init(_ form: FormReader) throws(PageRefusal) { email = String(form.text("email").trimmingCharacters(in: .whitespaces).prefix(254)) }
    }

    /// `POST /me/email`.
    func requestAddress(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let typed = try request.form(AddressForm.self).email
        let message = try wording.draft(.addressCheck, locale: pages.locale(for: request))
        let outcome = try request.database.transaction { try EmailAddressStore().request(typed, message: message, $0) }
        switch outcome {
        case .sent: return .redirect(to: "/me/settings?email=sent#email")
        case .same: return .redirect(to: "/me/settings#email")
        case .teacherMade:
            throw PageRefusal(.forbidden, "account.email_teacher_made")
        case .invalid, .unknown:
            return try accounts.showSettings(
                request, user, fieldErrors: ["email": pages.message("account.email_invalid", for: request)], typedEmail: typed, status: .unprocessableContent)
        case .limited:
            var response = try accounts.showSettings(
                request, user, fieldErrors: ["email": pages.message("account.email_limited", for: request)], typedEmail: typed, status: .tooManyRequests)
            response.headers.set("Retry-After", "3600")
            return response
        }
    }

    /// `POST /me/email/remove`.
    func removeAddress(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let notice = try wording.draft(.addressReplaced, locale: pages.locale(for: request))
        _ = try request.database.transaction { try EmailAddressStore().remove(notice: notice, $0) }
        return .redirect(to: "/me/settings?email=removed#email")
    }

    /// `GET /verify-email/{token}`: a button that proves the address.
    func verifyForm(_ request: PortalRequest, token: String) throws -> Response {
        guard MailToken.isWellFormed(token) else { return try show(VerifyPage(expired: true, signedIn: request.user != nil), request, status: .gone) }
        return try show(VerifyPage(token: token, form: true, signedIn: request.user != nil), request, status: .ok)
    }

    /// `POST /verify-email/{token}`.
    func verify(_ request: PortalRequest, token: String) throws -> Response {
        let signedIn = request.user != nil
        guard MailToken.isWellFormed(token) else { return try show(VerifyPage(expired: true, signedIn: signedIn), request, status: .gone) }
        let notice = try wording.draft(.addressReplaced, locale: pages.locale(for: request))
        switch try request.database.transaction({ try EmailAddressStore().verify(token: token, notice: notice, $0) }) {
        case .verified: return try show(VerifyPage(verified: true, signedIn: signedIn), request, status: .ok)
        case .taken: return try show(VerifyPage(taken: true, signedIn: signedIn), request, status: .conflict)
        case .expired: return try show(VerifyPage(expired: true, signedIn: signedIn), request, status: .gone)
        }
    }

    private func show(_ page: VerifyPage, _ request: PortalRequest, status: HTTPStatus) throws -> Response {
        try pages.privatePage("accounts/verify_email", page, request, status: status)
    }
}
