import Foundation
import PostgresClient

/// Everything the portal keeps about the signed-in student, as they may take it away (GDPR
/// articles 15 and 20): each part one JSON array, read in one flight as the student themselves
/// (their own rows only, never a classmate's), with the two things row-level security keeps
/// from them handed over by definer functions that answer about the caller alone.
public struct PersonalDataExport: Sendable {
    public init() {}

    /// The parts, by file name (without `.json`), in the order the archive lists them.
    public static let parts: [(name: String, sql: SQL)] = [
        ("account", """
            SELECT coalesce(json_agg(x), '[]')::text AS data FROM (
                SELECT username, display_name, role, locale, time_zone, show_on_leaderboard, desired_retention::float8 AS desired_retention
                FROM users WHERE id = (SELECT app_user_id())) x
            """),
        ("sign-ins", """
            SELECT coalesce(json_agg(x ORDER BY x.created_at), '[]')::text AS data FROM (
                SELECT created_at, last_seen_at, user_agent FROM auth_sessions WHERE user_id = (SELECT app_user_id())) x
            """),
        ("study-sessions", """
            SELECT coalesce(json_agg(to_jsonb(s) - 'user_id' - 'guest_key' || jsonb_build_object('exam', e.title) ORDER BY s.started_at), '[]')::text AS data
            FROM study_sessions s JOIN exams e ON e.id = s.exam_id WHERE s.user_id = (SELECT app_user_id())
            """),
        ("answers", """
            SELECT coalesce(json_agg(to_jsonb(a) - 'user_id' || jsonb_build_object('question_text', t.stem) ORDER BY a.answered_at), '[]')::text AS data
            FROM answers a LEFT JOIN my_answered_questions() t ON t.question_id = a.question_id AND t.version = a.question_version
            WHERE a.user_id = (SELECT app_user_id())
            """),
        ("review-cards", """
            SELECT coalesce(json_agg(to_jsonb(c) - 'user_id' ORDER BY c.due), '[]')::text AS data
            FROM review_cards c WHERE c.user_id = (SELECT app_user_id())
            """),
        ("fitted-weights", """
            SELECT coalesce(json_agg(to_jsonb(w) - 'user_id'), '[]')::text AS data FROM fsrs_weights w WHERE w.user_id = (SELECT app_user_id())
            """),
        ("exam-dates", """
            SELECT coalesce(json_agg(to_jsonb(d) - 'user_id' || jsonb_build_object('exam', e.title)), '[]')::text AS data
            FROM exam_dates d JOIN exams e ON e.id = d.exam_id WHERE d.user_id = (SELECT app_user_id())
            """),
        ("classes", """
            SELECT coalesce(json_agg(jsonb_build_object('class', c.name, 'joined_at', m.joined_at, 'left_at', m.left_at) ORDER BY m.joined_at), '[]')::text AS data
            FROM class_members m JOIN classes c ON c.id = m.class_id WHERE m.user_id = (SELECT app_user_id())
            """),
        ("extra-time", """
            SELECT coalesce(json_agg(to_jsonb(a) - 'student_id' - 'set_by'), '[]')::text AS data
            FROM accommodations a WHERE a.student_id = (SELECT app_user_id())
            """),
        ("live-events", """
            SELECT coalesce(json_agg(to_jsonb(p) - 'user_id' - 'guest_key' || jsonb_build_object('answers',
                (SELECT coalesce(jsonb_agg(to_jsonb(l) - 'participant_id'), '[]') FROM live_answers l WHERE l.participant_id = p.id))), '[]')::text AS data
            FROM live_participants p WHERE p.user_id = (SELECT app_user_id())
            """),
        ("question-reports", """
            SELECT coalesce(json_agg(to_jsonb(r) - 'user_id'), '[]')::text AS data FROM question_reports r WHERE r.user_id = (SELECT app_user_id())
            """),
        ("school-sign-ins", """
            SELECT coalesce(json_agg(jsonb_build_object('kind', i.kind, 'issuer', i.issuer, 'subject', i.subject, 'linked_at', i.created_at,
                                                        'last_used_at', i.last_used_at)), '[]')::text AS data
            FROM external_identities i WHERE i.user_id = (SELECT app_user_id())
            """),
        ("audit-log", "SELECT coalesce(json_agg(x), '[]')::text AS data FROM my_audit_entries() x"),
    ]

    /// The parts a spreadsheet is opened on, as tables of text (a header row first), by file
    /// name (without `.csv`).
    public static let tables: [(name: String, sql: SQL)] = [
        ("answers", """
            SELECT a.answered_at::text AS answered_at, e.title AS exam, t.stem AS question, a.response::text AS response,
                   a.correct::text AS correct, a.score::text AS score, a.time_ms::text AS time_ms, a.question_id::text AS question_id,
                   a.question_version::text AS question_version, a.session_id::text AS session_id
            FROM answers a JOIN study_sessions s ON s.id = a.session_id JOIN exams e ON e.id = s.exam_id
            LEFT JOIN my_answered_questions() t ON t.question_id = a.question_id AND t.version = a.question_version
            WHERE a.user_id = (SELECT app_user_id()) ORDER BY a.answered_at
            """),
        ("study-sessions", """
            SELECT s.started_at::text AS started_at, s.finished_at::text AS finished_at, e.title AS exam, s.mode,
                   cardinality(s.question_ids)::text AS questions, s.score_correct::text AS correct, s.score_percent::text AS percent,
                   s.passed::text AS passed, s.id::text AS session_id
            FROM study_sessions s JOIN exams e ON e.id = s.exam_id WHERE s.user_id = (SELECT app_user_id()) ORDER BY s.started_at
            """),
    ]

    /// What one export holds: each part's JSON text (an array) and each table's rows.
    public struct Contents: Sendable {
        public var parts: [(name: String, json: String)]
        public var tables: [(name: String, rows: [[String]])]
    }

    /// Everything, read in one flight as the caller; nil for nobody signed in.
    public func read(_ statements: ([SQL]) throws -> [QueryResult]) throws -> Contents? {
        let results = try statements(Self.parts.map(\.sql) + Self.tables.map(\.sql))
        let texts = try results.prefix(Self.parts.count).map { try $0.first?.decode("data", as: String.self) ?? "[]" }
        guard let account = texts.first, account != "[]" else { return nil }
        let tables = try zip(Self.tables, results.dropFirst(Self.parts.count)).map { table, result in
            (table.name, [result.columns] + (try result.rows.map { row in try result.columns.map { try row.decode($0, as: String?.self) ?? "" } }))
        }
        return Contents(parts: zip(Self.parts, texts).map { ($0.name, $1) }, tables: tables)
    }
}
