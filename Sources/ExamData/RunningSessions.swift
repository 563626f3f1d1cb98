import Foundation
import PostgresClient

/// A session the student started and has not finished: offered again ("Resume", "Continue")
/// rather than started over, and asked about before a second mock exam starts over it.
public struct RunningSession: Sendable, Equatable {
    public var id: UUID
    public var mode: StudyMode
    /// Questions answered so far, and of how many.
    public var answered: Int
    public var total: Int
    public var startedAt: Date
    /// A mock exam's end, by the server's clock.
    public var deadline: Date?
}

/// The caller's unfinished sessions of one exam (their account's, or their guest cookie's, as
/// row-level security lets them read): a mock exam until its deadline, any other mode for a
/// week after it began; newest first.
public enum RunningSessions {
    /// At most this many are read (a page offers the newest of each mode).
    public static let limit = 5

    /// The statement, for a page's one flight.
    public static func statement(region: String, slug: String, at now: Date) -> SQL {
        ("""
        SELECT s.id, s.mode, s.started_at, s.deadline_at, cardinality(s.question_ids) AS total,
               (SELECT count(DISTINCT a.question_id) FROM answers a WHERE a.session_id = s.id)::int AS answered
        FROM study_sessions s JOIN exams e ON e.id = s.exam_id JOIN regions r ON r.id = e.region_id
        WHERE r.code = \(region) AND e.slug = \(slug) AND s.finished_at IS NULL
          AND (s.user_id = (SELECT app_user_id()) OR (s.user_id IS NULL AND s.guest_key = (SELECT app_guest_key())))
          AND CASE WHEN s.mode = 'mock' THEN s.deadline_at IS NULL OR s.deadline_at > \(now)::timestamptz
                   ELSE s.started_at > \(now)::timestamptz - interval '7 days' END
        ORDER BY s.started_at DESC, s.id
        LIMIT \(Self.limit)
        """ as SQL).prepared()
    }

    /// The sessions in the statement's rows.
    public static func decode(_ result: QueryResult) throws -> [RunningSession] {
        try result.rows.compactMap { row in
            guard let mode = StudyMode(rawValue: try row.decode("mode", as: String.self)) else { return nil }
            return RunningSession(
                id: try row.decode("id", as: UUID.self), mode: mode, answered: try row.decode("answered", as: Int.self),
                total: try row.decode("total", as: Int.self), startedAt: try row.decode("started_at", as: Date.self),
                deadline: try row.decode("deadline_at", as: Date?.self))
        }
    }

    /// Reads them on `connection`.
    public static func read(region: String, slug: String, at now: Date, _ connection: PostgresConnection) throws -> [RunningSession] {
        try decode(try connection.query(statement(region: region, slug: slug, at: now)))
    }
}
