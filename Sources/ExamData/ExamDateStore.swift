import Foundation
import PostgresClient

/// A day a student has said they sit an exam.
public struct ExamDate: Sendable, Equatable {
    public var examID: Int
    /// The exam's address: region code and slug.
    public var region: String
    public var slug: String
    /// The calendar day, `YYYY-MM-DD`.
    public var day: String
    /// Its start in the student's time zone: what the scheduler aims at.
    public var start: Date
}

/// The days the signed-in student sits their exams (their own rows only, by row-level
/// security). Setting or moving one reschedules their cards for that exam from their history.
public struct ExamDateStore: Sendable {
    public init() {}

    /// The statement `dates` reads, for a caller that sends it with others in one flight.
    public static let datesStatement: SQL = ("""
        SELECT x.exam_id, r.code AS region, e.slug, x.sits_on::text AS day, x.sits_on::timestamp AT TIME ZONE u.time_zone AS start
        FROM exam_dates x JOIN users u ON u.id = x.user_id JOIN exams e ON e.id = x.exam_id JOIN regions r ON r.id = e.region_id
        WHERE x.user_id = (SELECT app_user_id())
        """ as SQL).prepared()

    /// The student's exam days by exam, from the rows of `datesStatement`.
    public static func dates(_ result: QueryResult) throws -> [Int: ExamDate] {
        var dates: [Int: ExamDate] = [:]
        for row in result.rows {
            let date = ExamDate(
                examID: try row.decode("exam_id", as: Int.self), region: try row.decode("region", as: String.self),
                slug: try row.decode("slug", as: String.self), day: try row.decode("day", as: String.self), start: try row.decode("start", as: Date.self))
            dates[date.examID] = date
        }
        return dates
    }

    /// The student's exam days by exam.
    public func dates(_ connection: PostgresConnection) throws -> [Int: ExamDate] {
        try Self.dates(connection.query(Self.datesStatement))
    }

    /// The start of the day `student` (the caller when nil) sits the exam, if they have said.
    public func examDay(examID: Int, for student: UUID? = nil, _ connection: PostgresConnection) throws -> Date? {
        try connection.query(("""
            SELECT x.sits_on::timestamp AT TIME ZONE u.time_zone AS start FROM exam_dates x JOIN users u ON u.id = x.user_id
            WHERE x.user_id = coalesce(\(student)::uuid, (SELECT app_user_id())) AND x.exam_id = \(examID)
            """ as SQL).prepared()).first?.decode("start", as: Date.self)
    }

    /// Sets (or, with nil, clears) the day the student sits the exam, and reschedules their
    /// cards from their history with it. `day` is `YYYY-MM-DD`, already checked by the caller.
    public func set(examID: Int, day: String?, at now: Date, _ connection: PostgresConnection) throws {
        if let day {
            try connection.execute(("""
                INSERT INTO exam_dates (user_id, exam_id, sits_on, set_at) VALUES ((SELECT app_user_id()), \(examID), \(day)::date, \(now))
                ON CONFLICT (user_id, exam_id) DO UPDATE SET sits_on = EXCLUDED.sits_on, set_at = EXCLUDED.set_at
                """ as SQL).prepared())
        } else {
            try connection.execute(("DELETE FROM exam_dates WHERE user_id = (SELECT app_user_id()) AND exam_id = \(examID)" as SQL).prepared())
        }
        _ = try ReviewCardStore().rebuild(connection)
    }
}
