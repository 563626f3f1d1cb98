import Foundation
import PostgresClient

/// "Download my data" for a large history (`data_exports`): asked for, made in the background
/// as the student, and taken once. Every statement runs as the student: nobody else's archive
/// is visible, or can be filled in or taken.
public struct DataExportStore: Sendable {
    public init() {}

    /// Where the student's archive stands.
    public struct State: Sendable, Equatable {
        public var requestedAt: Date
        public var readyAt: Date?
        public var downloadedAt: Date?
    }

    /// How many answers the signed-in student has given: what decides whether the archive is made
    /// at once or in the background.
    public func answerCount(_ connection: PostgresConnection) throws -> Int {
        try connection.query("SELECT count(*) AS n FROM answers WHERE user_id = (SELECT app_user_id())").single().decode("n", as: Int.self)
    }

    public func state(_ connection: PostgresConnection) throws -> State? {
        guard let row = try connection.query("SELECT requested_at, ready_at, downloaded_at FROM data_exports WHERE user_id = app_user_id()").first else {
            return nil
        }
        return State(
            requestedAt: try row.decode("requested_at", as: Date.self), readyAt: try row.decode("ready_at", as: Date?.self),
            downloadedAt: try row.decode("downloaded_at", as: Date?.self))
    }

    /// Asks for a new archive (an older one, taken or not, is dropped); when it was asked for,
    /// which the archive made for it names when it is kept (`store`).
    public func request(_ connection: PostgresConnection) throws -> Date {
        try connection.query("""
            INSERT INTO data_exports (user_id, requested_at) VALUES (app_user_id(), app_now())
            ON CONFLICT (user_id) DO UPDATE SET requested_at = EXCLUDED.requested_at, ready_at = NULL, archive = NULL, filename = NULL, downloaded_at = NULL
            RETURNING requested_at
            """).single().decode("requested_at", as: Date.self)
    }

    /// Keeps the archive made for the request; false when it was asked for again meanwhile or is gone.
    public func store(archive: [UInt8], filename: String, requestedAt: Date, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("""
            UPDATE data_exports SET archive = \(PostgresBytes(archive)), filename = \(filename), ready_at = app_now()
            WHERE user_id = app_user_id() AND requested_at = \(requestedAt) AND ready_at IS NULL RETURNING user_id
            """).first != nil
    }

    /// Takes the ready archive, once: it is dropped as it is handed over.
    public func take(_ connection: PostgresConnection) throws -> (archive: [UInt8], filename: String)? {
        guard let row = try connection.query("""
            WITH ready AS (SELECT archive, filename FROM data_exports WHERE user_id = app_user_id() AND archive IS NOT NULL FOR UPDATE)
            UPDATE data_exports d SET archive = NULL, downloaded_at = app_now() FROM ready
            WHERE d.user_id = app_user_id() RETURNING ready.archive, ready.filename
            """).first else { return nil }
        return (try row.decode("archive", as: PostgresBytes.self).bytes, try row.decode("filename", as: String.self))
    }
}
