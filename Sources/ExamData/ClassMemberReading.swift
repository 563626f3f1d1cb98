import Foundation
import PostgresClient

/// One member's page within a class, for its teacher, as one pipelined read: the class, the
/// member with their activity, the teacher's assignments for the class, every attempt the member
/// made at them with the answers that counted, and their accuracy by domain. Row-level security
/// applies as to the caller: a class they do not teach, or someone not in it, reads as nothing.
public struct ClassMemberReading: Sendable {
    /// A question of an attempt and whether the answer that counted was right.
    public struct Answered: Sendable, Equatable {
        public var stem: String
        public var correct: Bool
    }

    /// An attempt at an assignment, with the answers that counted in it.
    public struct Attempt: Sendable, Equatable {
        public var linkID: UUID
        public var sessionID: UUID
        public var startedAt: Date
        public var finishedAt: Date?
        public var scorePercent: Double?
        public var passed: Bool?
        public var secondsUsed: Int?
        public var answers: [Answered]
    }

    public var summary: ClassSummary
    public var entry: ClassRosterEntry
    public var links: [ShareLinkSummary]
    /// In the order they were started.
    public var attempts: [Attempt]
    public var progress: [StudentDomainProgress]

    /// The statements, in the order `init` reads their results.
    public static func statements(classID: UUID, student: UUID, collation: Collation) -> [SQL] {
        [ClassReading.summaryStatement(classID), ClassReading.rosterStatement(classID, collation, student: student),
         SchoolStore.shareLinksStatement(classID: classID), attemptsStatement(classID, student), answersStatement(classID, student),
         ClassReading.progressStatement(classID, collation, student: student)]
    }

    /// The page from what `statements` returned; nil when the caller does not teach the class
    /// or the student is not a member of it now.
    public init?(_ results: [QueryResult]) throws {
        guard results.count == 6, let row = results[0].first, let entry = try ClassReading.roster(results[1]).first else { return nil }
        summary = try SchoolStore.summary(row)
        self.entry = entry
        links = try results[2].rows.map(SchoolStore.shareLink)
        var answers: [UUID: [Answered]] = [:]
        for row in results[4].rows {
            answers[try row.decode("session_id", as: UUID.self), default: []].append(
                Answered(stem: try row.decode("stem", as: String.self), correct: try row.decode("correct", as: Bool.self)))
        }
        attempts = try results[3].rows.map { row in
            let session = try row.decode("id", as: UUID.self)
            return Attempt(
                linkID: try row.decode("link_id", as: UUID.self), sessionID: session, startedAt: try row.decode("started_at", as: Date.self),
                finishedAt: try row.decode("finished_at", as: Date?.self), scorePercent: try row.decode("score_percent", as: Double?.self),
                passed: try row.decode("passed", as: Bool?.self), secondsUsed: try row.decode("seconds", as: Int?.self),
                answers: answers[session] ?? [])
        }
        progress = try ClassReading.progress(results[5])
    }

    /// The member's sessions started from the teacher's links for the class.
    static func attemptsStatement(_ classID: UUID, _ student: UUID) -> SQL {
        ("""
            SELECT s.share_link_id AS link_id, s.id, s.started_at, s.finished_at, s.score_percent, s.passed,
                   (extract(epoch FROM s.finished_at - s.started_at))::integer AS seconds
            FROM study_sessions s JOIN share_links l ON l.id = s.share_link_id
            WHERE l.class_id = \(classID) AND l.created_by = (SELECT app_user_id()) AND s.user_id = \(student)
            ORDER BY s.started_at, s.id
            """ as SQL).prepared()
    }

    /// The answers that counted in those sessions (`counted_answers`), in the order given.
    static func answersStatement(_ classID: UUID, _ student: UUID) -> SQL {
        ("""
            SELECT c.session_id, q.stem, c.correct
            FROM counted_answers c JOIN questions q ON q.id = c.question_id
            WHERE c.session_id IN (SELECT s.id FROM study_sessions s JOIN share_links l ON l.id = s.share_link_id
                                   WHERE l.class_id = \(classID) AND l.created_by = (SELECT app_user_id()) AND s.user_id = \(student))
            ORDER BY c.session_id, c.answered_at, c.id
            """ as SQL).prepared()
    }
}
