import DemoContent
import ExamData
import Foundation
import Interop
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

@Suite("Content schema", .onTestThreads)
struct ContentSchemaTests {
    /// A database with one region, exam and domain; returns it and the domain id.
    private func database() throws -> (TestDatabase, PostgresConnection, Int) {
        let database = try TestDatabase(migrated: true)
        let connection = try database.adminConnection()
        try store([], connection)
        let domain = try connection.query("SELECT id FROM domains WHERE slug = 'subnets'").single().decode("id", as: Int.self)
        return (database, connection, domain)
    }

    /// Imports `questions` into europe/net/subnets as content arrives; returns how many were new.
    @discardableResult
    private func store(_ questions: [NewQuestion], _ connection: PostgresConnection) throws -> Int {
        let document = ContentDocument(regions: [ContentDocument.Region(code: "europe", name: "Europe", exams: [ContentDocument.Exam(
            slug: "net", title: "Networks", description: "", language: "en", passMark: 70, timeLimitSeconds: 3600, questionCount: 10,
            domains: [ContentDocument.Domain(slug: "subnets", title: "Subnets", weight: 100, questions: questions.map(\.document))])])])
        #expect(ContentImport().problems(document).isEmpty)
        return try ContentImport().apply(document, connection).questionsAdded
    }

    @Test("a cloze question's text marks each gap once: the CHECK and the Swift rule say the same, word for word", arguments: [
        ("The capital is {#1}.", 1, nil), ("{#1} and {#2}", 2, nil), ("{#2} before {#1}", 2, nil), ("No gap at all", 1, "the text does not mark gap 1 as {#1}"),
        ("{#1} and {#1}", 2, "the text marks {#1} twice"), ("{#1}, {#3}", 2, "the text marks {#3}, but the question has 2 gaps"),
        ("{#1} {#0} {#x} {#12345}", 1, nil),
    ] as [(String, Int, String?)])
    func clozeMarks(_ text: String, _ gaps: Int, _ problem: String?) throws {
        let (database, connection, _) = try database()
        _ = database
        let details = try PostgresJSON(encoding: JSONValue.object(["gaps": .array(Array(repeating: .object(["accepted": .array([.string("a")])]), count: gaps))]))
        let sql = try connection.query("SELECT cloze_text_problem(\(text), \(details)::jsonb) AS problem").first!.decode("problem", as: String?.self)
        #expect(sql == problem)
        #expect(ClozeText.problem(text, gaps: gaps) == problem)
    }

    @Test("the CHECK constraint refuses each malformed shape, and the SQL function agrees word for word with the Swift validator", arguments: ShapeCase.all)
    func checkAgreesWithValidator(_ shape: ShapeCase) throws {
        let (database, connection, domain) = try database()
        _ = database
        let options = try PostgresJSON(encoding: shape.options)
        let correct = try PostgresJSON(encoding: shape.correct)
        let details = try PostgresJSON(encoding: shape.detailsJSON)
        let sqlProblem = try connection.query("SELECT question_shape_problem(\(shape.type), \(options)::jsonb, \(correct)::jsonb, \(details)::jsonb) AS problem")
            .first!.decode("problem", as: String?.self)
        #expect(sqlProblem == shape.problem)
        #expect(QuestionValidator.problem(type: shape.type, options: shape.options, correct: shape.correct, details: shape.detailsJSON) == sqlProblem)
        let insert = {
            try connection.execute("""
                INSERT INTO questions (domain_id, type, stem, options, correct, details, difficulty)
                VALUES (\(domain), \(shape.type), \(shape.stem ?? "Stem"), \(options)::jsonb, \(correct)::jsonb, \(details)::jsonb, 3)
                """)
        }
        if shape.problem == nil {
            try insert()
        } else {
            let error = #expect(throws: PostgresError.self) { try insert() }
            #expect(error?.isCheckViolation == true)
            #expect(error?.constraint == "questions_shape_valid")
        }
    }

    @Test("an edit bumps the question's version and every content write bumps the exam's freshness")
    func versionAndFreshness() throws {
        let (database, connection, domain) = try database()
        _ = database
        func freshness() throws -> Date { try connection.query("SELECT content_updated_at FROM exams").first!.decode("content_updated_at", as: Date.self) }
        let before = try freshness()
        let question = NewQuestion(sourceKey: "k1", type: .singleChoice, stem: "Q?", options: [QuestionOption(id: "a", text: "x"), QuestionOption(id: "b", text: "y")], correct: [0], explanation: "", difficulty: 1)
        try store([question], connection)
        let afterInsert = try freshness()
        #expect(afterInsert > before)
        try connection.execute("UPDATE questions SET stem = 'Edited?' WHERE source_key = 'k1'")
        #expect(try connection.query("SELECT version FROM questions").first!.decode("version", as: Int.self) == 2)
        #expect(try freshness() > afterInsert)
        // Loading the same question again (as it now is) changes nothing, not even freshness.
        let unchanged = try freshness()
        var same = question
        same.stem = "Edited?"
        #expect(try store([same], connection) == 0)
        #expect(try freshness() == unchanged)
    }

    @Test("the app role sees only published, live questions unless it acts as an admin, and only admins write")
    func contentVisibility() throws {
        let (database, connection, domain) = try database()
        let options = [QuestionOption(id: "a", text: "x"), QuestionOption(id: "b", text: "y")]
        try store([
            NewQuestion(sourceKey: "published", type: .singleChoice, stem: "P", options: options, correct: [0], explanation: "", difficulty: 2),
            NewQuestion(sourceKey: "draft", type: .singleChoice, stem: "D", options: options, correct: [0], explanation: "", difficulty: 2, status: "draft"),
        ], connection)
        try connection.execute("INSERT INTO questions (domain_id, type, stem, options, correct, difficulty, status, deleted_at) SELECT domain_id, type, 'gone', options, correct, 2, 'published', now() FROM questions LIMIT 1")
        let pool = database.appPool()
        let admin = try database.makeAccount("editor", role: "admin"), student = try database.makeAccount("learner")
        let anonymous = try pool.asCaller(nil) { try $0.query("SELECT stem FROM questions ORDER BY stem").rows.map { try $0.decode("stem", as: String.self) } }
        #expect(anonymous == ["P"])
        let adminSees = try pool.asCaller(admin) { try $0.query("SELECT count(*) AS n FROM questions").single().decode("n", as: Int.self) }
        #expect(adminSees == 3)
        // Claiming to be an admin in a setting grants nothing.
        let claimed = try pool.withTransaction(settings: ["app.role": "admin", "app.user_id": admin.id.uuidString]) {
            try $0.query("SELECT count(*) AS n FROM questions").single().decode("n", as: Int.self)
        }
        #expect(claimed == 1)
        let refused = #expect(throws: PostgresError.self) {
            try pool.asCaller(student) { try $0.execute("UPDATE exams SET title = 'Hacked'") ; try $0.execute("INSERT INTO regions (code, name) VALUES ('x', 'X')") }
        }
        #expect(refused?.isInsufficientPrivilege == true)
        #expect(try connection.query("SELECT title FROM exams").first!.decode("title", as: String.self) == "Networks")
    }
}
