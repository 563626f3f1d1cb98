import Foundation
import PostgresClient
import QuestionEngine

/// The one way an answer is stored, online and offline alike. The caller sends what the
/// student did (the response, the time the server measured, when); the database is the judge:
/// its `answers_admit` trigger locks the session and admits the answer only while the session
/// is the caller's and open, decides what it is worth (correct, score, the rating from the
/// time spent) and, as it is stored, reviews the student's card. What a `RecordedAnswer`
/// carries of correctness, score and rating is the caller's own reckoning and is not sent.
///
/// The same id sent again is a replay when it is the same answer: the statement stores nothing
/// and reports no row. The same id carrying anything else is refused (`unique_violation`).
public struct AnswerRecorder: Sendable {
    public init() {}

    /// The insert for one answer, for a caller that sends it with the COMMIT in one flight
    /// (one row stored now, none for a replay).
    public static func statement(_ answer: RecordedAnswer, userID: UUID?) throws -> SQL {
        let response = try PostgresJSON(encoding: answer.response)
        return ("""
            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, time_ms, answered_at)
            VALUES (\(answer.id), \(answer.sessionID), \(userID), \(answer.questionID), \(answer.questionVersion), \(response)::jsonb,
                    \(answer.milliseconds), \(answer.answeredAt))
            ON CONFLICT (id) DO NOTHING
            """ as SQL).prepared()
    }

    /// Where an answer left the student, as the statement that stored it says: the session's
    /// mode, the question's number in it (from 1) and how many it has, and whether the answer
    /// was stored now (false: the same answer sent again, stored before).
    public struct Placement: Sendable, Equatable {
        public var mode: StudyMode
        public var number: Int
        public var count: Int
        public var storedNow: Bool

        public init(mode: StudyMode, number: Int, count: Int, storedNow: Bool) {
            self.mode = mode
            self.number = number
            self.count = count
            self.storedNow = storedNow
        }
    }

    /// The one statement for an answer sent from a question page: the answer to the question
    /// as it is published now (the database takes its version), judged and stored by
    /// `answers_admit`, its card reviewed — and the answer's place in its session read in the
    /// same statement, so the student's next page is known in one round trip. A refusal is the
    /// database's error (`AnswerRefusal` names why); a replay stores nothing.
    public static func submission(
        id: UUID, sessionID: UUID, questionID: UUID, response: AnswerResponse, userID: UUID?, milliseconds: Int, answeredAt: Date
    ) throws -> SQL {
        let response = try PostgresJSON(encoding: response)
        // Version 0 when the question is not visible: answers_admit then refuses it as gone.
        return ("""
            WITH stored AS (
                INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, time_ms, answered_at)
                VALUES (\(id), \(sessionID), \(userID), \(questionID), coalesce((SELECT q.version FROM questions q WHERE q.id = \(questionID)), 0),
                        \(response)::jsonb, \(milliseconds), \(answeredAt))
                ON CONFLICT (id) DO NOTHING
                RETURNING id)
            SELECT s.mode, array_position(s.question_ids, \(questionID)) AS number, cardinality(s.question_ids) AS count,
                   EXISTS (SELECT 1 FROM stored) AS stored_now
            FROM study_sessions s WHERE s.id = \(sessionID)
            """ as SQL).prepared()
    }

    /// Reads what `submission` returned; nil when the session was not there to read.
    public static func placement(_ result: QueryResult) throws -> Placement? {
        guard let row = result.first, let number = try row.decode("number", as: Int?.self) else { return nil }
        guard let mode = StudyMode(rawValue: try row.decode("mode", as: String.self)) else { return nil }
        return Placement(mode: mode, number: number, count: try row.decode("count", as: Int.self), storedNow: try row.decode("stored_now", as: Bool.self))
    }

    /// Stores one answer. Inside a transaction a conflict undoes only this insert (a savepoint),
    /// so the caller's transaction goes on.
    public func record(_ answer: RecordedAnswer, userID: UUID?, _ connection: PostgresConnection) throws -> AnswerInsertResult {
        let statement = try Self.statement(answer, userID: userID)
        do {
            let stored = connection.isInTransaction
                ? try connection.withSavepoint { try connection.execute(statement) }
                : try connection.execute(statement)
            return stored == 1 ? .inserted : .replayed
        } catch where AnswerRefusal(error) == .idTaken {
            return .conflict
        }
    }

    /// Stores many answers in one statement, in the order they were answered (each reviews
    /// its card as it is admitted); returns the ids stored now. An id not among them was stored
    /// before as the same answer, or came twice. One refused row (a finished session, a reused
    /// id) fails the whole statement: the caller falls back to `record`.
    public func recordAll(_ answers: [RecordedAnswer], userID: UUID?, _ connection: PostgresConnection) throws -> Set<UUID> {
        guard !answers.isEmpty else { return [] }
        struct Row: Encodable {
            var id: UUID
            var session_id: UUID
            var question_id: UUID
            var question_version: Int
            var response: AnswerResponse
            var time_ms: Int
            var answered_us: Int64
        }
        let rows = try PostgresJSON(encoding: answers.map {
            Row(id: $0.id, session_id: $0.sessionID, question_id: $0.questionID, question_version: $0.questionVersion, response: $0.response,
                time_ms: $0.milliseconds, answered_us: Self.microseconds($0.answeredAt))
        })
        var inserted = Set<UUID>()
        for row in try connection.query(("""
            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, time_ms, answered_at)
            SELECT r.id, r.session_id, \(userID), r.question_id, r.question_version, r.response, r.time_ms,
                   timestamptz 'epoch' + r.answered_us * interval '1 microsecond'
            FROM jsonb_to_recordset(\(rows)::jsonb) AS r(
                id uuid, session_id uuid, question_id uuid, question_version integer, response jsonb, time_ms integer, answered_us bigint)
            ORDER BY r.answered_us, r.id
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """ as SQL).prepared()).rows {
            inserted.insert(try row.decode("id", as: UUID.self))
        }
        return inserted
    }

    /// Whole microseconds since 1970, as `timestamptz` keeps them.
    static func microseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }
}
