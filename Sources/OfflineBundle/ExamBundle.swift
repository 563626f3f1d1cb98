import ExamData
import Foundation
import QuestionEngine

/// The whole of an exam as one static JSON document (format 1), for studying offline. Its
/// version is the exam's content version in milliseconds since 1970: any content change makes
/// a new version, and so a new URL.
public struct ExamBundle: Codable, Sendable, Equatable {
    public struct Exam: Codable, Sendable, Equatable {
        public var region: String
        public var regionName: String
        public var slug: String
        public var title: String
        public var description: String
        public var language: String
        public var passMark: Int
        public var timeLimitSeconds: Int
        public var questionCount: Int
    }

    public struct Domain: Codable, Sendable, Equatable {
        public var slug: String
        public var title: String
        public var weight: Int
    }

    public struct Question: Codable, Sendable, Equatable {
        public var id: UUID
        public var domain: String
        public var type: String
        public var stem: String
        public var code: String?
        public var codeLanguage: String?
        public var options: [QuestionOption]
        public var correct: [Int]
        /// The kind's own data (targets, accepted answers, the hotspot image); absent for the
        /// choice kinds.
        public var details: QuestionDetails?
        public var explanation: String
        public var difficulty: Int
        public var version: Int
        /// The texts as trees when the question is written in markdown (`QuestionTexts`), and
        /// the exhibits they show, which the device stores with the bundle.
        public var rich: QuestionTexts?
        public var pictures: [String]?

        public init(_ question: ExamData.Question) {
            id = question.id
            domain = question.domainSlug
            type = question.kind.rawValue
            stem = question.stem
            code = question.code
            codeLanguage = question.codeLanguage
            options = question.options
            correct = question.correct
            details = question.details == .none ? nil : question.details
            explanation = question.explanation
            difficulty = question.difficulty
            version = question.version
            rich = question.texts
            pictures = question.texts.map(\.picturePaths).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    public var format = 1
    public var version: String
    public var exam: Exam
    public var domains: [Domain]
    public var questions: [Question]
}

/// Content versions as they appear in URLs: whole milliseconds since 1970.
public enum BundleVersion {
    public static func string(_ date: Date) -> String { String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))) }

    public static func date(_ text: String) -> Date? {
        guard !text.isEmpty, text.count <= 16, text.allSatisfy(\.isASCII), let milliseconds = Int64(text), milliseconds >= 0 else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
