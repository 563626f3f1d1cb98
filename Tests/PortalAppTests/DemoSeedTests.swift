import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

@Suite("Demo content", .onTestThreads)
struct DemoSeedTests {
    @Test("seeding loads 3 regions, 10 exams in 7 languages, 62 domains and 7,750 published questions of all seven kinds; a second run changes nothing")
    func seedIsCompleteAndIdempotent() throws {
        let database = try TestDatabase(migrated: true)
        let connection = try database.adminConnection()
        let first = try DemoSeeder.seed(connection)
        #expect(first.newQuestions == 7750)
        let counts = try connection.query("""
            SELECT (SELECT count(*) FROM regions) AS regions, (SELECT count(*) FROM exams) AS exams,
                   (SELECT count(*) FROM domains) AS domains,
                   (SELECT count(*) FROM questions WHERE status = 'published') AS published,
                   (SELECT count(DISTINCT type) FROM questions) AS kinds,
                   (SELECT count(DISTINCT code_language) FROM questions) AS code_languages,
                   (SELECT count(*) FROM questions WHERE options::text LIKE '%imageUrl%') AS with_images,
                   (SELECT count(*) FROM questions WHERE explanation = '') AS unexplained,
                   (SELECT array_agg(DISTINCT language ORDER BY language) FROM exams) AS languages,
                   (SELECT max(content_updated_at) FROM exams) AS freshness
            """).first!
        #expect(try counts.decode("regions", as: Int.self) >= 3)
        #expect(try counts.decode("exams", as: Int.self) == 10)
        #expect(try counts.decode("domains", as: Int.self) == 62)
        #expect(try counts.decode("published", as: Int.self) == 7750)
        #expect(try counts.decode("kinds", as: Int.self) == 7)
        #expect(try counts.decode("code_languages", as: Int.self) >= 3)
        #expect(try counts.decode("with_images", as: Int.self) > 0)
        #expect(try counts.decode("unexplained", as: Int.self) == 0)
        // Every interface language has an exam to study in it.
        #expect(try counts.decode("languages", as: [String].self) == ["de", "en", "es", "it", "ja", "th", "zh"])
        let freshness = try counts.decode("freshness", as: Date.self)

        let second = try DemoSeeder.seed(connection)
        #expect(second.newQuestions == 0)
        let after = try connection.query("SELECT max(content_updated_at) AS freshness, count(*) AS n FROM exams JOIN domains d ON d.exam_id = exams.id JOIN questions q ON q.domain_id = d.id").first!
        #expect(try after.decode("freshness", as: Date.self) == freshness)
        #expect(try after.decode("n", as: Int.self) == 7750)
        // At least 150 of each newer kind, every hotspot's diagram stored and its key the device asked for.
        let kinds = try connection.query("SELECT type, count(*) AS n FROM questions GROUP BY type").rows
        let perKind = Dictionary(uniqueKeysWithValues: try kinds.map { (try $0.decode("type", as: String.self), try $0.decode("n", as: Int.self)) })
        #expect(["matching", "fill-in", "hotspot"].allSatisfy { (perKind[$0] ?? 0) >= 150 }, "\(perKind)")
        #expect(try connection.query("""
            SELECT count(*) AS n FROM questions q WHERE q.type = 'hotspot'
              AND NOT EXISTS (SELECT 1 FROM content_images i WHERE '/content-images/' || i.digest || '.svg' = q.details ->> 'imageUrl')
            """).single().decode("n", as: Int.self) == 0)
    }

    @Test("every wrong option of a generated question explains itself, and Unicode survives the round trip")
    func explanationsAndUnicode() throws {
        let database = try TestDatabase.demoCatalogue()
        let pool = database.appPool()
        let questions = try pool.asCaller(nil) { connection in
            try ExamCatalog().questions(region: "asia-pacific", exam: "database-kiso", difficulty: 2, connection)
        }
        #expect(!questions.isEmpty)
        #expect(questions.contains { $0.stem.contains("問い合わせ") })
        for question in questions where question.kind != .ordering {
            for (index, option) in question.options.enumerated() where !question.correct.contains(index) {
                #expect(!(option.explanation ?? "").isEmpty, "\(question.stem): option \(option.id) lacks an explanation")
            }
        }
    }

    /// Words a stem and its key may share without giving anything away.
    static let commonWords: Set<String> = [
        "which", "what", "does", "the", "and", "for", "are", "how", "can", "its", "not", "one", "two", "you", "has", "was", "all", "any", "per", "use", "that", "this", "these", "with", "from", "have", "into", "each", "when", "where", "there",
        "their", "about", "after", "before", "following", "true", "false", "used", "uses", "value", "given", "they", "than",
        "will", "would", "should", "only", "most", "best", "then", "them",
    ]

    /// What in `question` names its key: a word of the stem found in every key option's text
    /// or image name and in no other option (so the answer can be read off without knowing it).
    static func giveaway(stem: String, options: [(text: String, image: String?)], key: Set<Int>) -> String? {
        func words(_ text: String) -> Set<String> {
            Set(text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count >= 3 && !commonWords.contains($0) })
        }
        let keyed = options.indices.filter { key.contains($0) }, others = options.indices.filter { !key.contains($0) }
        guard !keyed.isEmpty, !others.isEmpty else { return nil }
        let optionWords = options.map { words($0.text + " " + ($0.image.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? "")) }
        for word in words(stem).sorted()
        where keyed.allSatisfy({ optionWords[$0].contains(word) }) && !others.contains(where: { optionWords[$0].contains(word) }) {
            return word
        }
        return nil
    }

    @Test("no question's options give its key away: no word of the stem appears only in the right options (text or image)")
    func noGiveaways() throws {
        let database = try TestDatabase.demoCatalogue()
        let rows = try database.adminConnection().query("SELECT stem, options, correct, type FROM questions WHERE type <> 'ordering'").rows
        #expect(rows.count > 3000)
        struct Option: Decodable {
            var text: String
            var imageUrl: String?
        }
        var found: [String] = []
        for row in rows {
            let stem = try row.decode("stem", as: String.self)
            let options = try row.decodeJSON("options", as: [Option].self)
            let key = Set(try row.decodeJSON("correct", as: [Int].self))
            if let word = Self.giveaway(stem: stem, options: options.map { ($0.text, $0.imageUrl) }, key: key) {
                found.append("\(stem) — \"\(word)\" only in the key")
            }
        }
        #expect(found.count == 0, "\(found.count) questions give their key away, e.g.\n\(found.prefix(15).joined(separator: "\n"))")
        // The check itself catches the kind of question it is for.
        #expect(Self.giveaway(stem: "Which diagram shows a star topology?",
                              options: [("Diagram of a star network", nil), ("Diagram of a ring network", nil)], key: [0]) == "star")
        #expect(Self.giveaway(stem: "Which diagram shows a star topology?",
                              options: [("Diagram A", "/images/star.svg"), ("Diagram B", "/images/ring.svg")], key: [0]) == "star")
    }

    @Test("\"all published questions of this exam in this region at this difficulty\" is served by the partial index")
    func queryPlanUsesIndex() throws {
        let database = try TestDatabase.demoCatalogue()
        let connection = try database.adminConnection()
        try connection.execute("ANALYZE")
        let sql = ExamCatalog.publishedQuestionsSQL(region: "europe", exam: "network-fundamentals", difficulty: 3)
        let plan = try connection.query(SQL(stringLiteral: "EXPLAIN " + sql.text).withBindings(of: sql)).rows
            .map { try $0.decode("QUERY PLAN", as: String.self) }.joined(separator: "\n")
        #expect(plan.contains("questions_published_by_domain_difficulty"), "\(plan)")
    }
}
