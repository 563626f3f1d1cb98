import Foundation

/// A push service on loopback (`Tests/Fixtures/push_endpoint.py`, Debian's python3-cryptography):
/// it holds a subscriber's key pair and auth secret, checks each message's VAPID signature and
/// opens it with that key, and keeps what it received for the test to read back.
public final class TestPushService: @unchecked Sendable {
    private let folder = NSTemporaryDirectory() + "push-\(UUID().uuidString)"
    private let server: ScriptServer

    /// One message as the service received it.
    public struct Received: Decodable, Sendable {
        public var path: String
        public var headers: [String: String]
        /// The message, decrypted: the JSON the service worker reads.
        public var message: [String: String]?
        public var error: String?
        /// Whether the VAPID header verified (`true`), or why not.
        public var vapid: VAPIDCheck

        public enum VAPIDCheck: Decodable, Sendable, Equatable {
            case verified
            case refused(String)

            public init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let ok = try? container.decode(Bool.self), ok { self = .verified } else { self = .refused((try? container.decode(String.self)) ?? "false") }
            }
        }
    }

    /// The subscriber's keys, as a browser hands them over (base64url).
    public struct Subscription: Decodable, Sendable {
        public var p256dh: String
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        server = try ScriptServer(script: "push_endpoint.py", arguments: [folder], interpreter: "/usr/bin/python3")
    }

    public var port: Int { server.port }

    /// Tells the service the sender's clock reads `date` now (a test clock moved ahead): the
    /// VAPID expiry is checked against it, as a real service checks it against its own.
    public func follow(clock date: Date) throws {
        try String(date.timeIntervalSinceNow).write(toFile: folder + "/clock-offset", atomically: true, encoding: .utf8)
    }

    /// An endpoint of this service; under `/gone/` the service answers 410.
    public func endpoint(_ name: String, gone: Bool = false) -> String { "http://127.0.0.1:\(port)/\(gone ? "gone" : "push")/\(name)" }

    public var subscription: Subscription {
        get throws { try JSONDecoder().decode(Subscription.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/subscription.json"))) }
    }

    /// Every message received so far, in order.
    public func messages() -> [Received] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") && $0 != "subscription.json" }
        return names.sorted { Int($0.dropLast(5)) ?? 0 < Int($1.dropLast(5)) ?? 0 }.compactMap { name in
            (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))).flatMap { try? JSONDecoder().decode(Received.self, from: $0) }
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
