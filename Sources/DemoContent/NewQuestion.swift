import Foundation
import Interop
import QuestionEngine

/// A question made by a generator (the demo content, tests), keyed by `sourceKey` so that
/// loading the same content twice adds nothing; stored as the question of a format-1 document.
public struct NewQuestion: Sendable, Equatable {
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
    /// Pictures it shows that are stored with content (a hotspot's generated diagram).
    public var images: [ContentImage] = []
    /// `"markdown"` when its texts are markdown (format 1's `markup`); nil for plain text.
    public var markup: String? = nil

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

    /// The question in format 1.
    public var document: ContentDocument.Question {
        ContentDocument.Question(
            key: sourceKey, type: type.rawValue, stem: stem, markup: markup, code: code, codeLanguage: codeLanguage,
            options: (try? JSONValue(encoding: options)) ?? .array([]), correct: .array(correct.map { .number(Double($0)) }),
            explanation: explanation, difficulty: difficulty, status: status, details: (try? JSONValue(encoding: details)) ?? .object([:]))
    }
}
