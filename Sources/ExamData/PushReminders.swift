import Foundation
import PostgresClient

/// Reminders on the installed site (Web Push): the portal's VAPID key (the agent makes and
/// alone reads its private half), students' devices (subscribed as themselves), and the
/// reminders due now (taken by the agent). The database chooses who is reminded.
public struct PushReminders: Sendable {
    public init() {}

    /// A device due a reminder now.
    public struct Due: Sendable, Equatable {
        public var subscription: UUID
        public var endpoint: String
        /// The browser's key (its uncompressed P-256 point) and auth secret.
        public var p256dh: [UInt8]
        public var auth: [UInt8]
        public var locale: String
        /// Reviews due by the end of the student's today.
        public var reviews: Int
        public var secondsPerReview: Int
    }

    /// The public half of the VAPID key, once made.
    public func publicKey(_ connection: PostgresConnection) throws -> [UInt8]? {
        try connection.query(("SELECT push_public_key() AS point" as SQL).prepared()).first?.decode("point", as: PostgresBytes?.self)?.bytes
    }

    /// The private VAPID key (PEM), for the agent; nil before it made one.
    public func signingKey(_ connection: PostgresConnection) throws -> String? {
        try connection.query(("SELECT push_signing_key() AS pem" as SQL).prepared()).first?.decode("pem", as: String?.self)
    }

    /// Keeps the key the agent made unless one is kept; the kept private key.
    public func storeKey(pem: String, point: [UInt8], _ connection: PostgresConnection) throws -> String {
        try connection.query(("SELECT push_key_store(\(pem), \(PostgresBytes(point))) AS pem" as SQL).prepared()).single().decode("pem", as: String.self)
    }

    /// The signed-in student's browser subscribed.
    public func subscribe(endpoint: String, p256dh: [UInt8], auth: [UInt8], _ connection: PostgresConnection) throws -> UUID {
        try connection.query(("SELECT push_subscribe(\(endpoint), \(PostgresBytes(p256dh)), \(PostgresBytes(auth))) AS id" as SQL).prepared()).single().decode("id", as: UUID.self)
    }

    /// How many of the signed-in student's devices are subscribed.
    public func devices(_ connection: PostgresConnection) throws -> Int {
        try connection.query(("SELECT count(*) AS n FROM push_subscriptions WHERE user_id = (SELECT app_user_id())" as SQL).prepared())
            .single().decode("n", as: Int.self)
    }

    /// Forgets every device of the signed-in student.
    public func unsubscribeAll(_ connection: PostgresConnection) throws {
        try connection.execute(("DELETE FROM push_subscriptions WHERE user_id = (SELECT app_user_id())" as SQL).prepared())
    }

    /// The devices due a reminder now, their students marked reminded (portal_agent).
    public func take(limit: Int, _ connection: PostgresConnection) throws -> [Due] {
        try connection.query(("""
            SELECT subscription, endpoint, p256dh, auth, locale, due, seconds FROM push_reminders_take(\(limit))
            """ as SQL).prepared()).rows.map { row in
            Due(
                subscription: try row.decode("subscription", as: UUID.self), endpoint: try row.decode("endpoint", as: String.self),
                p256dh: try row.decode("p256dh", as: PostgresBytes.self).bytes, auth: try row.decode("auth", as: PostgresBytes.self).bytes,
                locale: try row.decode("locale", as: String.self), reviews: try row.decode("due", as: Int.self),
                secondsPerReview: try row.decode("seconds", as: Int.self))
        }
    }

    /// A push service said the subscription is gone (portal_agent).
    public func gone(_ subscription: UUID, _ connection: PostgresConnection) throws {
        try connection.execute(("SELECT push_gone(\(subscription))" as SQL).prepared())
    }
}
