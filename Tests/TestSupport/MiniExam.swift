import Foundation
import PostgresClient

/// A small exam with known answers: two domains, seven questions of all four kinds.
/// Loaded as the owner, straight into the tables, so tests of any module can use it.
public enum MiniExam {
    public struct Item: Sendable {
        public let id: UUID
        public let domain: String
        public let kind: String
        public let options: [String]
        public let key: [Int]
        public let difficulty: Int
        /// A response that is wrong (but well formed).
        public var wrong: [Int] {
            switch kind {
            case "ordering": Array(key.reversed())
            case "multi-choice": [key[0]]
            default: [(key[0] + 1) % options.count]
            }
        }
    }

    public static let region = "test-region"
    public static let exam = "mini"
    public static let passMark = 60
    public static let timeLimitSeconds = 60
    public static let questionCount = 4

    public static let items: [Item] = [
        Item(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000a1")!, domain: "alpha", kind: "single-choice", options: ["Ant", "Bee", "Cat", "Dog"], key: [0], difficulty: 1),
        Item(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000a2")!, domain: "alpha", kind: "single-choice", options: ["Red", "Green", "Blue"], key: [1], difficulty: 2),
        Item(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000a3")!, domain: "alpha", kind: "multi-choice", options: ["2", "3", "4", "5"], key: [0, 1, 3], difficulty: 3),
        Item(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000a4")!, domain: "alpha", kind: "code-snippet", options: ["1", "2", "11"], key: [1], difficulty: 2),
        Item(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000b1")!, domain: "beta", kind: "ordering", options: ["Transport", "Physical", "Network"], key: [1, 2, 0], difficulty: 3),
        Item(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000b2")!, domain: "beta", kind: "single-choice", options: ["North", "East", "South", "West"], key: [3], difficulty: 1),
        Item(id: UUID(uuidString: "00000000-0000-4000-8000-0000000000b3")!, domain: "beta", kind: "single-choice", options: ["One", "Two", "Three"], key: [2], difficulty: 4),
    ]

    public static func item(_ id: UUID) -> Item? { items.first { $0.id == id } }

    /// Loads the exam; returns its id.
    @discardableResult
    public static func install(_ connection: PostgresConnection) throws -> Int {
        let regionID = try connection.query("INSERT INTO regions (code, name) VALUES (\(region), 'Test region') RETURNING id").first!.decode("id", as: Int.self)
        let examID = try connection.query("""
            INSERT INTO exams (region_id, slug, title, description, language, pass_mark, time_limit_s, question_count)
            VALUES (\(regionID), \(exam), 'Mini exam', 'Seven questions with known answers.', 'en', \(passMark), \(timeLimitSeconds), \(questionCount))
            RETURNING id
            """).first!.decode("id", as: Int.self)
        var domainIDs: [String: Int] = [:]
        for (slug, title, weight) in [("alpha", "Alpha things", 60), ("beta", "Beta things", 40)] {
            domainIDs[slug] = try connection.query("""
                INSERT INTO domains (exam_id, slug, title, weight) VALUES (\(examID), \(slug), \(title), \(weight)) RETURNING id
                """).first!.decode("id", as: Int.self)
        }
        for item in items {
            let options = item.options.enumerated().map { index, text in
                ["id": "o\(index)", "text": text, "explanation": "Why \(text) is \(item.key.contains(index) ? "in the key" : "not the answer")."]
            }
            let optionsJSON = String(decoding: try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys]), as: UTF8.self)
            let keyJSON = "[" + item.key.map(String.init).joined(separator: ",") + "]"
            let code: String? = item.kind == "code-snippet" ? "print(1 + 1)" : nil
            try connection.execute("""
                INSERT INTO questions (id, domain_id, type, stem, code, code_language, options, correct, explanation, difficulty, status)
                VALUES (\(item.id), \(domainIDs[item.domain]!), \(item.kind), \("Question \(item.id.uuidString.suffix(2))?"), \(code),
                        \(code == nil ? nil : "python"), \(optionsJSON)::jsonb, \(keyJSON)::jsonb, 'Because of the key.', \(item.difficulty), 'published')
                """)
        }
        return examID
    }
}
