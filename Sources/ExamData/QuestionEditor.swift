import Foundation
import PostgresClient
import QuestionEngine

/// A question as the editor reads and writes it (any status, by id).
public struct EditableQuestion: Sendable, Equatable {
    public var id: UUID?
    public var domainID: Int
    public var type: QuestionKind
    public var stem: String
    public var code: String?
    public var codeLanguage: String?
    public var options: [QuestionOption]
    public var correct: [Int]
    /// The kind's own data (targets, accepted answers, the hotspot image).
    public var details: QuestionDetails
    public var explanation: String
    public var difficulty: Int
    public var status: String
    public var version: Int
    /// Kept for mock exams and live events: never in a bundle, a change feed or practice.
    public var examOnly: Bool
    /// The stem, the explanation and the options' texts and explanations are markdown (stored
    /// as trees, `QuestionTexts`), not plain text.
    public var markdown: Bool

    public init(
        id: UUID?, domainID: Int, type: QuestionKind, stem: String, code: String?, codeLanguage: String?, options: [QuestionOption],
        correct: [Int], details: QuestionDetails = .none, explanation: String, difficulty: Int, status: String, version: Int, examOnly: Bool = false,
        markdown: Bool = false
    ) {
        self.markdown = markdown
        self.details = details
        self.id = id
        self.domainID = domainID
        self.type = type
        self.stem = stem
        self.code = code
        self.codeLanguage = codeLanguage
        self.options = options
        self.correct = correct
        self.explanation = explanation
        self.difficulty = difficulty
        self.status = status
        self.version = version
        self.examOnly = examOnly
    }
}

extension EditableQuestion {
    /// The question as a student would see it, for the editor's preview: its markdown read
    /// into trees as a save would, nothing stored.
    public func shown() throws(QuestionTexts.Problem) -> Question {
        var question = Question(
            id: id ?? UUID(), domainSlug: "", kind: type, stem: stem, code: code, codeLanguage: codeLanguage, options: options, correct: correct,
            details: details, explanation: explanation, difficulty: difficulty, version: version)
        if markdown {
            let read = try QuestionTexts.read(stem: stem, explanation: explanation, options: options)
            (question.stem, question.explanation, question.options, question.texts) = (read.stem, read.explanation, read.options, read.texts)
        }
        return question
    }
}

/// Reading and writing single questions for the admin editor. The database's CHECK has the
/// last word on the shape; the caller validates first with the same rules to say what is wrong.
/// An edit that changes anything makes a new version and bumps the exam's content version.
public struct QuestionEditor: Sendable {
    public init() {}

    public func question(id: UUID, _ connection: PostgresConnection) throws -> EditableQuestion? {
        guard let row = try connection.query(("""
            SELECT id, domain_id, type, stem, rich, code, code_language, options, correct, details, explanation, difficulty, status, version, exam_only
            FROM questions WHERE id = \(id) AND deleted_at IS NULL
            """ as SQL).prepared()).first else { return nil }
        var question = EditableQuestion(
            id: try row.decode("id", as: UUID.self), domainID: try row.decode("domain_id", as: Int.self),
            type: try Question.kind(row.decode("type", as: String.self)), stem: try row.decode("stem", as: String.self),
            code: try row.decode("code", as: String?.self), codeLanguage: try row.decode("code_language", as: String?.self),
            options: try row.decodeJSON("options", as: [QuestionOption].self), correct: try row.decodeJSON("correct", as: [Int].self),
            details: try row.decodeJSON("details", as: QuestionDetails.self), explanation: try row.decode("explanation", as: String.self), difficulty: try row.decode("difficulty", as: Int.self),
            status: try row.decode("status", as: String.self), version: try row.decode("version", as: Int.self),
            examOnly: try row.decode("exam_only", as: Bool.self))
        // A markdown question is edited as the markdown its trees write.
        if let texts = try row.decode("rich", as: PostgresJSON?.self).map({ try $0.decoded(as: QuestionTexts.self) }) {
            (question.stem, question.explanation, question.options) = texts.sources(options: question.options)
            question.markdown = true
        }
        return question
    }

    /// Every domain, labelled with its exam, for the editor's domain choice.
    public func domains(_ connection: PostgresConnection) throws -> [(id: Int, label: String)] {
        try connection.query(("""
            SELECT d.id, r.name || ' · ' || e.title || ' · ' || d.title AS label
            FROM domains d JOIN exams e ON e.id = d.exam_id JOIN regions r ON r.id = e.region_id
            ORDER BY r.position, r.name, e.title, d.title
            """ as SQL).prepared()).rows.map { (try $0.decode("id", as: Int.self), try $0.decode("label", as: String.self)) }
    }

    /// Saves a question: a new one (no id) or an edit of the version the editor was shown;
    /// returns its id and version, or nil when the question has been saved since that version
    /// (by another admin: nothing is overwritten). A markdown question's texts are read into
    /// trees here (the caller has said what is wrong with them).
    public func save(_ written: EditableQuestion, _ connection: PostgresConnection) throws -> (id: UUID, version: Int)? {
        var question = written
        var rich: PostgresJSON?
        if written.markdown {
            let read = try QuestionTexts.read(stem: written.stem, explanation: written.explanation, options: written.options)
            (question.stem, question.explanation, question.options) = (read.stem, read.explanation, read.options)
            rich = try PostgresJSON(encoding: read.texts)
        }
        let options = try PostgresJSON(encoding: question.options)
        let correct = try PostgresJSON(encoding: question.correct)
        let details = try PostgresJSON(encoding: question.details)
        let row: PostgresRow?
        if let id = question.id {
            row = try connection.query(("""
                UPDATE questions SET domain_id = \(question.domainID), type = \(question.type.rawValue), stem = \(question.stem), rich = \(rich)::jsonb, code = \(question.code),
                    code_language = \(question.codeLanguage), options = \(options)::jsonb, correct = \(correct)::jsonb,
                    details = \(details)::jsonb, explanation = \(question.explanation), difficulty = \(question.difficulty), status = \(question.status),
                    exam_only = \(question.examOnly)
                WHERE id = \(id) AND deleted_at IS NULL AND version = \(question.version)
                RETURNING id, version
                """ as SQL).prepared()).first
            if row == nil { return nil }
        } else {
            row = try connection.query(("""
                INSERT INTO questions (domain_id, type, stem, rich, code, code_language, options, correct, details, explanation, difficulty, status, exam_only)
                VALUES (\(question.domainID), \(question.type.rawValue), \(question.stem), \(rich)::jsonb, \(question.code), \(question.codeLanguage),
                        \(options)::jsonb, \(correct)::jsonb, \(details)::jsonb, \(question.explanation), \(question.difficulty), \(question.status),
                        \(question.examOnly))
                RETURNING id, version
                """ as SQL).prepared()).first
        }
        guard let row else { throw PostgresError(kind: .decoding, message: "the question is gone", column: "id") }
        return (try row.decode("id", as: UUID.self), try row.decode("version", as: Int.self))
    }
}
