import ContentPackage
import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// The import fixtures of other systems' formats, and an exam to import them into.
enum ForeignFiles {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/import/" + name))
    }

    /// An exam to import into, as `ContentImport.export` gives one.
    static var exam: ContentDocument {
        get throws {
            try ContentDocument.decode(Data("""
                {"format": 1, "regions": [{"code": "r", "name": "Region", "exams": [{"slug": "e", "title": "Exam", "language": "en",
                 "passMark": 60, "timeLimitSeconds": 600, "questionCount": 10,
                 "domains": [{"slug": "protocols", "title": "Protocols", "weight": 50, "questions": []}]}]}]}
                """.utf8))
        }
    }
}
