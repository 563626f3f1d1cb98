import Foundation
import PostgresClient
import QuestionEngine

/// A region with the exams offered in it, for the home page.
public struct RegionSummary: Sendable, Equatable {
    public var code: String
    public var name: String
    public var exams: [ExamSummary]
}

/// An exam as listed: its published question count and how fresh its content is.
public struct ExamSummary: Sendable, Equatable {
    public var slug: String
    public var title: String
    public var language: String
    public var publishedQuestions: Int
    public var contentUpdatedAt: Date
}

/// Everything the exam page shows.
public struct ExamDetail: Sendable, Equatable {
    public var id: Int
    public var regionCode: String
    public var regionName: String
    public var slug: String
    public var title: String
    public var description: String
    public var language: String
    public var passMark: Int
    public var timeLimitSeconds: Int
    public var questionCount: Int
    /// The scaled score its mock exams report besides the percentage, if any.
    public var scaledScore: ScaledScore? = nil
    public var contentUpdatedAt: Date
    /// The kinds of its questions offered for practice (`single-choice`, `cloze`, …), sorted.
    public var kinds: [String]
    public var domains: [DomainSummary]
}

/// A domain with its blueprint weight and published questions per difficulty (index 0 = level 1).
public struct DomainSummary: Sendable, Equatable {
    public var slug: String
    public var title: String
    public var weight: Int
    public var countsByDifficulty: [Int]
    public var total: Int { countsByDifficulty.reduce(0, +) }
}

/// A published question as a student sees it (the key included: checking happens server-side).
public struct Question: Sendable, Equatable {
    public var id: UUID
    public var domainSlug: String
    public var kind: QuestionKind
    public var stem: String
    public var code: String?
    public var codeLanguage: String?
    public var options: [QuestionOption]
    public var correct: [Int]
    /// The kind's own data: targets, accepted answers, the hotspot image.
    public var details: QuestionDetails
    public var explanation: String
    public var difficulty: Int
    public var version: Int
    /// The texts as trees when the question is written in markdown (the plain fields above
    /// then hold their plain text); nil for plain text.
    public var texts: QuestionTexts? = nil

    /// The key in the terms of the question's kind: what answers are checked against.
    public var answerKey: AnswerKey { AnswerKey(kind: kind, options: options, correct: correct, details: details) }
}

/// A stored question of a kind this version does not know: an error, never read as another kind.
public struct UnknownKind: Error, CustomStringConvertible {
    public var type: String
    public var description: String { "a question of unknown kind \(type)" }
}

extension Question {
    /// Reads a question from a row with the columns of `ExamCatalog.publishedQuestionsSQL`,
    /// each name after `prefix` (for a row that also carries other things).
    init(row: PostgresRow, prefix: String = "") throws {
        self.init(
            id: try row.decode(prefix + "id", as: UUID.self), domainSlug: try row.decode(prefix + "domain_slug", as: String.self),
            kind: try Self.kind(row.decode(prefix + "type", as: String.self)),
            stem: try row.decode(prefix + "stem", as: String.self), code: try row.decode(prefix + "code", as: String?.self),
            codeLanguage: try row.decode(prefix + "code_language", as: String?.self),
            options: try row.decodeJSON(prefix + "options", as: [QuestionOption].self),
            correct: try row.decodeJSON(prefix + "correct", as: [Int].self),
            details: try row.decodeJSON(prefix + "details", as: QuestionDetails.self),
            explanation: try row.decode(prefix + "explanation", as: String.self), difficulty: try row.decode(prefix + "difficulty", as: Int.self),
            version: try row.decode(prefix + "version", as: Int.self),
            texts: try row.decode(prefix + "rich", as: PostgresJSON?.self).map { try $0.decoded(as: QuestionTexts.self) })
    }

    /// The kind a stored type names; an unknown one is an error.
    public static func kind(_ type: String) throws -> QuestionKind {
        guard let kind = QuestionKind(rawValue: type) else { throw UnknownKind(type: type) }
        return kind
    }
}
