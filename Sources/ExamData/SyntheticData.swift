import Foundation
import PostgresClient

/// Synthetic load for benchmarks (`portal gen-data PRESET`, presets in `Benchmarks/presets/`).
/// It writes as the owner role on a database made for the benchmark — never on one students
/// use: it lifts row-level security on the tables it fills for the length of its own
/// transaction (the owner may; `FORCE` is back before it commits) and takes their locks.
public struct SyntheticData: Sendable {
    /// What a preset asks for.
    public struct Preset: Codable, Sendable, Equatable {
        /// `history`: students with finished practice sessions spread over `days`;
        /// `gathered-exam`: every question of the catalogue moved into one exam.
        public var kind: String
        public var region: String
        public var exam: String
        public var students: Int?
        public var answers: Int?
        public var days: Int?
        /// For `gathered-exam`: questions written an hour ago and the exam's version half an
        /// hour ago, outside the change feed's overlap, as content usually is.
        public var backdate: Bool?
    }

    public init() {}

    /// Carries out a preset; returns a line saying what was made.
    public func generate(_ preset: Preset, _ connection: PostgresConnection) throws -> String {
        try connection.withTransaction { connection in
            guard let examID = try connection.query(("""
                SELECT e.id FROM exams e JOIN regions r ON r.id = e.region_id WHERE r.code = \(preset.region) AND e.slug = \(preset.exam)
                """ as SQL)).first?.decode("id", as: Int.self) else {
                throw PostgresError(kind: .invalidParameter, message: "there is no exam \(preset.region)/\(preset.exam); seed the catalogue first")
            }
            switch preset.kind {
            case "history": return try history(preset, examID: examID, connection)
            case "gathered-exam": return try gather(preset, examID: examID, connection)
            default: throw PostgresError(kind: .invalidParameter, message: "unknown preset kind “\(preset.kind)” (history or gathered-exam)")
            }
        }
    }

    /// Students named `bench1…`, each with finished ten-question practice sessions of the exam;
    /// every answer a real question of it, a third of them wrong. Ids derive from the numbers,
    /// so the same preset on a fresh database makes the same rows.
    func history(_ preset: Preset, examID: Int, _ connection: PostgresConnection) throws -> String {
        let students = max(1, preset.students ?? 10_000), answers = max(10, preset.answers ?? 1_000_000), days = max(1, preset.days ?? 30)
        let tables = ["users", "study_sessions", "answers"].compactMap(PostgresIdentifier.init)
        for table in tables {
            try connection.execute("ALTER TABLE \(identifier: table) NO FORCE ROW LEVEL SECURITY")
        }
        // History being written: the triggers that admit a live session's answers (open
        // sessions, the database's clock) stand aside for this transaction.
        try connection.execute("ALTER TABLE study_sessions DISABLE TRIGGER study_sessions_admit")
        try connection.execute("ALTER TABLE answers DISABLE TRIGGER answers_admit")
        try connection.execute("CREATE TEMP TABLE synthetic_pool (id uuid NOT NULL, n bigint PRIMARY KEY) ON COMMIT DROP")
        try connection.execute(("""
            INSERT INTO synthetic_pool (id, n)
            SELECT q.id, row_number() OVER (ORDER BY q.id) FROM questions q JOIN domains d ON d.id = q.domain_id
            WHERE d.exam_id = \(examID) AND q.status = 'published' AND q.deleted_at IS NULL
            """ as SQL))
        try connection.execute(("""
            INSERT INTO users (id, username, display_name, password_hash, show_on_leaderboard)
            SELECT md5('u' || i)::uuid, 'bench' || i, 'Student ' || i, '$argon2id$synthetic', true FROM generate_series(1, \(students)) AS i
            """ as SQL))
        try connection.execute(("""
            INSERT INTO study_sessions (id, user_id, exam_id, mode, question_ids, started_at, finished_at, score_correct, score_percent, passed)
            SELECT md5('s' || s)::uuid, md5('u' || (1 + s % \(students)))::uuid, \(examID), 'practice', ARRAY[md5('q')::uuid],
                   now() - (s % \(days)) * interval '1 day' - interval '1 hour', now() - (s % \(days)) * interval '1 day', 0, 0, false
            FROM generate_series(0, \(answers / 10) - 1) AS s
            """ as SQL))
        try connection.execute(("""
            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at, received_at)
            SELECT md5('a' || a)::uuid, md5('s' || (a / 10))::uuid, md5('u' || (1 + (a / 10) % \(students)))::uuid,
                   p.id, 1, '[0]', (a % 3) <> 0, 1, 3, 5000, now() - ((a / 10) % \(days)) * interval '1 day' - interval '30 minutes',
                   now() - ((a / 10) % \(days)) * interval '1 day' - interval '30 minutes'
            FROM generate_series(0::bigint, \(answers / 10 * 10) - 1) AS a
            JOIN synthetic_pool p ON p.n = 1 + (a * 7919) % (SELECT count(*) FROM synthetic_pool)
            """ as SQL))
        try connection.execute("ALTER TABLE study_sessions ENABLE TRIGGER study_sessions_admit")
        try connection.execute("ALTER TABLE answers ENABLE TRIGGER answers_admit")
        for table in tables {
            try connection.execute("ALTER TABLE \(identifier: table) FORCE ROW LEVEL SECURITY")
            try connection.execute("ANALYZE \(identifier: table)")
        }
        return "\(students) students, \(answers / 10) finished sessions, \(answers / 10 * 10) answers over \(days) days"
    }

    /// Every question of the catalogue moved into this exam's domains (spread by id).
    func gather(_ preset: Preset, examID: Int, _ connection: PostgresConnection) throws -> String {
        try connection.execute(("""
            UPDATE questions SET domain_id = d.ids[1 + abs(hashtext(questions.id::text)) % array_length(d.ids, 1)]
            FROM (SELECT array_agg(id ORDER BY id) AS ids FROM domains WHERE exam_id = \(examID)) d
            """ as SQL))
        if preset.backdate ?? false {
            // The version and update triggers would stamp "now": this is history being written.
            try connection.execute("ALTER TABLE questions DISABLE TRIGGER USER")
            try connection.execute("UPDATE questions SET updated_at = now() - interval '1 hour'")
            try connection.execute("ALTER TABLE questions ENABLE TRIGGER USER")
            try connection.execute(("UPDATE exams SET content_updated_at = now() - interval '30 minutes' WHERE id = \(examID)" as SQL))
        }
        let count = try connection.query(("""
            SELECT count(*) AS n FROM questions q JOIN domains d ON d.id = q.domain_id WHERE d.exam_id = \(examID)
            """ as SQL)).first?.decode("n", as: Int.self) ?? 0
        return "\(count) questions in \(preset.region)/\(preset.exam)"
    }
}
