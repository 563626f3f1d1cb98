import ExamData
import Foundation
import HTTPServer

/// Reminders by e-mail: chosen on the study rhythm page (`POST /me/reminders`, only when the
/// portal sends mail), turned off from any reminder without signing in (`/unsubscribe/{token}`:
/// a page with a button, since a mail scanner opening the link must change nothing, and the
/// one-click POST of RFC 8058 that mail clients send themselves).
struct ReminderPages: Sendable {
    let pages: PageRenderer
    let rhythm: StudyRhythmPages

    struct UnsubscribePage: Encodable {
        var token = ""
        var form = false
        var done = false
        var gone = false
        var signedIn: Bool
    }

    /// How often to mail the study digest; nil for a choice the form does not offer.
    struct DigestForm: PostedForm {
        let frequency: MailDigests.Frequency?

        init(_ form: FormReader) throws(PageRefusal) { frequency = MailDigests.Frequency(rawValue: form.text("digest")) }
    }

    /// `POST /me/reminders`.
    func save(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        guard rhythm.mailEnabled else { throw PageRefusal(.notFound, "error.nothing_here") }
        guard let frequency = try request.form(DigestForm.self).frequency else {
            return try rhythm.render(request, user, fieldErrors: ["digest": pages.message("rhythm.digest_invalid", for: request)], status: .unprocessableContent)
        }
        try request.database.transaction { try MailDigests().setFrequency(frequency, $0) }
        return .redirect(to: "/me/rhythm?saved=reminders#reminders")
    }

    /// `GET /unsubscribe/{token}`: the button.
    func form(_ request: PortalRequest, token: String) throws -> Response {
        guard MailToken.isWellFormed(token) else { return try show(UnsubscribePage(gone: true, signedIn: request.user != nil), request, status: .notFound) }
        return try show(UnsubscribePage(token: token, form: true, signedIn: request.user != nil), request, status: .ok)
    }

    /// `POST /unsubscribe/{token}`: from the page's button, or a mail client's one click.
    func unsubscribe(_ request: PortalRequest, token: String) throws -> Response {
        let signedIn = request.user != nil
        guard MailToken.isWellFormed(token), try request.database.transaction({ try MailDigests().unsubscribe(token: token, $0) }) else {
            return try show(UnsubscribePage(gone: true, signedIn: signedIn), request, status: .notFound)
        }
        return try show(UnsubscribePage(done: true, signedIn: signedIn), request, status: .ok)
    }

    private func show(_ page: UnsubscribePage, _ request: PortalRequest, status: HTTPStatus) throws -> Response {
        try pages.privatePage("accounts/unsubscribe", page, request, status: status)
    }
}
