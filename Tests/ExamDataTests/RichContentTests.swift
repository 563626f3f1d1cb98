import ExamData
import Foundation
import Interop
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// One row of `Tests/Fixtures/rich-text-shapes.json`: a question's stored texts for two options
/// and the problem the database names, or nil for sound ones.
struct RichShapeCase: Decodable, CustomStringConvertible, Sendable {
    var name: String
    var rich: JSONValue
    var problem: String?
    var description: String { name }

    static let all: [RichShapeCase] = {
        let url = URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/rich-text-shapes.json")
        // A fixture that cannot be read gives no cases, which `fixtureIsRead` fails on.
        return (try? JSONDecoder().decode([RichShapeCase].self, from: Data(contentsOf: url))) ?? []
    }()
}

@Suite("Questions written in markdown", .onTestThreads)
struct RichContentTests {
    static let twoOptions: JSONValue = .array([.object(["id": .string("a"), "text": .string("A")]), .object(["id": .string("b"), "text": .string("B")])])

    private func database() throws -> (TestDatabase, PostgresConnection, Int) {
        let database = try TestDatabase(migrated: true)
        let connection = try database.adminConnection()
        _ = try ContentImport().apply(RichDocuments.document(exam: "net", questions: []), connection)
        let domain = try connection.query("SELECT d.id FROM domains d JOIN exams e ON e.id = d.exam_id WHERE e.slug = 'net'").single().decode("id", as: Int.self)
        return (database, connection, domain)
    }

    static let exhibitStem = """
        Refer to the exhibit. Which next hop does the router use for **10.1.2.3**?

        ![Three routers: R1 links to R2 and R3](/content-images/0123456789abcdef.png "Exhibit 1")

        | Prefix | Next hop | Metric |
        | :-- | :-- | --: |
        | 10.0.0.0/8 | 192.0.2.1 | 20 |
        | 10.1.0.0/16 | 192.0.2.9 | 110 |

        Table: Routing table of R1

        ```text
        R1# show ip route 10.1.2.3
        ```
        """

    static func routingQuestion(key: String = "route-1", markup: String? = "markdown") -> ContentDocument.Question {
        ContentDocument.Question(
            key: key, type: "single-choice", stem: exhibitStem, markup: markup,
            options: .array([
                .object(["id": .string("a"), "text": .string("`192.0.2.1`, the *shorter* prefix"), "explanation": .string("A /8 matches, but\n\n- a /16 matches too\n- the **longest** prefix wins")]),
                .object(["id": .string("b"), "text": .string("`192.0.2.9`, the longest prefix")]),
            ]),
            correct: .array([.number(1)]), explanation: "The longest matching prefix wins: /16 beats /8, whatever the metric.", difficulty: 2)
    }

    @Test("the shared fixture of rich-text shapes is read whole (a run of no cases would pass by saying nothing)")
    func fixtureIsRead() {
        #expect(RichShapeCase.all.count >= 20, "Tests/Fixtures/rich-text-shapes.json gave \(RichShapeCase.all.count) cases")
    }

    @Test("the database's check refuses each malformed tree, in the words the Swift reader uses", arguments: RichShapeCase.all)
    func checkAgreesWithReader(_ shape: RichShapeCase) throws {
        let (database, connection, domain) = try database()
        _ = database
        let rich = try PostgresJSON(encoding: shape.rich)
        let options = try PostgresJSON(encoding: Self.twoOptions)
        let sqlProblem = try connection.query("SELECT question_texts_problem(\(rich)::jsonb, \(options)::jsonb) AS problem").single().decode("problem", as: String?.self)
        #expect(sqlProblem == shape.problem)
        // Swift reads stored texts back with the same rules: a sound tree reads, a malformed one
        // is refused, and where the rule is one of the tree's its words are the database's.
        let json = Array(rich.text.utf8)
        if shape.problem == nil {
            #expect(throws: Never.self) { try QuestionTexts.stored(json, optionCount: 2) }
        } else {
            let error = #expect(throws: (any Error).self) { try QuestionTexts.stored(json, optionCount: 2) }
            if let violation = error as? RichTextCheck.Violation, let sqlProblem {
                #expect(sqlProblem.hasSuffix(violation.description), "\(violation.description) vs \(sqlProblem)")
            }
        }
        let insert = {
            try connection.execute("""
                INSERT INTO questions (domain_id, type, stem, rich, options, correct, difficulty)
                VALUES (\(domain), 'single-choice', 'Stem', \(rich)::jsonb, \(options)::jsonb, '[0]', 3)
                """)
        }
        if shape.problem == nil {
            _ = try insert()
        } else {
            let error = #expect(throws: PostgresError.self) { try insert() }
            #expect(error?.constraint == "questions_rich_valid")
        }
    }

    @Test("a markdown question is stored as trees with its plain text beside them, shown from the trees, and a plain one stays as written")
    func storedAsTrees() throws {
        let (database, connection, _) = try database()
        _ = database
        let plain = ContentDocument.Question(
            key: "plain-1", type: "single-choice", stem: "It costs $5 and *stays* as typed:\n  | a | b |", options: Self.twoOptions,
            correct: .array([.number(0)]), explanation: "Plain.", difficulty: 1)
        let document = RichDocuments.document(exam: "net", questions: [Self.routingQuestion(), plain])
        #expect(ContentImport().problems(document).isEmpty)
        let summary = try ContentImport().apply(document, connection)
        #expect(summary.questionsAdded == 2)

        let stored = try connection.query("SELECT stem, rich, options, explanation FROM questions WHERE source_key = 'route-1'").single()
        let stem = try stored.decode("stem", as: String.self)
        // The plain column holds words for search and statistics, no markup.
        #expect(stem.hasPrefix("Refer to the exhibit. Which next hop does the router use for 10.1.2.3?"))
        #expect(stem.contains("Three routers: R1 links to R2 and R3 (Exhibit 1)") && stem.contains("10.1.0.0/16\t192.0.2.9\t110"))
        #expect(!stem.contains("**") && !stem.contains("|"))
        let options = try stored.decodeJSON("options", as: [QuestionOption].self)
        #expect(options.map(\.text) == ["192.0.2.1, the shorter prefix", "192.0.2.9, the longest prefix"])
        let texts = try stored.decodeJSON("rich", as: QuestionTexts.self)
        guard case .table(let table) = texts.stem.blocks[2] else { Issue.record("no table: \(texts.stem.blocks)"); return }
        #expect(table.alignments == [.left, .left, .right] && table.rows.count == 2)
        #expect(texts.stem.picturePaths == ["/content-images/0123456789abcdef.png"])
        #expect(texts.options[0].explanation?.blocks.count == 2)

        // What a student's page gets: the question read with its trees; the plain one without.
        let questions = try ExamCatalog().questions(region: "europe", exam: "net", difficulty: 2, connection)
        #expect(questions.first?.texts == texts)
        let plainRead = try ExamCatalog().questions(region: "europe", exam: "net", difficulty: 1, connection)
        #expect(plainRead.first?.texts == nil && plainRead.first?.stem == plain.stem)
    }

    @Test("an export writes markdown back; importing it into another exam makes the same trees, and again changes nothing")
    func exportRoundTrip() throws {
        let (database, connection, _) = try database()
        _ = database
        _ = try ContentImport().apply(RichDocuments.document(exam: "net", markup: "markdown", questions: [Self.routingQuestion(markup: nil)]), connection)
        let exported = try #require(try ContentImport().export(region: "europe", exam: "net", connection))
        let question = try #require(exported.regions.first?.exams.first?.domains.first?.questions.first)
        #expect(question.markup == "markdown")
        #expect(question.stem.contains("| 10.1.0.0/16 | 192.0.2.9 | 110 |") && question.stem.contains("```text"))
        #expect(exported.imagePaths.contains("/content-images/0123456789abcdef.png"))

        var copy = exported
        copy.regions[0].exams[0].slug = "net-copy"
        // The pictures travel with the document; this one was never stored, so it is left out.
        copy.images = nil
        #expect(ContentImport().problems(copy).isEmpty)
        _ = try ContentImport().apply(copy, connection)
        let trees = try connection.query("""
            SELECT e.slug, q.rich FROM questions q JOIN domains d ON d.id = q.domain_id JOIN exams e ON e.id = d.exam_id ORDER BY e.slug
            """).rows.map { try $0.decodeJSON("rich", as: QuestionTexts.self) }
        #expect(trees.count == 2 && trees[0] == trees[1])
        let again = try ContentImport().apply(copy, connection)
        #expect(again.questionsChanged == 0 && again.questionsAdded == 0)
    }

    /// A text the tree cannot hold, the field it is in and the problem named.
    enum Refusal: String, CaseIterable, Sendable {
        case heading, listInOption, foreignPicture, scriptLink, unknownMarkup

        func apply(_ question: inout ContentDocument.Question) {
            func options(_ first: String, _ second: String) -> JSONValue {
                .array([.object(["id": .string("a"), "text": .string(first)]), .object(["id": .string("b"), "text": .string(second)])])
            }
            switch self {
            case .heading: question.options = options("A", "# B")
            case .listInOption: question.options = options("- A\n- B", "B")
            case .foreignPicture: question.stem = "See:\n\n![map](https://evil.example/m.png)"
            case .scriptLink: question.explanation = "First line\nsee [this](javascript:void)"
            case .unknownMarkup: question.markup = "html"
            }
        }

        var field: String {
            switch self {
            case .heading: "options[1].text"
            case .listInOption: "options[0].text"
            case .foreignPicture: "stem"
            case .scriptLink: "explanation"
            case .unknownMarkup: "markup"
            }
        }

        var problem: String {
            switch self {
            case .heading: "line 1: a heading (#) is not part of a question's text: write **bold** instead"
            case .listInOption: "an option is one line of text: no lists, tables, code blocks, quotes or pictures (put those in the stem)"
            case .foreignPicture: "line 3: a picture must be one of the portal's (/content-images/…), not https://evil.example/m.png"
            case .scriptLink: "line 1: a link must go to an https: address, not javascript:void"
            case .unknownMarkup: "must be markdown or plain"
            }
        }
    }

    @Test("markdown the tree cannot hold is refused with its question, field and line; nothing is written", arguments: Refusal.allCases)
    func refusals(_ refusal: Refusal) throws {
        let (database, connection, _) = try database()
        _ = database
        var question = Self.routingQuestion()
        refusal.apply(&question)
        let document = RichDocuments.document(exam: "net", questions: [question])
        let problems = ContentImport().problems(document)
        #expect(problems.contains { $0.field == refusal.field && $0.problem == refusal.problem && $0.item.contains("route-1") }, "\(refusal): \(problems)")
        #expect(try connection.query("SELECT count(*)::int AS n FROM questions").single().decode("n", as: Int.self) == 0)
    }

    @Test("a Moodle question's HTML keeps its table, list, emphasis, picture and TeX as a tree; a picture without alt text or a formula the portal cannot show is named")
    func moodleHTML() throws {
        let (database, connection, _) = try database()
        _ = database
        let svg = Data(##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect width="40" height="20" fill="#123"/></svg>"##.utf8)
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz>
              <question type="multichoice"><name><text>Ohm</text></name>
                <questiontext format="html"><text><![CDATA[<p>Refer to the <b>exhibit</b> and the table. By \\(V = IR\\), what is H<sub>2</sub>O's\n   current?</p>
                  <p><img src="@@PLUGINFILE@@/circuit.svg" alt="A 10 V source across a 5 Ω resistor"></p>
                  <table><tr><th>Quantity</th><th>Value</th></tr><tr><td>V</td><td>10 V</td></tr><tr><td><i>R</i></td><td>5 Ω</td></tr></table>
                  <ul><li>Use SI units</li><li>Round to <code>0.1</code></li></ul>]]></text>
                  <file name="circuit.svg" path="/" encoding="base64">\(svg.base64EncodedString())</file></questiontext>
                <single>true</single>
                <answer fraction="100"><text>2 A</text></answer><answer fraction="0"><text>50 A</text></answer>
              </question>
              <question type="multichoice"><name><text>No alt</text></name>
                <questiontext format="html"><text><![CDATA[<p>Which? <img src="@@PLUGINFILE@@/circuit.svg"></p>]]></text>
                  <file name="circuit.svg" path="/" encoding="base64">\(svg.base64EncodedString())</file></questiontext>
                <answer fraction="100"><text>A</text></answer><answer fraction="0"><text>B</text></answer>
              </question>
              <question type="multichoice"><name><text>Colour</text></name>
                <questiontext format="html"><text><![CDATA[<p>Compute $$\\color{red}{x}$$.</p>]]></text></questiontext>
                <answer fraction="100"><text>A</text></answer><answer fraction="0"><text>B</text></answer>
              </question>
            </quiz>
            """
        let content = try ForeignImport().read(Data(xml.utf8), format: .moodleXML, language: "en")
        #expect(content.skipped.map(\.reason) == [
            "the picture circuit.svg in the question text has no alt text: give it one",
            "the formula \\color{red}{x} cannot be shown: unknown command \\color",
        ])
        let tree = try #require(content.questions.first?.richStem)
        #expect(tree.picturePaths.count == 1)
        let exam = RichDocuments.document(exam: "net", questions: []).regions[0].exams[0]
        let document = try ForeignImport().document(content, into: ContentDocument(regions: [ContentDocument.Region(code: "europe", name: "Europe", exams: [exam])]), domain: "routing")
        #expect(ContentImport().problems(document).isEmpty, "\(ContentImport().problems(document))")
        _ = try ContentImport().apply(document, connection)
        let stored = try connection.query("SELECT stem, rich FROM questions").single()
        let texts = try stored.decodeJSON("rich", as: QuestionTexts.self)
        let html = RichTextHTML.render(texts.stem)
        #expect(html.hasPrefix("<p>Refer to the <strong>exhibit</strong> and the table. By <math><semantics><mrow><mi>V</mi><mo>=</mo><mi>I</mi><mi>R</mi></mrow>"), "\(html)")
        #expect(html.contains("H<sub>2</sub>O&#39;s current?</p>"), "a line wrap of the HTML is a space")
        #expect(html.contains(#"<img src="\#(tree.picturePaths[0])" alt="A 10 V source across a 5 Ω resistor" loading="lazy">"#))
        #expect(html.contains(#"<thead><tr><th scope="col">Quantity</th><th scope="col">Value</th></tr></thead><tbody><tr><td>V</td><td>10 V</td></tr><tr><td><em>R</em></td><td>5 Ω</td></tr></tbody>"#))
        #expect(html.contains("<ul><li>Use SI units</li><li>Round to <code>0.1</code></li></ul>"))
        #expect(try connection.query("SELECT count(*)::int AS n FROM content_images").single().decode("n", as: Int.self) == 1)
        // The options' plain words stay as they were, markdown or not.
        #expect(texts.options.map { RichTextPlain.text($0.text) } == ["2 A", "50 A"])
    }
}
