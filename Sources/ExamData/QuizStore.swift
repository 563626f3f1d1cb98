import Foundation
import PostgresClient
import QuestionEngine

/// A teacher's quiz as their list shows it.
public struct QuizSummary: Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var examTitle: String
    public var examLanguage: String
    public var questions: Int
    public var createdAt: Date
}

/// A quiz with its questions in order.
public struct Quiz: Sendable, Equatable {
    /// A question of the quiz (or one found to add to it).
    public struct Item: Sendable, Equatable {
        public var id: UUID
        public var stem: String
        public var domainTitle: String
        public var kind: String
        public var difficulty: Int
        /// The share of students answering it right in their first whole mock; nil until ten have.
        public var facility: Double?
        /// No longer published (retired, or deleted): kept in the quiz, left out of what pupils
        /// get; its text is no longer the teacher's to read (empty).
        public var retired: Bool
    }

    public var id: UUID
    public var title: String
    public var examID: Int
    public var examTitle: String
    public var examLanguage: String
    public var regionCode: String
    public var examSlug: String
    public var items: [Item]

    /// The questions pupils get: the published ones.
    public var liveCount: Int { items.filter { !$0.retired }.count }
}

/// What a search of an exam's published questions asks for; empty parts ask for everything.
public struct QuestionSearch: Sendable, Equatable {
    public var text: String
    public var domain: String?
    public var kind: String?
    public var difficulty: Int?
    public var facility: Facility?

    /// How often students answer a question right (its facility), in the bands a teacher picks from.
    public enum Facility: String, Sendable, CaseIterable {
        /// Most get it right: 80% or more.
        case easy
        /// From 40% to 80%.
        case middling
        /// Fewer than 40% get it right.
        case hard
        /// Too few first mocks (fewer than ten) to say.
        case unmeasured

        /// The band as a fraction right, lower bound inclusive; nil for `unmeasured`.
        var bounds: (lower: Double, upper: Double)? {
            switch self {
            case .easy: (0.8, 2)
            case .middling: (0.4, 0.8)
            case .hard: (0, 0.4)
            case .unmeasured: nil
            }
        }
    }

    public init(text: String = "", domain: String? = nil, kind: String? = nil, difficulty: Int? = nil, facility: Facility? = nil) {
        (self.text, self.domain, self.kind, self.difficulty, self.facility) = (text, domain, kind, difficulty, facility)
    }
}

/// Quizzes of chosen questions: a teacher's own, under row-level security (`quizzes_owner`,
/// `quiz_questions_owner`); a question joins a quiz only if it is a published question of the
/// quiz's exam (`quiz_questions_check`). Pupils reach a quiz only through an assignment
/// (`quiz_questions_of_link`).
public struct QuizStore: Sendable {
    public init() {}

    public func create(examID: Int, title: String, at date: Date, _ connection: PostgresConnection) throws -> UUID {
        try connection.query(("""
            INSERT INTO quizzes (teacher_id, exam_id, title, created_at) VALUES ((SELECT app_user_id()), \(examID), \(title), \(date)) RETURNING id
            """ as SQL).prepared()).single().decode("id", as: UUID.self)
    }

    /// The caller's quizzes, newest first.
    public func quizzes(_ connection: PostgresConnection) throws -> [QuizSummary] {
        try connection.query(("""
            SELECT z.id, z.title, e.title AS exam_title, e.language, z.created_at,
                   (SELECT count(*) FROM quiz_questions qq WHERE qq.quiz_id = z.id) AS questions
            FROM quizzes z JOIN exams e ON e.id = z.exam_id
            WHERE z.teacher_id = (SELECT app_user_id()) ORDER BY z.created_at DESC, z.id
            """ as SQL).prepared()).rows.map { row in
            QuizSummary(
                id: try row.decode("id", as: UUID.self), title: try row.decode("title", as: String.self),
                examTitle: try row.decode("exam_title", as: String.self), examLanguage: try row.decode("language", as: String.self),
                questions: try row.decode("questions", as: Int.self), createdAt: try row.decode("created_at", as: Date.self))
        }
    }

    /// One of the caller's quizzes with its questions in order; nil for anyone else's.
    public func quiz(_ id: UUID, _ connection: PostgresConnection) throws -> Quiz? {
        guard let row = try connection.query(("""
            SELECT z.id, z.title, z.exam_id, e.title AS exam_title, e.language, e.slug, r.code
            FROM quizzes z JOIN exams e ON e.id = z.exam_id JOIN regions r ON r.id = e.region_id
            WHERE z.id = \(id) AND z.teacher_id = (SELECT app_user_id())
            """ as SQL).prepared()).first else { return nil }
        // A question retired since is not the teacher's to read any more: it comes as its id alone.
        let items = try connection.query(("""
            SELECT qq.question_id AS id, q.stem, d.title AS domain_title, q.type, q.difficulty, f.facility,
                   (q.id IS NULL OR q.status <> 'published' OR q.deleted_at IS NOT NULL) AS retired
            FROM quiz_questions qq LEFT JOIN questions q ON q.id = qq.question_id LEFT JOIN domains d ON d.id = q.domain_id
            LEFT JOIN question_facilities(\(try row.decode("exam_id", as: Int.self))) f ON f.question_id = qq.question_id
            WHERE qq.quiz_id = \(id) ORDER BY qq.position, qq.question_id
            """ as SQL).prepared()).rows.map(Self.item)
        return Quiz(
            id: try row.decode("id", as: UUID.self), title: try row.decode("title", as: String.self), examID: try row.decode("exam_id", as: Int.self),
            examTitle: try row.decode("exam_title", as: String.self), examLanguage: try row.decode("language", as: String.self),
            regionCode: try row.decode("code", as: String.self), examSlug: try row.decode("slug", as: String.self), items: items)
    }

    /// Published questions of `examID` that `search` matches and the quiz does not hold yet, by
    /// domain and stem; `limit` at most.
    public func search(examID: Int, _ search: QuestionSearch, excludingQuiz quizID: UUID, limit: Int, _ connection: PostgresConnection) throws -> [Quiz.Item] {
        let pattern = search.text.isEmpty ? nil : "%" + Self.likeEscaped(search.text) + "%"
        let band = search.facility?.bounds
        return try connection.query(("""
            SELECT \(fragment: Self.itemColumns) FROM questions q JOIN domains d ON d.id = q.domain_id
            LEFT JOIN question_facilities(\(examID)) f ON f.question_id = q.id
            WHERE d.exam_id = \(examID) AND q.status = 'published' AND q.deleted_at IS NULL
              AND (\(pattern)::text IS NULL OR q.stem ILIKE \(pattern))
              AND (\(search.domain)::text IS NULL OR d.slug = \(search.domain))
              AND (\(search.kind)::text IS NULL OR q.type = \(search.kind))
              AND (\(search.difficulty)::integer IS NULL OR q.difficulty = \(search.difficulty))
              AND (\(search.facility != .unmeasured) OR f.facility IS NULL)
              AND (\(band?.lower)::double precision IS NULL OR (f.facility >= \(band?.lower) AND f.facility < \(band?.upper)))
              AND NOT EXISTS (SELECT 1 FROM quiz_questions qq WHERE qq.quiz_id = \(quizID) AND qq.question_id = q.id)
            ORDER BY d.id, q.stem, q.id LIMIT \(limit)
            """ as SQL).prepared()).rows.map(Self.item)
    }

    /// Adds a question at the end; false when the quiz held it already. A question that is not a
    /// published one of the quiz's exam is the trigger's `check_violation`.
    public func add(question: UUID, to quizID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("""
            INSERT INTO quiz_questions (quiz_id, question_id, position)
            SELECT \(quizID), \(question), coalesce((SELECT max(position) + 1 FROM quiz_questions WHERE quiz_id = \(quizID)), 0)
            ON CONFLICT (quiz_id, question_id) DO NOTHING
            """ as SQL).prepared()) == 1
    }

    public func remove(question: UUID, from quizID: UUID, _ connection: PostgresConnection) throws {
        try connection.execute(("DELETE FROM quiz_questions WHERE quiz_id = \(quizID) AND question_id = \(question)" as SQL).prepared())
    }

    /// Swaps a question with the one before it (`earlier`) or after it; nothing at either end.
    public func move(question: UUID, in quizID: UUID, earlier: Bool, _ connection: PostgresConnection) throws {
        try connection.execute(("""
            WITH me AS (SELECT position FROM quiz_questions WHERE quiz_id = \(quizID) AND question_id = \(question)),
            other AS (SELECT qq.question_id, qq.position FROM quiz_questions qq, me
                      WHERE qq.quiz_id = \(quizID)
                        AND CASE WHEN \(earlier) THEN qq.position < me.position ELSE qq.position > me.position END
                      ORDER BY CASE WHEN \(earlier) THEN -qq.position ELSE qq.position END LIMIT 1)
            UPDATE quiz_questions qq SET position = CASE WHEN qq.question_id = \(question) THEN (SELECT position FROM other)
                                                         ELSE (SELECT position FROM me) END
            WHERE qq.quiz_id = \(quizID) AND EXISTS (SELECT 1 FROM other)
              AND (qq.question_id = \(question) OR qq.question_id = (SELECT question_id FROM other))
            """ as SQL).prepared())
    }

    public func rename(_ quizID: UUID, title: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("UPDATE quizzes SET title = \(title) WHERE id = \(quizID)" as SQL).prepared()) == 1
    }

    static let itemColumns: SQL = """
        q.id, q.stem, d.title AS domain_title, q.type, q.difficulty, f.facility, false AS retired
        """

    static func item(_ row: PostgresRow) throws -> Quiz.Item {
        Quiz.Item(
            id: try row.decode("id", as: UUID.self), stem: try row.decode("stem", as: String?.self) ?? "",
            domainTitle: try row.decode("domain_title", as: String?.self) ?? "", kind: try row.decode("type", as: String?.self) ?? "",
            difficulty: try row.decode("difficulty", as: Int?.self) ?? 0, facility: try row.decode("facility", as: Double?.self), retired: try row.decode("retired", as: Bool.self))
    }

    /// `text` as a LIKE pattern's literal part.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
