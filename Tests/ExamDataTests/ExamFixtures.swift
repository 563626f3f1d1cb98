import ExamData
import Foundation
import Interop
import PostgresClient
import TestSupport
import Testing

/// Exams to own and import into, as the import tests start from.
enum ExamFixtures {
    /// A database with two empty exams, A and B, each with one domain.
    final class Catalogue {
        let database: TestDatabase
        let connection: PostgresConnection

        init() throws {
            database = try TestDatabase(migrated: true)
            connection = try database.adminConnection()
            let region = try connection.query("INSERT INTO regions (code, name) VALUES ('school', 'School') RETURNING id").single().decode("id", as: Int.self)
            for slug in ["exam-a", "exam-b"] {
                let exam = try connection.query("""
                    INSERT INTO exams (region_id, slug, title, description, language, pass_mark, time_limit_s, question_count)
                    VALUES (\(region), \(slug), \("Exam " + slug.suffix(1).uppercased()), '', 'en', 70, 600, 5) RETURNING id
                    """).single().decode("id", as: Int.self)
                try connection.execute("INSERT INTO domains (exam_id, slug, title, weight) VALUES (\(exam), 'general', 'General', 100)")
            }
        }

        /// Imports `data` into `exam` (`school/exam-a`) as the admin page and the command line do.
        @discardableResult
        func importing(_ data: Data, into exam: String) throws -> ImportSummary {
            try connection.withTransaction { connection in
                let plan = try ImportPlanner().plan(data, into: exam, domain: nil, skipUnsupported: true, connection)
                let problems = ContentImport().problems(plan.document, blueprint: plan.format == .portalJSON)
                #expect(problems.isEmpty, "\(problems)")
                return try ContentImport().apply(plan.document, connection)
            }
        }

        /// Each live question of an exam: key, stem and version.
        func questions(_ exam: String) throws -> [String] {
            try connection.query("""
                SELECT q.source_key || ' | ' || q.stem || ' | v' || q.version AS line FROM questions q JOIN exams e ON e.id = q.exam_id
                WHERE e.slug = \(exam) AND q.deleted_at IS NULL ORDER BY q.source_key
                """).rows.map { try $0.decode("line", as: String.self) }
        }

        func export(_ exam: String) throws -> ContentDocument {
            try #require(try ContentImport().export(region: "school", exam: exam, connection))
        }

        /// `exported` as a format-1 file for the exam `slug`: it states the whole blueprint, so the
        /// exam's domains as the first import left them (its own beside "general") are shared out
        /// to 100, as an admin would first.
        static func formatOne(_ exported: ContentDocument, as slug: String) -> ContentDocument {
            var document = exported
            document.regions[0].exams[0].slug = slug
            let domains = document.regions[0].exams[0].domains.count
            for index in 0..<domains {
                document.regions[0].exams[0].domains[index].weight = 100 / domains + (index == 0 ? 100 % domains : 0)
            }
            return document
        }

        /// Exports `exam` in `format` (json, moodle, qti3, qti21) and imports the file into `copy`,
        /// as a school moving its bank would.
        func copy(_ exam: String, to copy: String, format: String) throws {
            let exported = try export(exam)
            let file: Data
            switch format {
            case "json":
                file = try JSONEncoder().encode(Self.formatOne(exported, as: copy))
            case "moodle": file = Data(MoodleXMLExport.document(exported).utf8)
            default: file = Data(QTIPackage.archive(exported, version3: format == "qti3"))
            }
            try importing(file, into: "school/" + copy)
        }
    }
}
