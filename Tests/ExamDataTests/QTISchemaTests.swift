import ContentPackage
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// The QTI 2.1 items the portal exports, rich texts and inline feedback included, checked by
/// `xmllint` against the standard's own schema (in `../shared/corpus/xsd/` beside the
/// repository; the test skips itself when it or `xmllint` is not there).
@Suite("QTI exports against the official schema", .onTestThreads)
struct QTISchemaTests {
    static let schemas = URL(fileURLWithPath: TestPaths.repository).deletingLastPathComponent().appendingPathComponent("shared/corpus/xsd")
    static var available: Bool {
        FileManager.default.fileExists(atPath: schemas.appendingPathComponent("qtiv2p1/imsqti_v2p1.xsd").path) && FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint")
    }

    @Test("items with tables, MathML, listings, feedback blocks, the FEEDBACK outcome set, partly right typed answers, recordings and a cloze question's gaps are valid QTI 2.1", .enabled(if: available))
    func richItemsValidate() throws {
        func option(_ id: String, _ text: String, _ explanation: String? = nil) -> JSONValue {
            var fields: [String: JSONValue] = ["id": .string(id), "text": .string(text)]
            if let explanation { fields["explanation"] = .string(explanation) }
            return .object(fields)
        }
        let rich = ContentDocument.Question(
            key: "rich", type: "single-choice", stem: "Using $P = \\frac{V^2}{R}$, which power?\n\n| V | R |\n| --- | --: |\n| 10 | 5 |\n\n```python\nprint(10 ** 2 / 5)\n```",
            markup: "markdown", options: .array([option("a", "$20\\,\\mathrm{W}$", "Right:\n\n- square the volts\n- divide by $R$"), option("b", "**50** W", "No.")]),
            correct: .array([.number(0)]), explanation: "$$P = 20$$", difficulty: 2)
        let multi = ContentDocument.Question(
            key: "multi", type: "multi-choice", stem: "Which are secure?", options: .array([option("a", "SSH", "Yes."), option("b", "Telnet", "No."), option("c", "HTTPS")]),
            correct: .array([.number(0), .number(2)]), explanation: "Encrypted ones.", difficulty: 2)
        let born = ContentDocument.Question(
            key: "born", type: "fill-in", stem: "When was Grant born?", options: .array([]), correct: .array([]), difficulty: 2,
            details: .object(["accepted": .array([.string("1822")]), "match": .string("numeric"),
                              "partial": .array([.object(["answer": .string("1822"), "share": .number(0.5), "tolerance": .number(2)])])]))
        let city = ContentDocument.Question(
            key: "city", type: "fill-in", stem: "Richard III was Duke of which city?", options: .array([]), correct: .array([]), difficulty: 2,
            details: .object(["accepted": .array([.string("New York")]), "match": .string("case-insensitive"),
                              "partial": .array([.object(["answer": .string("York"), "share": .number(0.5)])])]))
        let either = ContentDocument.Question(
            key: "either", type: "single-choice", stem: "Which port may HTTPS use?", options: .array([option("a", "443"), option("b", "80"), option("c", "8443")]),
            correct: .array([.number(0), .number(2)]), difficulty: 2)
        let greeting = RecordingDocuments.document.regions[0].exams[0].domains[0].questions[0]
        let cloze = ClozeDocuments.document(markdown: true).regions[0].exams[0].domains[0].questions[0]
        var document = RichDocuments.document(exam: "net", questions: [rich, multi, born, city, greeting, cloze, either])
        document.images = RecordingDocuments.document.images
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("qti-schema-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.copyItem(at: Self.schemas, to: work.appendingPathComponent("xsd"))
        // The QTI 2.1 schema imports the APIP accessibility schema, which the corpus does not carry; nothing here uses it.
        let schema = work.appendingPathComponent("xsd/qtiv2p1/imsqti_v2p1.xsd")
        let lines = try String(contentsOf: schema, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        try lines.filter { !$0.contains("apip") }.joined(separator: "\n").write(to: schema, atomically: true, encoding: .utf8)
        var items: [String] = []
        for entry in try Zip.entries(QTIPackage.archive(document, version3: false)) where entry.path.hasPrefix("items/") {
            let file = work.appendingPathComponent(entry.path.replacingOccurrences(of: "/", with: "-"))
            try Data(entry.bytes).write(to: file)
            items.append(file.path)
            let text = String(decoding: entry.bytes, as: UTF8.self)
            if text.contains("8443") { #expect(text.contains(#"<mapEntry mapKey="C3" mappedValue="1"/>"#) && text.contains("map_response")) }
            if text.contains("Telnet") { #expect(text.contains(#"<setOutcomeValue identifier="FEEDBACK"><variable identifier="RESPONSE"/></setOutcomeValue>"#)) }
            if text.contains("square the volts") { #expect(text.contains("<feedbackBlock") && text.contains("<math xmlns=\"http://www.w3.org/1998/Math/MathML\"")) }
        }
        #expect(items.count == 7)
        #expect(runCommand(["/usr/bin/xmllint", "--noout", "--nonet", "--schema", schema.path] + items) == 0, "xmllint refuses an exported item")
    }
}
