import Foundation
import HTTPServer

/// Who may enter: a route group's `Access` applied to the resolved reader. Someone who may not
/// enter is sent to sign in (or, on the device API, told so in JSON), or finds nothing there
/// (404) when signing in would not help: the teaching and admin areas are not even confirmed.
struct AccessRule: Sendable {
    let pages: PageRenderer

    /// The answer for someone who may not enter, or nil to let them in.
    func refusal(_ request: PortalRequest, _ options: RouteOptions) -> Response? {
        let user = request.user
        switch options.access {
        case .anyone, .monitoring:
            return nil
        case .admin:
            return user?.role == .admin ? nil : nothingHere(request.head)
        case .teacher:
            guard let user else { return signIn(request, options) }
            if user.role.teaches { return nil }
            // A student looking for the teaching area itself is told how to get there (asking
            // to teach, `/me/teaching`); every other teaching address stays unconfirmed.
            if request.path == "/teach" && (request.method == .GET || request.method == .HEAD) {
                struct Becoming: Encodable {}
                return (try? pages.privatePage("teach/become", Becoming(), request, status: .forbidden))
                    ?? pages.errorPage(HTTPError(.forbidden, pages.message("school.become_teacher", for: request)), for: request)
            }
            return nothingHere(request.head)
        case .signedIn:
            return user == nil ? signIn(request, options) : nil
        }
    }

    /// A message of the catalogue in the language the request's headers ask for (the refusal
    /// comes before any session's own language is known to matter).
    func say(_ key: String, _ head: RequestHead) -> String {
        pages.message(key, locale: LocaleNegotiation.choose(userSetting: nil, headers: head.headers, available: pages.templates.locales))
    }

    private func nothingHere(_ head: RequestHead) -> Response {
        pages.errorPage(HTTPError(.notFound, say("error.nothing_here", head)), head: head)
    }

    /// Turning a visitor away: to the sign-in page and back (to the page itself for a GET, to
    /// the form's `return_to` page after a form), or for the device API a 401 it can show.
    private func signIn(_ request: PortalRequest, _ options: RouteOptions) -> Response {
        if options.answersWithProblem {
            return APIResponse.problem(pages.message("api.sign_in", locale: pages.locale(for: request)), status: .unauthorized)
        }
        let back = request.method == .GET || request.method == .HEAD
            ? LocalPath.validated(request.returnPath) ?? "/"
            : LocalPath.validated(FormFields(body: request.body)["return_to"]) ?? "/"
        return .redirect(to: LocalPath.signIn(returningTo: back))
    }
}
