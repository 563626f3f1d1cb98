import ExamData
import Foundation
import HTTPServer
import Interop
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// A small format-1 content document (an Arithmetic exam of two domains) for the import paths.
enum ContentDocuments {
    /// A small valid document (one exam, two domains, three questions), or a broken one.
    static func document(stem: String, passMark: Int = 70, extraKey: String = "q3") -> String {
        """
        {"format": 1, "regions": [{"code": "imported", "name": "Imported region", "exams": [{
          "slug": "arithmetic", "title": "Arithmetic", "description": "Sums.", "language": "en", "passMark": \(passMark),
          "timeLimitSeconds": 600, "questionCount": 2,
          "domains": [
            {"slug": "sums", "title": "Sums", "weight": 60, "questions": [
              {"key": "q1", "type": "single-choice", "stem": \(try! String(decoding: JSONEncoder().encode(stem), as: UTF8.self)), "difficulty": 1,
               "options": [{"id": "a", "text": "4", "explanation": "2 + 2."}, {"id": "b", "text": "5"}], "correct": [0], "explanation": "Count."},
              {"key": "q2", "type": "ordering", "stem": "Smallest first", "difficulty": 2,
               "options": [{"id": "a", "text": "3"}, {"id": "b", "text": "1"}, {"id": "c", "text": "2"}], "correct": [1, 2, 0]}]},
            {"slug": "code", "title": "Code", "weight": 40, "questions": [
              {"key": "\(extraKey)", "type": "code-snippet", "stem": "What does it print?", "code": "print(1 + 1)", "codeLanguage": "python",
               "difficulty": 3, "options": [{"id": "a", "text": "2"}, {"id": "b", "text": "11"}], "correct": [0], "status": "draft"}]}]}]}]}
        """
    }
}
