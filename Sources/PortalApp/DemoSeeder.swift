import DemoContent
import ExamData
import Interop
import PostgresClient
import QuestionEngine

/// Loads the demo catalogue the way any content arrives: as one format-1 document (with the
/// pictures its hotspot questions show) through `ContentImport`, so the same checks, natural
/// keys and all-or-nothing writing apply. A second run changes nothing.
public enum DemoSeeder {
    /// What a seeding run did.
    public struct Outcome: Sendable, Equatable {
        public var exams: Int
        public var newQuestions: Int
    }

    /// Seeds through `connection` (the owner role), in one transaction. A generator bug is
    /// reported by the importer's checks, naming the question and field.
    @discardableResult
    public static func seed(_ connection: PostgresConnection) throws -> Outcome {
        let document = DemoCatalog.document
        let importer = ContentImport()
        if let problem = importer.problems(document).first { throw SeedError("\(problem)") }
        let summary = try connection.withTransaction { connection -> ImportSummary in
            try importer.allowLongStatements(connection)
            return try importer.apply(document, connection)
        }
        return Outcome(exams: summary.exams, newQuestions: summary.questionsAdded)
    }
}

/// The demo content failed its own checks.
public struct SeedError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
