import ExamData
import Foundation
import HTTPServer
import Identifiers
import TemplateEngine

/// Renders pages from templates in the request's language, and error pages for the server.
struct PageRenderer: Sendable {
    let templates: TemplateSet
    let clock: @Sendable () -> Date
    /// Fragments shared by many readers, rendered once per key.
    let fragments: FragmentCache

    init(templates: TemplateSet, clock: @escaping @Sendable () -> Date, fragments: FragmentCache) {
        self.templates = templates
        self.clock = clock
        self.fragments = fragments
    }

    /// The language for this request: the user's setting, the switcher's cookie, then
    /// `Accept-Language`, then English (`LocaleNegotiation`).
    func locale(for request: PortalRequest) -> String {
        LocaleNegotiation.choose(userSetting: request.user?.locale, headers: request.headers, available: templates.locales)
    }

    /// Renders a page for this request: its language, and the viewer for the layout's
    /// navigation (the signed-in name, the sign-out form's CSRF token).
    func render<Page: Encodable>(_ template: String, _ page: Page, for request: PortalRequest) throws -> [UInt8] {
        try render(template, page, locale: locale(for: request), viewer: request.viewer)
    }

    /// Renders a page for `viewer`; `Viewer.anonymous` for a page shared by every visitor
    /// (cached: it must carry nobody's name or token). `keepFragments: false` renders the
    /// fragments for this page only (their keys would never be asked for again).
    func render<Page: Encodable>(
        _ template: String, _ page: Page, locale: String, viewer: Viewer, fragments: [String: Fragment] = [:], keepFragments: Bool = true
    ) throws -> [UInt8] {
        var fields: [String: TemplateValue] = ["csrfToken": .string(viewer.csrfToken)]
        if let user = viewer.user {
            fields["displayName"] = .string(user.displayName)
            fields["signedIn"] = .bool(true)
            fields["canHost"] = .bool(user.role.teaches)
            fields["isAdmin"] = .bool(user.role == .admin)
            if let section = TabSection.of(template: template) { fields["in_" + section.rawValue] = .bool(true) }
            // The dark sheet's media query: the device decides unless the account chose.
            switch user.colorScheme {
            case .device: break
            case .light: fields["darkMedia"] = .string("not all")
            case .dark: fields["darkMedia"] = .string("all")
            }
            if user.hidesReadings { fields["hidesReadings"] = .bool(true) }
            if user.readsAloud { fields["readsAloud"] = .bool(true) }
        }
        return try render(template, page, locale: locale, extra: ["viewer": .object(fields)], fragments: fragments, keepFragments: keepFragments)
    }

    /// A page for one reader (signed in, or with their own session or form): never stored by
    /// any cache.
    func privatePage(_ template: String, _ page: some Encodable, _ request: PortalRequest, status: HTTPStatus = .ok) throws -> Response {
        var response = Response.html(try render(template, page, for: request), status: status)
        response.headers.set("Cache-Control", "private, no-store")
        return response
    }

    /// A message of the catalogue in the request's language, formatted.
    func message(_ key: String, for request: PortalRequest, _ arguments: [String: String] = [:]) -> String {
        message(key, locale: locale(for: request), arguments)
    }

    /// A message of the catalogue, formatted (for labels computed in views).
    func message(_ key: String, locale: String, _ arguments: [String: String] = [:], count: Double? = nil) -> String {
        templates.catalog(for: locale)?.format(key, arguments, count: count) ?? key
    }

    /// "3 days ago" in the request's language.
    func ago(_ date: Date, locale: String) -> String {
        guard let catalog = templates.catalog(for: locale) else { return "" }
        return RelativeTime.describe(date, now: clock(), catalog: catalog)
    }

    /// Renders a page struct into bytes; the locale is added to the data as `locale`.
    func render<Page: Encodable>(
        _ template: String, _ page: Page, locale: String, extra: [String: TemplateValue] = [:], fragments: [String: Fragment] = [:],
        keepFragments: Bool = true
    ) throws -> [UInt8] {
        var value = try TemplateValue(encoding: page)
        if case .object(var fields) = value {
            fields["locale"] = .string(locale)
            fields["lang"] = .string(LocaleNegotiation.htmlLanguage(locale))
            fields["siteLanguages"] = Self.switcher(current: locale, available: templates.locales)
            fields.merge(extra) { _, new in new }
            value = .object(fields)
        }
        return try templates.render(template, value: value, locale: locale, now: clock(), fragments: fragments, store: keepFragments ? self.fragments : nil)
    }

    /// The language switcher's entries: every language with a catalogue, named in itself.
    static func switcher(current: String, available: [String]) -> TemplateValue {
        .list(LocaleNegotiation.names.filter { available.contains($0.code) }.map { language in
            .object([
                "code": .string(language.code), "tag": .string(LocaleNegotiation.htmlLanguage(language.code)), "name": .string(language.name),
                "current": .bool(language.code == current),
            ])
        })
    }

    /// An HTML error page; plain text if even that cannot be rendered. Without a resolved
    /// viewer (the server's own refusals), the signed-out header.
    func errorPage(_ error: HTTPError, head: RequestHead?) -> Response {
        let locale = LocaleNegotiation.choose(userSetting: nil, headers: head?.headers ?? HTTPHeaders(), available: templates.locales)
        return errorPage(error, locale: locale, viewer: .anonymous)
    }

    /// The server's own refusals (no route, a method a route does not take) in the reader's
    /// language; the framing errors keep the parser's words, which say what was malformed.
    func serverErrorPage(_ error: HTTPError, head: RequestHead?) -> Response {
        let locale = LocaleNegotiation.choose(userSetting: nil, headers: head?.headers ?? HTTPHeaders(), available: templates.locales)
        var worded = error
        switch error.status.code {
        case 404: worded = HTTPError(error.status, message("error.nothing_here", locale: locale), headers: error.headers)
        case 405: worded = HTTPError(error.status, message("error.method_not_allowed", locale: locale, ["method": head?.method.rawValue ?? ""]), headers: error.headers)
        default: break
        }
        var response = errorPage(worded, locale: locale, viewer: .anonymous)
        for field in error.headers where response.headers[field.name] == nil { response.headers.add(field.name, field.value) }
        return response
    }

    /// An error a handler raised, on a page with the reader's own header (a signed-in student
    /// keeps their menu, not "Sign in"), in their language.
    func errorPage(_ error: HTTPError, for request: PortalRequest) -> Response {
        var response = errorPage(error, locale: locale(for: request), viewer: request.viewer)
        for field in error.headers { response.headers.add(field.name, field.value) }
        return response
    }

    private func errorPage(_ error: HTTPError, locale: String, viewer: Viewer) -> Response {
        // Client errors carry what was wrong (handlers word it from the catalogue); server
        // errors get the catalogue's own sentence, which is what a reader can act on.
        let text = switch error.status.code {
        case 500: message("error.server", locale: locale)
        case 503: message("error.unavailable", locale: locale)
        default: error.message
        }
        return explainedErrorPage(status: error.status, message: text, locale: locale, viewer: viewer)
    }

    /// An HTML error page saying `message` as it is.
    func explainedErrorPage(status: HTTPStatus, message text: String, locale: String, viewer: Viewer = .anonymous) -> Response {
        let headingKey = switch status.code {
        case 404: "error.not_found_title"
        case 400, 422: "error.bad_request_title"
        default: "error.title"
        }
        struct ErrorPage: Encodable {
            var heading: String
            var message: String
            var status: Int
        }
        let page = ErrorPage(heading: message(headingKey, locale: locale), message: text, status: status.code)
        guard let bytes = try? render("errors/error", page, locale: locale, viewer: viewer) else {
            return Response.text(text + "\n", status: status)
        }
        var response = Response.html(bytes, status: status)
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}

/// The data of a page whose every part is a fragment or the layout's.
struct FragmentsOnly: Encodable {}

/// A kept page as it goes out: plain, or gzipped for a browser that accepts it.
struct KeptPage {
    var bytes: [UInt8]
    var isGzip: Bool

    /// The page as an HTML response, its encoding said (`Vary` for caches between: the page is
    /// in the reader's language, chosen by their cookie or `Accept-Language`).
    var html: Response {
        var response = Response.html(bytes)
        if isGzip {
            response.headers.add("Content-Encoding", "gzip")
            response.headers.add("Vary", "Accept-Encoding")
        }
        response.headers.add("Vary", "Accept-Language, Cookie")
        return response
    }

    /// The page as a private HTML response.
    var response: Response {
        var response = html
        if !isGzip { response.headers.add("Vary", "Accept-Encoding") }
        response.headers.set("Cache-Control", "private, no-store")
        return response
    }
}
