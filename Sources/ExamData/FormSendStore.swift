import Foundation
import PostgresClient

/// What the database says of a form's one-time token (`form_send_begin`).
public enum FormSend: Sendable, Equatable {
    /// The first send: make what the form makes, in the same transaction.
    case first
    /// Sent before by the same sender: lead to where the first send led (nil when it made
    /// nothing with an address).
    case sentBefore(location: String?)
    /// Another sender's token, or a sender the database does not know: make nothing.
    case foreign
}

/// The one-time tokens of forms that make something: claimed with the making, in its
/// transaction, so a second send of the same form makes nothing more.
public struct FormSendStore: Sendable {
    public init() {}

    /// Claims `token` for the caller (the session's account, else the guest's cookie); with
    /// `freshFor` (seconds), a send that long after the first is a new one.
    public func begin(token: String, freshFor: Double? = nil, _ connection: PostgresConnection) throws -> FormSend {
        let row = try connection.query(("""
            SELECT state, location FROM form_send_begin(\(token), make_interval(secs => \(freshFor)::float8))
            """ as SQL).prepared()).single()
        switch try row.decode("state", as: String.self) {
        case "new": return .first
        case "sent": return .sentBefore(location: try row.decode("location", as: String?.self))
        default: return .foreign
        }
    }

    /// Records where the first send led (a path of this site).
    public func done(token: String, location: String, _ connection: PostgresConnection) throws {
        _ = try connection.query(("SELECT form_send_done(\(token), \(location))" as SQL).prepared())
    }
}
