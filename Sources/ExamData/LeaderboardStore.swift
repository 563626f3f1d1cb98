import Foundation
import PostgresClient

/// The two leaderboard periods.
public enum LeaderboardPeriod: String, Sendable, CaseIterable {
    /// The current ISO week, from Monday 00:00 UTC.
    case week
    case all
}

/// One public row of a leaderboard.
public struct LeaderboardEntry: Sendable, Equatable {
    /// 1-based place in the ordering (ties broken by right answers, then name).
    public var place: Int
    /// Competition rank: equal points share a rank.
    public var rank: Int
    public var displayName: String
    public var points: Int
    public var sessions: Int
    public var answered: Int
    public var correct: Int
    /// Whether this row is the reader's own.
    public var isViewer: Bool

    /// Right answers as a percentage of answers.
    public var accuracy: Int { answered == 0 ? 0 : Int((Double(correct) * 100 / Double(answered)).rounded()) }
}

/// The leaderboard read model. It is a materialized view the app role cannot read: these calls
/// go through the database's narrow functions, which return only public columns.
public struct LeaderboardStore: Sendable {
    public init() {}

    /// Refreshes the view unless another instance holds the refresh lock or refreshed less than
    /// `every` ago; true when this call did the refresh. Call it inside a transaction (the lock
    /// is transaction-scoped).
    public func refresh(every: TimeInterval, instance: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("""
            SELECT leaderboard_refresh(make_interval(secs => \(every)), \(instance)) AS refreshed
            """ as SQL).prepared()).single().decode("refreshed", as: Bool.self)
    }

    /// When the view was last refreshed (nil before the first refresh after migration).
    public func refreshedAt(_ connection: PostgresConnection) throws -> Date? {
        try connection.query(("SELECT leaderboard_refreshed_at() AS at" as SQL).prepared()).single().decode("at", as: Date?.self)
    }

    /// Entries `offset + 1 … offset + limit` of an exam's board.
    public func page(examID: Int, period: LeaderboardPeriod, offset: Int, limit: Int, _ connection: PostgresConnection) throws -> [LeaderboardEntry] {
        try connection.query(("""
            SELECT place, rank, display_name, points, sessions, answered, correct, is_viewer
            FROM leaderboard_page(\(examID), \(period.rawValue), \(offset), \(limit))
            """ as SQL).prepared()).rows.map(Self.entry)
    }

    /// The reader's own entry and up to `radius` neighbours either side; empty when the reader
    /// is not on the board.
    public func aroundViewer(examID: Int, period: LeaderboardPeriod, radius: Int, _ connection: PostgresConnection) throws -> [LeaderboardEntry] {
        try connection.query(("""
            SELECT place, rank, display_name, points, sessions, answered, correct, is_viewer
            FROM leaderboard_around_viewer(\(examID), \(period.rawValue), \(radius))
            """ as SQL).prepared()).rows.map(Self.entry)
    }

    /// `aroundViewer` for the exam at `region/slug`, as one statement of a pipelined read
    /// (rows as `entries(_:)` decodes them; none for an unknown exam).
    public static func aroundViewerStatement(region: String, slug: String, period: LeaderboardPeriod, radius: Int) -> SQL {
        ("""
            SELECT a.place, a.rank, a.display_name, a.points, a.sessions, a.answered, a.correct, a.is_viewer
            FROM exams e JOIN regions r ON r.id = e.region_id AND r.code = \(region),
                 LATERAL leaderboard_around_viewer(e.id, \(period.rawValue), \(radius)) a
            WHERE e.slug = \(slug)
            """ as SQL).prepared()
    }

    /// The entries a board statement returned.
    public static func entries(_ result: QueryResult) throws -> [LeaderboardEntry] {
        try result.rows.map(entry)
    }

    /// How many students an exam's board holds.
    public func size(examID: Int, period: LeaderboardPeriod, _ connection: PostgresConnection) throws -> Int {
        try connection.query(("SELECT leaderboard_size(\(examID), \(period.rawValue)) AS size" as SQL).prepared()).single().decode("size", as: Int.self)
    }

    static func entry(_ row: PostgresRow) throws -> LeaderboardEntry {
        LeaderboardEntry(
            place: try row.decode("place", as: Int.self), rank: try row.decode("rank", as: Int.self),
            displayName: try row.decode("display_name", as: String.self), points: try row.decode("points", as: Int.self),
            sessions: try row.decode("sessions", as: Int.self), answered: try row.decode("answered", as: Int.self),
            correct: try row.decode("correct", as: Int.self), isViewer: try row.decode("is_viewer", as: Bool.self))
    }
}
