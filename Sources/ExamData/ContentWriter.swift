import Foundation
import PostgresClient
import QuestionEngine

/// A question to store, keyed by `sourceKey` so that loading the same content twice adds nothing.
public struct NewQuestion: Sendable, Codable, Equatable {
    public var sourceKey: String
    public var type: QuestionKind
    public var stem: String
    public var code: String?
    public var codeLanguage: String?
    public var options: [QuestionOption]
    public var correct: [Int]
    public var details: QuestionDetails
    public var explanation: String
    public var difficulty: Int
    public var status: String

    public init(
        sourceKey: String, type: QuestionKind, stem: String, code: String? = nil, codeLanguage: String? = nil,
        options: [QuestionOption], correct: [Int], details: QuestionDetails = .none, explanation: String, difficulty: Int, status: String = "published"
    ) {
        self.details = details
        self.sourceKey = sourceKey
        self.type = type
        self.stem = stem
        self.code = code
        self.codeLanguage = codeLanguage
        self.options = options
        self.correct = correct
        self.explanation = explanation
        self.difficulty = difficulty
        self.status = status
    }
}

/// Writing content: regions, exams, domains and questions, each insert idempotent by its
/// natural key (region code, exam slug, domain slug, question source key).
public struct ContentWriter: Sendable {
    public init() {}

    /// The region's id, inserting it when new.
    public func region(code: String, name: String, position: Int, _ connection: PostgresConnection) throws -> Int {
        try connection.execute("""
            INSERT INTO regions (code, name, position) VALUES (\(code), \(name), \(position)) ON CONFLICT (code) DO NOTHING
            """)
        return try connection.query("SELECT id FROM regions WHERE code = \(code)").single().decode("id", as: Int.self)
    }

    /// The exam's id, inserting it when new.
    public func exam(
        regionID: Int, slug: String, title: String, description: String, language: String, passMark: Int,
        timeLimitSeconds: Int, questionCount: Int, _ connection: PostgresConnection
    ) throws -> Int {
        try connection.execute("""
            INSERT INTO exams (region_id, slug, title, description, language, pass_mark, time_limit_s, question_count)
            VALUES (\(regionID), \(slug), \(title), \(description), \(language), \(passMark), \(timeLimitSeconds), \(questionCount))
            ON CONFLICT (region_id, slug) DO NOTHING
            """)
        return try connection.query("SELECT id FROM exams WHERE region_id = \(regionID) AND slug = \(slug)").single().decode("id", as: Int.self)
    }

    /// The domain's id, inserting it when new.
    public func domain(examID: Int, slug: String, title: String, weight: Int, _ connection: PostgresConnection) throws -> Int {
        try connection.execute("""
            INSERT INTO domains (exam_id, slug, title, weight) VALUES (\(examID), \(slug), \(title), \(weight))
            ON CONFLICT (exam_id, slug) DO NOTHING
            """)
        return try connection.query("SELECT id FROM domains WHERE exam_id = \(examID) AND slug = \(slug)").single().decode("id", as: Int.self)
    }

    /// Inserts the questions not stored yet (by source key) in one statement; returns how many were new.
    @discardableResult
    public func insertQuestions(domainID: Int, _ questions: [NewQuestion], _ connection: PostgresConnection) throws -> Int {
        guard !questions.isEmpty else { return 0 }
        let batch = try PostgresJSON(encoding: questions)
        return try connection.execute("""
            INSERT INTO questions (domain_id, source_key, type, stem, code, code_language, options, correct, details, explanation, difficulty, status)
            SELECT \(domainID), q."sourceKey", q.type, q.stem, q.code, q."codeLanguage", q.options, q.correct, q.details, q.explanation, q.difficulty, q.status
            FROM jsonb_to_recordset(\(batch)::jsonb) AS q("sourceKey" text, type text, stem text, code text, "codeLanguage" text,
                                                         options jsonb, correct jsonb, details jsonb, explanation text, difficulty integer, status text)
            ON CONFLICT (source_key) DO NOTHING
            """)
    }

    /// Whether the catalogue holds no exam at all (a fresh database, to be seeded).
    public func isEmpty(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT NOT EXISTS (SELECT 1 FROM exams) AS empty").single().decode("empty", as: Bool.self)
    }
}
