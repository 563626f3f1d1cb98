import ExamData
import Foundation
import HTTPServer
import WebToken

/// Reminders on the installed site: the key a browser subscribes with (`GET /api/push/key`), its
/// subscription kept (`POST /api/push/subscriptions`, JSON as `PushSubscription.toJSON()` writes
/// it, sent by `push.js` with the form token), and every device forgotten from the study rhythm
/// page (`POST /me/push/end`, no JavaScript needed).
struct PushPages: Sendable {
    let pages: PageRenderer

    /// A subscription's largest body: an endpoint of a few hundred bytes and two keys.
    static let bodyLimit = 8 * 1024

    struct Key: Encodable {
        var publicKey: String
    }

    struct Subscription: Decodable {
        struct Keys: Decodable {
            var p256dh: String
            var auth: String
        }
        var endpoint: String
        var keys: Keys
    }

    struct Subscribed: Encodable {
        var devices: Int
    }

    /// `GET /api/push/key`.
    func key(_ request: PortalRequest) throws -> Response {
        guard let point = try request.database.run({ try PushReminders().publicKey($0) }) else {
            return APIResponse.problem(pages.message("push.unavailable", for: request), status: .serviceUnavailable)
        }
        return try APIResponse.json(Key(publicKey: Base64URL.encode(point)), cache: "private, max-age=3600")
    }

    /// `POST /api/push/subscriptions`.
    func subscribe(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let refused = APIResponse.problem(pages.message("push.subscription_invalid", for: request), status: .unprocessableContent)
        guard let subscription = try? JSONDecoder().decode(Subscription.self, from: Data(request.body)),
              Self.isEndpoint(subscription.endpoint),
              let p256dh = Base64URL.decode(subscription.keys.p256dh), (try? P256Key.publicKey(p256dh)) != nil,
              let auth = Base64URL.decode(subscription.keys.auth), auth.count == 16 else { return refused }
        let devices = try request.database.transaction { connection in
            _ = try PushReminders().subscribe(endpoint: subscription.endpoint, p256dh: p256dh, auth: auth, connection)
            return try PushReminders().devices(connection)
        }
        return try APIResponse.json(Subscribed(devices: devices), status: .created, cache: "no-store")
    }

    /// `POST /me/push/end`.
    func endAll(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try request.database.transaction { try PushReminders().unsubscribeAll($0) }
        return .redirect(to: "/me/rhythm?saved=push-ended#push")
    }

    /// A push service's address: https, or plain http to this machine (a test's push service);
    /// no user name, password or fragment. Where it may lead is the outbound client's to check again.
    static func isEndpoint(_ text: String) -> Bool {
        guard text.utf8.count <= 1000, let url = URL(string: text), let host = url.host, !host.isEmpty, url.user == nil, url.password == nil,
              url.fragment == nil, !text.contains(where: \.isWhitespace) else { return false }
        return url.scheme == "https" || (url.scheme == "http" && (host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host == "::1"))
    }
}
