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
        /// `gathered-exam`: every question of the catalogue moved into one exam;
        /// `student`: one registered student's history over several exams (`username`, `exams`).
        public var kind: String
        public var region: String?
        public var exam: String?
        /// For `student`: whose history it is (the account must exist) and its exams, as
        /// `region/slug`; the answers revisit questions, so there are fewer cards than answers.
        public var username: String?
        public var exams: [String]?
        public var cards: Int?
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
            switch preset.kind {
            case "history": return try history(preset, examID: try exam(preset.region, preset.exam, connection), connection)
            case "gathered-exam": return try gather(preset, examID: try exam(preset.region, preset.exam, connection), connection)
            case "student": return try student(preset, connection)
            default: throw PostgresError(kind: .invalidParameter, message: "unknown preset kind “\(preset.kind)” (history, gathered-exam or student)")
            }
        }
    }

    /// The id of the exam `region/slug`, or an error naming it.
    func exam(_ region: String?, _ slug: String?, _ connection: PostgresConnection) throws -> Int {
        guard let region, let slug else { throw PostgresError(kind: .invalidParameter, message: "the preset names no region and exam") }
        guard let id = try connection.query(("""
            SELECT e.id FROM exams e JOIN regions r ON r.id = e.region_id WHERE r.code = \(region) AND e.slug = \(slug)
            """ as SQL)).first?.decode("id", as: Int.self) else {
            throw PostgresError(kind: .invalidParameter, message: "there is no exam \(region)/\(slug); seed the catalogue first")
        }
        return id
    }

    /// A registered student's history: finished ten-question practice sessions taking the
    /// exams in turn over `days`, seven answers in ten right, revisiting questions so that
    /// `cards` distinct questions are answered. Review cards are left to `portal rebuild-cards`,
    /// which derives them from these answers as it would from real ones.
    func student(_ preset: Preset, _ connection: PostgresConnection) throws -> String {
        guard let username = preset.username else { throw PostgresError(kind: .invalidParameter, message: "the student preset names no username") }
        guard let userID = try connection.query(("SELECT id FROM users WHERE username = \(username)" as SQL)).first?.decode("id", as: UUID.self) else {
            throw PostgresError(kind: .invalidParameter, message: "there is no account “\(username)”; register it first")
        }
        let examIDs = try (preset.exams ?? []).map { name in
            let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
            return try exam(parts.first, parts.count == 2 ? parts[1] : nil, connection)
        }
        guard !examIDs.isEmpty else { throw PostgresError(kind: .invalidParameter, message: "the student preset names no exams") }
        let answers = max(10, preset.answers ?? 2_000) / 10 * 10, days = max(1, preset.days ?? 60)
        let perExam = max(1, (preset.cards ?? 1_500) / examIDs.count)
        let tables = ["study_sessions", "answers"].compactMap(PostgresIdentifier.init)
        for table in tables {
            try connection.execute("ALTER TABLE \(identifier: table) NO FORCE ROW LEVEL SECURITY")
        }
        try connection.execute("ALTER TABLE study_sessions DISABLE TRIGGER study_sessions_admit")
        try connection.execute("ALTER TABLE answers DISABLE TRIGGER answers_admit")
        // Each exam's published questions, numbered from 0; a session of exam x takes the
        // next ten of its numbers, wrapping at `perExam`.
        try connection.execute("CREATE TEMP TABLE synthetic_pool (exam_index int NOT NULL, n int NOT NULL, id uuid NOT NULL, PRIMARY KEY (exam_index, n)) ON COMMIT DROP")
        try connection.execute(("""
            INSERT INTO synthetic_pool (exam_index, n, id)
            SELECT x.i - 1, row_number() OVER (PARTITION BY x.i ORDER BY q.id) - 1, q.id
            FROM unnest(\(examIDs)::int[]) WITH ORDINALITY AS x (exam_id, i)
            JOIN domains d ON d.exam_id = x.exam_id
            JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL AND NOT q.exam_only
            """ as SQL))
        let sessions = answers / 10, count = examIDs.count
        try connection.execute(("""
            CREATE TEMP TABLE synthetic_answers ON COMMIT DROP AS
            SELECT md5(\(username) || ':a' || a)::uuid AS id, md5(\(username) || ':s' || s)::uuid AS session_id, p.id AS question_id,
                   s % \(count) AS exam_index, (a * 7) % 10 < 7 AS correct,
                   now() - ((\(sessions) - s) * \(days) * interval '1 day') / \(sessions) + j * interval '40 seconds' AS at
            FROM generate_series(0, \(sessions) - 1) AS s
            CROSS JOIN generate_series(0, 9) AS j
            CROSS JOIN LATERAL (SELECT s * 10 + j AS a) AS numbered
            JOIN synthetic_pool p ON p.exam_index = s % \(count)
                 AND p.n = ((s / \(count)) * 10 + j) % least(\(perExam), (SELECT count(*) FROM synthetic_pool WHERE exam_index = s % \(count)))
            """ as SQL))
        try connection.execute(("""
            INSERT INTO study_sessions (id, user_id, exam_id, mode, question_ids, started_at, finished_at, score_correct, score_percent, passed)
            SELECT session_id, \(userID), (\(examIDs)::int[])[exam_index + 1], 'practice', array_agg(question_id ORDER BY at),
                   min(at) - interval '10 seconds', max(at) + interval '10 seconds', count(*) FILTER (WHERE correct),
                   100 * count(*) FILTER (WHERE correct) / count(*), 100 * count(*) FILTER (WHERE correct) / count(*) >= 70
            FROM synthetic_answers GROUP BY session_id, exam_index
            """ as SQL))
        try connection.execute(("""
            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at, received_at, difficulty)
            SELECT a.id, a.session_id, \(userID), a.question_id, q.version, '[0]', a.correct, CASE WHEN a.correct THEN 1 ELSE 0 END,
                   CASE WHEN a.correct THEN 3 ELSE 1 END, 20000, a.at, a.at, q.difficulty
            FROM synthetic_answers a JOIN questions q ON q.id = a.question_id
            """ as SQL))
        try connection.execute("ALTER TABLE study_sessions ENABLE TRIGGER study_sessions_admit")
        try connection.execute("ALTER TABLE answers ENABLE TRIGGER answers_admit")
        for table in tables {
            try connection.execute("ALTER TABLE \(identifier: table) FORCE ROW LEVEL SECURITY")
            try connection.execute("ANALYZE \(identifier: table)")
        }
        let distinct = try connection.query("SELECT count(DISTINCT question_id) AS n FROM synthetic_answers").single().decode("n", as: Int.self)
        return "\(username): \(sessions) finished sessions, \(answers) answers on \(distinct) questions of \(count) exams over \(days) days"
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
        // sessions, the database's clock) stand aside for this transaction, and so do the
        // data-version bumps (each student's version is set once at the end).
        try connection.execute("ALTER TABLE study_sessions DISABLE TRIGGER study_sessions_admit")
        try connection.execute("ALTER TABLE answers DISABLE TRIGGER answers_admit")
        try connection.execute("ALTER TABLE study_sessions DISABLE TRIGGER study_sessions_data_version")
        try connection.execute("ALTER TABLE answers DISABLE TRIGGER answers_data_version")
        // Nor do the cards (nor the answers' data-version bump, which comes with them): a
        // synthetic history has none (a student's are rebuilt from their answers by `portal
        // rebuild-cards`), and scheduling a million in one statement would take an advisory
        // lock per card (review_card_apply), more than one transaction may hold.
        try connection.execute("ALTER TABLE answers DISABLE TRIGGER answers_schedule")
        try connection.execute("CREATE TEMP TABLE synthetic_pool (id uuid NOT NULL, difficulty smallint NOT NULL, n bigint PRIMARY KEY) ON COMMIT DROP")
        try connection.execute(("""
            INSERT INTO synthetic_pool (id, difficulty, n)
            SELECT q.id, q.difficulty, row_number() OVER (ORDER BY q.id) FROM questions q JOIN domains d ON d.id = q.domain_id
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
            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at, received_at, difficulty)
            SELECT md5('a' || a)::uuid, md5('s' || (a / 10))::uuid, md5('u' || (1 + (a / 10) % \(students)))::uuid,
                   p.id, 1, '[0]', (a % 3) <> 0, 1, 3, 5000, now() - ((a / 10) % \(days)) * interval '1 day' - interval '30 minutes',
                   now() - ((a / 10) % \(days)) * interval '1 day' - interval '30 minutes', p.difficulty
            FROM generate_series(0::bigint, \(answers / 10 * 10) - 1) AS a
            JOIN synthetic_pool p ON p.n = 1 + (a * 7919) % (SELECT count(*) FROM synthetic_pool)
            """ as SQL))
        try connection.execute("ALTER TABLE study_sessions ENABLE TRIGGER study_sessions_admit")
        try connection.execute("ALTER TABLE answers ENABLE TRIGGER answers_admit")
        try connection.execute("ALTER TABLE study_sessions ENABLE TRIGGER study_sessions_data_version")
        try connection.execute("ALTER TABLE answers ENABLE TRIGGER answers_data_version")
        try connection.execute("ALTER TABLE answers ENABLE TRIGGER answers_schedule")
        try connection.execute(("UPDATE users SET data_version = pg_current_xact_id()::text::bigint WHERE username ~ '^bench[0-9]+$'" as SQL))
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
        return "\(count) questions in \(preset.region ?? "")/\(preset.exam ?? "")"
    }
}
