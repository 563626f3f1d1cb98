import ExamData
import Foundation
import HTTPServer

/// Who is asking: the session behind the cookie (if any) and the CSRF token their forms carry.
struct Viewer: Sendable {
    var user: SessionUser?
    /// The token forms must echo: the session's, or for a visitor the double-submit cookie's.
    var csrfToken: String
    /// A new CSRF cookie to set (a visitor without a usable one).
    var newCSRFCookie: String?

    /// Nobody signed in, and no token to show: what shared, cached pages are rendered for.
    static let anonymous = Viewer(user: nil, csrfToken: "")
}

/// A request as the portal's handlers see it: the HTTP request, the typed viewer its route
/// group resolved and checked, the client's address, and the request's own database handle.
struct PortalRequest: Sendable {
    var http: Request
    let viewer: Viewer
    /// The client's address (the TCP peer, or the forwarded address when the peer is a trusted
    /// proxy): what limits, logs and audit rows use.
    let clientAddress: String
    let database: RequestDatabase

    var user: SessionUser? { viewer.user }
    var body: [UInt8] { http.body }
    var method: HTTPMethod { http.method }
    var path: String { http.path }
    var headers: HTTPHeaders { http.headers }
    var query: FormFields { http.query }
    var cookies: [String: String] { http.cookies }
    var head: RequestHead { http.head }

    /// The path and query as requested, to come back to after signing in.
    var returnPath: String {
        let query = http.head.query
        return query.isEmpty ? http.path : http.path + "?" + query
    }
}
