import ExamData
import Foundation
import Interop
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// A format-1 document of one exam with the questions a test gives it.
enum RichDocuments {
    static func document(exam: String, markup: String? = nil, questions: [ContentDocument.Question]) -> ContentDocument {
        ContentDocument(regions: [ContentDocument.Region(code: "europe", name: "Europe", exams: [ContentDocument.Exam(
            slug: exam, title: "Networks " + exam, description: "", language: "en", passMark: 70, timeLimitSeconds: 3600, questionCount: 10,
            markup: markup, domains: [ContentDocument.Domain(slug: "routing", title: "Routing", weight: 100, questions: questions)])])])
    }
}
