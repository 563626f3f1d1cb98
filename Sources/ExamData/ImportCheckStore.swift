import Foundation
import PostgresClient

/// A file an admin sent to import, kept while they read what it would do (`import_checks`).
public struct ImportCheck: Sendable {
    public var id: UUID
    public var document: [UInt8]
    /// `region/exam` for a format with no exams of its own; "" when none.
    public var into: String
    public var domain: String
    public var skipUnsupported: Bool
}

/// The admin's checked files: kept a day at most, each admin's own (row-level security).
public struct ImportCheckStore: Sendable {
    public init() {}

    /// Keeps a file to import after its check; the caller's checks older than a day go.
    public func keep(document: [UInt8], into: String, domain: String, skipUnsupported: Bool, at date: Date, _ connection: PostgresConnection) throws -> UUID {
        try connection.execute(("""
            DELETE FROM import_checks WHERE admin_id = (SELECT app_user_id()) AND created_at < \(date)::timestamptz - interval '1 day'
            """ as SQL).prepared())
        return try connection.query(("""
            INSERT INTO import_checks (admin_id, created_at, document, into_exam, domain, skip_unsupported)
            VALUES ((SELECT app_user_id()), \(date), \(PostgresBytes(document)), \(into), \(domain), \(skipUnsupported)) RETURNING id
            """ as SQL).prepared()).single().decode("id", as: UUID.self)
    }

    public func check(_ id: UUID, _ connection: PostgresConnection) throws -> ImportCheck? {
        guard let row = try connection.query(("""
            SELECT id, document, into_exam, domain, skip_unsupported FROM import_checks WHERE id = \(id)
            """ as SQL).prepared()).first else { return nil }
        return ImportCheck(
            id: try row.decode("id", as: UUID.self), document: try row.decode("document", as: PostgresBytes.self).bytes,
            into: try row.decode("into_exam", as: String.self), domain: try row.decode("domain", as: String.self),
            skipUnsupported: try row.decode("skip_unsupported", as: Bool.self))
    }

    public func remove(_ id: UUID, _ connection: PostgresConnection) throws {
        try connection.execute(("DELETE FROM import_checks WHERE id = \(id)" as SQL).prepared())
    }
}
