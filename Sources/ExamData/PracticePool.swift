import Foundation
import PostgresClient

/// Which of an exam's questions a practice the student builds draws from (the exam page's
/// "Which questions"): all of them, or those of the student's own history — missed in their
/// last session, missed and not answered right since, never answered, or flagged in a mock exam.
public enum PracticePool: String, Sendable, CaseIterable {
    case all
    case missedLast = "missed-last"
    case missed
    case unseen
    case flagged

    /// Which questions a pool admits: those read, or (for `unseen`) all but those read.
    public struct Restriction: Sendable {
        let read: Set<UUID>
        let leavesOut: Bool

        public func admits(_ id: UUID) -> Bool { read.contains(id) != leavesOut }
    }

    /// The questions of exam `examID` in this pool for the caller (an account, or a guest by
    /// their cookie); nil for `all` (no restriction).
    public func restriction(examID: Int, _ connection: PostgresConnection) throws -> Restriction? {
        // The caller's own sessions only (a teacher may read their pupils' too).
        let statement: SQL
        switch self {
        case .all:
            return nil
        case .missedLast:
            statement = """
                SELECT c.question_id FROM counted_answers c
                WHERE NOT c.correct AND c.session_id = (
                    SELECT s.id FROM study_sessions s
                    WHERE s.exam_id = \(examID) AND (s.user_id = (SELECT app_user_id()) OR (s.user_id IS NULL AND s.guest_key = (SELECT app_guest_key())))
                      AND EXISTS (SELECT 1 FROM answers a WHERE a.session_id = s.id)
                    ORDER BY s.started_at DESC LIMIT 1)
                """
        case .missed:
            // The answer that counts last, per question: wrong means still missed.
            statement = """
                SELECT latest.question_id FROM (
                    SELECT DISTINCT ON (c.question_id) c.question_id, c.correct
                    FROM counted_answers c JOIN study_sessions s ON s.id = c.session_id
                    WHERE s.exam_id = \(examID) AND (s.user_id = (SELECT app_user_id()) OR (s.user_id IS NULL AND s.guest_key = (SELECT app_guest_key())))
                    ORDER BY c.question_id, c.received_at DESC) latest
                WHERE NOT latest.correct
                """
        case .unseen:
            // What was answered, to leave out.
            statement = """
                SELECT DISTINCT c.question_id FROM counted_answers c JOIN study_sessions s ON s.id = c.session_id
                WHERE s.exam_id = \(examID) AND (s.user_id = (SELECT app_user_id()) OR (s.user_id IS NULL AND s.guest_key = (SELECT app_guest_key())))
                """
        case .flagged:
            statement = """
                SELECT DISTINCT flagged.id AS question_id
                FROM study_sessions s CROSS JOIN LATERAL unnest(s.flagged) AS flagged(id)
                WHERE s.exam_id = \(examID) AND s.mode = 'mock'
                  AND (s.user_id = (SELECT app_user_id()) OR (s.user_id IS NULL AND s.guest_key = (SELECT app_guest_key())))
                """
        }
        let read = Set(try connection.query(statement.prepared()).rows.map { try $0.decode("question_id", as: UUID.self) })
        return Restriction(read: read, leavesOut: self == .unseen)
    }
}
