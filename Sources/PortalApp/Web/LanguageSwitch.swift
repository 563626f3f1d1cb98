import ExamData
import Foundation
import HTTPServer

/// The language switcher at the foot of every page: `GET /language/{code}` keeps the choice in
/// a cookie (a visitor's) and on the account (a signed-in reader's, as the settings page
/// would), then goes back to the page it was chosen on. Links, so it works without JavaScript;
/// a choice of display language is all it can change, so a link from elsewhere can do no harm.
struct LanguageSwitch: Sendable {
    let pages: PageRenderer
    let viewers: ViewerCache
    let secureCookies: Bool

    /// A year: a visitor's language outlives any session.
    static let cookieLifetime = 365 * 86_400

    func choose(_ request: PortalRequest, code: String) throws -> Response {
        guard pages.templates.locales.contains(code) else {
            throw HTTPError(.notFound, pages.message("error.no_language", for: request, ["value": String(code.prefix(20))]))
        }
        if let user = request.user {
            try request.database.transaction { try AccountStore().setLocale(code, $0) }
            viewers.forget(userID: user.userID)
        }
        var response = Response.redirect(to: Self.returnPath(request.headers))
        response.setCookie(SetCookie(
            name: LocaleNegotiation.cookieName, value: code, path: "/", maxAge: Self.cookieLifetime, httpOnly: true, secure: secureCookies,
            sameSite: .lax))
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// The page the switcher was used on, when the browser says and it is one of this site's;
    /// the list of exams otherwise.
    static func returnPath(_ headers: HTTPHeaders) -> String { LocalPath.referringPage(headers) ?? "/" }
}
