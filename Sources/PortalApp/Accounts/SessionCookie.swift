import Foundation
import HTTPServer

/// How the session cookie is named and how long sessions live.
struct SessionSettings: Sendable {
    /// True when the portal is served over HTTPS: the cookie is then `Secure` and `__Host-`.
    var secure = false
    var idleTimeout: TimeInterval = 7 * 24 * 3600
    var absoluteLifetime: TimeInterval = 30 * 24 * 3600

    var cookieName: String { secure ? "__Host-portal_session" : "portal_session" }
    var csrfCookieName: String { secure ? "__Host-portal_csrf" : "portal_csrf" }
    /// A guest's study sessions belong to whoever holds this cookie.
    var guestCookieName: String { secure ? "__Host-portal_guest" : "portal_guest" }

    /// The cookie naming a guest's study sessions: a week, like the practice it keeps.
    func guestCookie(_ token: String) -> SetCookie {
        SetCookie(name: guestCookieName, value: token, path: "/", maxAge: 7 * 24 * 3600, httpOnly: true, secure: secure, sameSite: .lax)
    }

    /// The cookie carrying a new session token.
    func sessionCookie(_ token: String) -> SetCookie {
        SetCookie(name: cookieName, value: token, path: "/", maxAge: Int(absoluteLifetime), httpOnly: true, secure: secure, sameSite: .lax)
    }

    /// A well-formed token: 43 base64url characters (256 bits). Anything else is no session.
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43 && token.utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45 || byte == 95
        }
    }
}
