import Foundation
import PostgresClient

/// A class's page for its teacher as one pipelined read: the class, its assignments (share
/// links) with every current member's attempts and the questions most missed in each, its
/// members, their progress per domain and the class leaderboard. Every statement is addressed
/// by the class's id, so none waits for another's answer, and each covers every assignment at
/// once (not a statement per link). Row-level security applies to each as to the caller; a
/// class the caller does not teach reads as nothing.
public struct ClassReading: Sendable {
    public var summary: ClassSummary
    /// Whether the class's pupils may see its leaderboard outside the class.
    public var publicBoards: Bool
    /// Whether the class came from a course whose roster can be fetched (LTI).
    public var hasCourseRoster: Bool
    /// The teacher's assignments for the class, newest first.
    public var links: [ShareLinkSummary]
    /// Each current member's first finished attempt at each assignment, by link.
    public var attempts: [UUID: [AssignmentAttempt]]
    /// The questions of each assignment answered wrong most often, by link.
    public var missed: [UUID: [MissedQuestion]]
    /// The current members with their activity, in name order.
    public var roster: [ClassRosterEntry]
    public var progress: [StudentDomainProgress]
    public var standings: [ClassStanding]

    /// The most missed questions shown for each assignment.
    public static let missedPerAssignment = 5

    /// The statements, in the order `init` reads their results.
    public static func statements(classID: UUID, collation: Collation) -> [SQL] {
        [summaryStatement(classID), SchoolStore.shareLinksStatement(classID: classID), attemptsStatement(classID, collation),
         missedStatement(classID), rosterStatement(classID, collation),
         progressStatement(classID, collation), standingsStatement(classID, collation)]
    }

    /// The page from what `statements` returned; nil when the caller does not teach the class.
    public init?(_ results: [QueryResult]) throws {
        guard results.count == 7, let row = results[0].first else { return nil }
        summary = try SchoolStore.summary(row)
        publicBoards = try row.decode("public_boards", as: Bool.self)
        hasCourseRoster = try row.decode("has_roster", as: Bool.self)
        links = try results[1].rows.map(SchoolStore.shareLink)
        attempts = try Self.attempts(results[2])
        missed = try Self.byLink(results[3]) { row in
            MissedQuestion(
                questionID: try row.decode("id", as: UUID.self), stem: try row.decode("stem", as: String.self),
                wrong: try row.decode("wrong", as: Int.self), answered: try row.decode("answered", as: Int.self))
        }
        roster = try Self.roster(results[4])
        progress = try Self.progress(results[5])
        standings = try results[6].rows.map { row in
            ClassStanding(displayName: try row.decode("display_name", as: String.self), points: try row.decode("points", as: Int.self),
                          sessions: try row.decode("sessions", as: Int.self))
        }
    }

    /// What `rosterStatement` returned.
    static func roster(_ result: QueryResult) throws -> [ClassRosterEntry] {
        try zip(SchoolStore.members(result), result.rows).map { member, row in
            ClassRosterEntry(
                member: member, lastActive: try row.decode("last_active", as: Date?.self), assignmentsDone: try row.decode("done", as: Int.self),
                answered: try row.decode("answered", as: Int.self), correct: try row.decode("correct", as: Int.self))
        }
    }

    /// What `progressStatement` returned.
    static func progress(_ result: QueryResult) throws -> [StudentDomainProgress] {
        try result.rows.map { row in
            StudentDomainProgress(
                displayName: try row.decode("display_name", as: String.self), examTitle: try row.decode("exam_title", as: String.self),
                language: try row.decode("language", as: String.self), domainTitle: try row.decode("domain_title", as: String.self),
                answered: try row.decode("answered", as: Int.self), correct: try row.decode("correct", as: Int.self))
        }
    }

    /// What `attemptsStatement` returned, by link.
    public static func attempts(_ result: QueryResult) throws -> [UUID: [AssignmentAttempt]] {
        try byLink(result) { row in
            AssignmentAttempt(
                userID: try row.decode("user_id", as: UUID.self), displayName: try row.decode("display_name", as: String.self), finishedAt: try row.decode("finished_at", as: Date?.self),
                scorePercent: try row.decode("score_percent", as: Double?.self), passed: try row.decode("passed", as: Bool?.self),
                secondsUsed: try row.decode("seconds", as: Int?.self), started: try row.decode("started", as: Int.self))
        }
    }

    /// Rows carrying a `link_id`, grouped by it in their order.
    private static func byLink<Item>(_ result: QueryResult, _ item: (PostgresRow) throws -> Item) throws -> [UUID: [Item]] {
        var grouped: [UUID: [Item]] = [:]
        for row in result.rows { grouped[try row.decode("link_id", as: UUID.self), default: []].append(try item(row)) }
        return grouped
    }

    /// The class, if the caller teaches it (no row otherwise).
    public static func summaryStatement(_ classID: UUID) -> SQL {
        ("""
            SELECT c.id, c.name, s.name AS school, c.join_code, c.public_boards,
                   (SELECT count(*) FROM class_members m WHERE m.class_id = c.id AND m.left_at IS NULL) AS members,
                   EXISTS (SELECT 1 FROM lti_contexts x WHERE x.class_id = c.id AND x.memberships_url IS NOT NULL) AS has_roster
            FROM classes c LEFT JOIN schools s ON s.id = c.school_id
            WHERE c.id = \(classID) AND c.teacher_id = (SELECT app_user_id())
            """ as SQL).prepared()
    }

    /// Each current member's first finished attempt at each of the teacher's links for the
    /// class, and how many sessions they started from it (the attempts used).
    public static func attemptsStatement(_ classID: UUID, _ collation: Collation) -> SQL {
        ("""
            SELECT l.id AS link_id, m.user_id, u.display_name, s.finished_at, s.score_percent, s.passed,
                   (extract(epoch FROM s.finished_at - s.started_at))::integer AS seconds,
                   (SELECT count(*) FROM study_sessions x WHERE x.user_id = m.user_id AND x.share_link_id = l.id) AS started
            FROM share_links l JOIN class_members m ON m.class_id = l.class_id AND m.left_at IS NULL
            JOIN users u ON u.id = m.user_id
            LEFT JOIN LATERAL (SELECT * FROM study_sessions x
                               WHERE x.user_id = m.user_id AND x.share_link_id = l.id AND x.finished_at IS NOT NULL
                               ORDER BY x.finished_at LIMIT 1) AS s ON true
            WHERE l.class_id = \(classID) AND l.created_by = (SELECT app_user_id())
            ORDER BY l.created_at DESC, l.id, u.display_name \(fragment: collation.sql), u.id
            """ as SQL).prepared()
    }

    /// The current members (as `SchoolStore.membersStatement` reads them) with when each last
    /// answered anything, how many of the teacher's assignments for the class they finished, and
    /// what they answered overall and right.
    /// `student`: that member only (their own page in the class).
    static func rosterStatement(_ classID: UUID, _ collation: Collation, student: UUID? = nil) -> SQL {
        ("""
            SELECT m.user_id, u.display_name, u.username, m.joined_at, a.time_multiplier::float8 AS multiplier, a.extra_minutes, a.extra_attempts, a.reads_aloud,
                   (SELECT max(x.answered_at) FROM answers x WHERE x.user_id = m.user_id) AS last_active,
                   (SELECT count(DISTINCT s.share_link_id) FROM study_sessions s JOIN share_links l ON l.id = s.share_link_id
                    WHERE s.user_id = m.user_id AND s.finished_at IS NOT NULL AND l.class_id = m.class_id
                      AND l.created_by = (SELECT app_user_id())) AS done,
                   t.answered, t.correct
            FROM class_members m JOIN users u ON u.id = m.user_id LEFT JOIN accommodations a ON a.student_id = m.user_id
            CROSS JOIN LATERAL (SELECT count(*) AS answered, count(*) FILTER (WHERE x.correct) AS correct
                                FROM answers x WHERE x.user_id = m.user_id) AS t
            WHERE m.class_id = \(classID) AND m.left_at IS NULL AND (\(student)::uuid IS NULL OR m.user_id = \(student))
            ORDER BY u.display_name \(fragment: collation.sql), m.user_id
            """ as SQL).prepared()
    }

    /// For each of the teacher's links for the class, the questions answered wrong most often
    /// in finished attempts (`missedPerAssignment` of them).
    private static func missedStatement(_ classID: UUID) -> SQL {
        ("""
            SELECT link_id, id, stem, wrong, answered FROM (
                SELECT s.share_link_id AS link_id, q.id, q.stem, count(*) FILTER (WHERE NOT a.correct) AS wrong, count(*) AS answered,
                       row_number() OVER (PARTITION BY s.share_link_id
                                          ORDER BY count(*) FILTER (WHERE NOT a.correct) DESC, count(*) DESC, q.id) AS place
                FROM share_links l JOIN study_sessions s ON s.share_link_id = l.id
                JOIN answers a ON a.session_id = s.id JOIN questions q ON q.id = a.question_id
                WHERE l.class_id = \(classID) AND l.created_by = (SELECT app_user_id()) AND s.finished_at IS NOT NULL
                GROUP BY s.share_link_id, q.id HAVING count(*) FILTER (WHERE NOT a.correct) > 0) AS ranked
            WHERE place <= \(missedPerAssignment) ORDER BY link_id, place
            """ as SQL).prepared()
    }

    /// Accuracy per current member (or `student` only) and domain, over everything they have answered.
    static func progressStatement(_ classID: UUID, _ collation: Collation, student: UUID? = nil) -> SQL {
        ("""
            SELECT u.display_name, e.title AS exam_title, e.language, w.domain_title, sum(w.answered)::bigint AS answered, sum(w.correct)::bigint AS correct
            FROM class_members m JOIN users u ON u.id = m.user_id
            JOIN domain_accuracy_weekly w ON w.user_id = m.user_id JOIN exams e ON e.id = w.exam_id
            WHERE m.class_id = \(classID) AND m.left_at IS NULL AND (\(student)::uuid IS NULL OR m.user_id = \(student))
            GROUP BY u.display_name, u.id, e.title, e.language, w.domain_title
            ORDER BY u.display_name \(fragment: collation.sql), e.title \(fragment: collation.sql), w.domain_title \(fragment: collation.sql)
            """ as SQL).prepared()
    }

    /// The class leaderboard, by the main board's rules (10 points per difficulty level for a
    /// right answer that counts (as `counted_answers` decides) in a finished session, a question at most
    /// once per student per UTC day of its arrival), over the current members only.
    private static func standingsStatement(_ classID: UUID, _ collation: Collation) -> SQL {
        ("""
            WITH members AS (SELECT m.user_id FROM class_members m WHERE m.class_id = \(classID) AND m.left_at IS NULL),
            final_answers AS (
                -- counted_answers' rule, over the members' answers only: joined to the view, the
                -- planner sorts every answer of every student before it filters.
                SELECT DISTINCT ON (a.session_id, a.question_id) a.session_id, a.user_id, a.question_id, a.correct, a.received_at
                FROM answers a JOIN study_sessions s ON s.id = a.session_id
                WHERE s.finished_at IS NOT NULL AND a.user_id IN (SELECT user_id FROM members)
                ORDER BY a.session_id, a.question_id,
                         CASE WHEN s.mode = 'mock' THEN a.received_at END DESC, CASE WHEN s.mode = 'mock' THEN a.answered_at END DESC,
                         CASE WHEN s.mode <> 'mock' THEN a.received_at END, CASE WHEN s.mode <> 'mock' THEN a.answered_at END, a.id
            ), points AS (
                SELECT user_id, sum(10 * difficulty)::bigint AS points
                FROM (SELECT DISTINCT f.user_id, f.question_id, (f.received_at AT TIME ZONE 'UTC')::date, q.difficulty
                      FROM final_answers f JOIN questions q ON q.id = f.question_id WHERE f.correct) AS scored
                GROUP BY user_id
            ), sessions AS (
                SELECT user_id, count(DISTINCT session_id) AS sessions FROM final_answers GROUP BY user_id
            )
            SELECT u.display_name, coalesce(p.points, 0)::bigint AS points, coalesce(s.sessions, 0) AS sessions
            FROM members m JOIN users u ON u.id = m.user_id
            LEFT JOIN points p ON p.user_id = m.user_id LEFT JOIN sessions s ON s.user_id = m.user_id
            ORDER BY points DESC, u.display_name \(fragment: collation.sql)
            """ as SQL).prepared()
    }
}
