import Foundation
import PostgresClient

/// One account as the admin's user list shows it.
public struct AccountListing: Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var displayName: String
    public var role: Role
    public var createdAt: Date
    public var disabled: Bool
    /// Extra time for mock exams, if the account has it.
    public var accommodation: Accommodation?
}

/// What `AccountDirectory.set` did.
public enum AccountChange: Sendable, Equatable {
    /// Changed (or already so): the account's username.
    case changed(username: String)
    case unknownAccount
    /// The database refused: an admin changing their own account, or a role that is none.
    case refused
}

/// The admin's view of accounts: finding them, and changing a role or disabling one. Row-level
/// security lets only an admin list every account; the change itself is the database's
/// `admin_set_account`, which checks the caller and writes the audit entry.
public struct AccountDirectory: Sendable {
    public init() {}

    /// Accounts whose username or display name contains `text` (any when nil), optionally of
    /// one role, by username; at most `limit`, with how many match in all.
    public func search(text: String?, role: Role?, limit: Int, _ connection: PostgresConnection) throws -> (accounts: [AccountListing], total: Int) {
        let pattern = text.map(AdminStore.containing)
        let rows = try connection.query(("""
            SELECT u.id, u.username, u.display_name, u.role, u.created_at, u.disabled_at IS NOT NULL AS disabled,
                   a.time_multiplier::float8 AS multiplier, a.extra_minutes, a.extra_attempts, a.reads_aloud, count(*) OVER () AS total
            FROM users u LEFT JOIN accommodations a ON a.student_id = u.id
            WHERE (\(pattern)::text IS NULL OR u.username ILIKE \(pattern) OR u.display_name ILIKE \(pattern))
              AND (\(role?.rawValue)::text IS NULL OR u.role = \(role?.rawValue))
            ORDER BY lower(u.username)
            LIMIT \(limit)
            """ as SQL).prepared()).rows
        let accounts = try rows.map { row in
            AccountListing(
                id: try row.decode("id", as: UUID.self), username: try row.decode("username", as: String.self),
                displayName: try row.decode("display_name", as: String.self), role: Role(rawValue: try row.decode("role", as: String.self)) ?? .student,
                createdAt: try row.decode("created_at", as: Date.self), disabled: try row.decode("disabled", as: Bool.self),
                accommodation: try SchoolStore.accommodation(row))
        }
        return (accounts, try rows.first?.decode("total", as: Int.self) ?? 0)
    }

    /// Gives the account `role` and disables or enables it, audited, as the calling admin.
    public func set(userID: UUID, role: Role, disabled: Bool, _ connection: PostgresConnection) throws -> AccountChange {
        do {
            let row = try connection.query(("""
                SELECT admin_set_account(\(userID), \(role.rawValue), \(disabled)) AS found, (SELECT username FROM users WHERE id = \(userID)) AS username
                """ as SQL).prepared()).single()
            guard try row.decode("found", as: Bool.self), let username = try row.decode("username", as: String?.self) else { return .unknownAccount }
            return .changed(username: username)
        } catch let error as PostgresError where error.isCheckViolation {
            return .refused
        }
    }
}
