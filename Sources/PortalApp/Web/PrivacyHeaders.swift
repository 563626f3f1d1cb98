import HTTPServer

/// Keeps a response made for one reader out of shared caches, and hands a visitor without a
/// usable form token the cookie that carries one.
struct PrivacyHeaders: Sendable {
    let settings: SessionSettings

    /// Sets the new CSRF cookie, if any, and marks the response private when it is for a
    /// signed-in reader or sets a cookie.
    func apply(_ response: inout Response, viewer: Viewer) {
        if let cookie = viewer.newCSRFCookie {
            response.setCookie(SetCookie(name: settings.csrfCookieName, value: cookie, path: "/", httpOnly: true, secure: settings.secure, sameSite: .lax))
        }
        if viewer.user != nil || response.headers.contains("Set-Cookie") {
            Self.markPrivate(&response)
        }
    }

    /// A response for one reader: no shared cache may keep it, and none may answer another
    /// reader's request with it.
    static func markPrivate(_ response: inout Response) {
        // A handler may have chosen a private policy of its own (a bundle kept by the browser).
        if !(response.headers["Cache-Control"]?.hasPrefix("private") ?? false) {
            response.headers.set("Cache-Control", "private, no-store")
        }
        if let vary = response.headers["Vary"] {
            if !vary.lowercased().contains("cookie") { response.headers.set("Vary", vary + ", Cookie") }
        } else {
            response.headers.set("Vary", "Cookie")
        }
    }
}
