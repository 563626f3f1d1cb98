import ContentPackage
import ExamData
import Foundation
import Interop
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// Other systems' rich question text: a QTI item's XHTML and MathML, Moodle's HTML in every
/// text of a question, GIFT's `[html]` and `[markdown]` — read into trees, written back by the
/// exports, and equal again after each round trip.
@Suite("Rich text in imports and exports", .serialized, .onTestThreads)
struct RichInteropTests {
    static let circuit = Array(##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><rect width="40" height="20" fill="#123"/></svg>"##.utf8)

    /// A QTI 2.1 package of one item written as authoring tools write them: MathML with a
    /// namespace prefix, one formula with its TeX annotation and one without, a table, an
    /// exhibit in the question text, a formula in a choice and in feedback.
    static var qtiPackage: [UInt8] {
        let item = """
            <?xml version="1.0" encoding="UTF-8"?>
            <assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" xmlns:m="http://www.w3.org/1998/Math/MathML"
                identifier="ohm" title="Ohm" adaptive="false" timeDependent="false">
              <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
                <correctResponse><value>A</value></correctResponse>
              </responseDeclaration>
              <itemBody>
                <p>Refer to the exhibit. By
                   <m:math><m:mi>V</m:mi><m:mo>=</m:mo><m:mi>I</m:mi><m:mi>R</m:mi></m:math>, what current flows?</p>
                <p><img src="../images/circuit.svg" alt="A 10 V source across a 5 Ω resistor"/></p>
                <table>
                  <caption>Readings</caption>
                  <thead><tr><th>Quantity</th><th style="text-align: right">Value</th></tr></thead>
                  <tbody><tr><td>V</td><td style="text-align: right">10</td></tr><tr><td><em>R</em></td><td style="text-align: right">5</td></tr></tbody>
                </table>
                <m:math display="block"><m:semantics>
                  <m:mrow><m:mi>I</m:mi><m:mo>=</m:mo><m:mfrac><m:mi>V</m:mi><m:mi>R</m:mi></m:mfrac></m:mrow>
                  <m:annotation encoding="application/x-tex">I = \\frac{V}{R}</m:annotation>
                </m:semantics></m:math>
                <choiceInteraction responseIdentifier="RESPONSE" shuffle="true" maxChoices="1">
                  <simpleChoice identifier="A"><m:math><m:mn>2</m:mn><m:mtext> A</m:mtext></m:math></simpleChoice>
                  <simpleChoice identifier="B">50 A<feedbackInline outcomeIdentifier="FEEDBACK" identifier="B" showHide="show">That is
                    <m:math><m:mi>V</m:mi><m:mo>×</m:mo><m:mi>R</m:mi></m:math>, not <m:math><m:mfrac><m:mi>V</m:mi><m:mi>R</m:mi></m:mfrac></m:math>.</feedbackInline></simpleChoice>
                </choiceInteraction>
              </itemBody>
              <modalFeedback outcomeIdentifier="FEEDBACK" identifier="GENERAL" showHide="hide"><p>Divide the voltage by the resistance:
                <m:math><m:msup><m:mi>I</m:mi><m:mn>2</m:mn></m:msup><m:mo>=</m:mo><m:msqrt><m:mn>4</m:mn></m:msqrt></m:math>.</p></modalFeedback>
            </assessmentItem>
            """
        let manifest = """
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="M"><resources>
              <resource identifier="ITEM" type="imsqti_item_xmlv2p1" href="items/ohm.xml"><file href="items/ohm.xml"/><dependency identifierref="IMG"/></resource>
              <resource identifier="IMG" type="webcontent" href="images/circuit.svg"><file href="images/circuit.svg"/></resource>
            </resources></manifest>
            """
        return Zip.archive([
            Zip.Entry(path: "imsmanifest.xml", bytes: Array(manifest.utf8)), Zip.Entry(path: "items/ohm.xml", bytes: Array(item.utf8)),
            Zip.Entry(path: "images/circuit.svg", bytes: circuit),
        ])
    }

    /// A Moodle question with rich HTML in its text, answers and both feedbacks, its TeX in
    /// Moodle's notation, and a matching question whose items hold formulas.
    static var moodleFile: Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz>
              <question type="multichoice"><name><text>Power</text></name>
                <questiontext format="html"><text><![CDATA[<p>Using the table, what power does the <strong>resistor</strong> take?</p>
                  <table><tr><th>V</th><th align="right">R</th></tr><tr><td>10 V</td><td align="right">5 Ω</td></tr></table>
                  <p>$$P = \\frac{V^2}{R}$$</p>
                  <figure><img src="@@PLUGINFILE@@/circuit.svg" alt="The circuit"><figcaption>Exhibit 1</figcaption></figure>]]></text>
                  <file name="circuit.svg" path="/" encoding="base64">\(Data(circuit).base64EncodedString())</file></questiontext>
                <generalfeedback format="html"><text><![CDATA[<ol><li>Square the voltage: \\(10^2 = 100\\)</li><li>Divide by <em>R</em></li></ol>]]></text></generalfeedback>
                <single>true</single>
                <answer fraction="100"><text><![CDATA[\\(20\\,\\mathrm{W}\\)]]></text><feedback format="html"><text><![CDATA[<p>Right: <code>100 / 5</code></p><p>Watts are volts times amperes.</p>]]></text></feedback></answer>
                <answer fraction="0"><text><![CDATA[<b>50</b> W]]></text></answer>
              </question>
              <question type="matching"><name><text>Laws</text></name>
                <questiontext format="html"><text><![CDATA[<p>Match each quantity with its formula.</p>]]></text></questiontext>
                <subquestion format="html"><text><![CDATA[<p>Current \\(I\\)</p>]]></text><answer><text>V over R</text></answer></subquestion>
                <subquestion format="html"><text><![CDATA[<p>Power \\(P\\)</p>]]></text><answer><text>V times I</text></answer></subquestion>
              </question>
            </quiz>
            """.utf8)
    }

    @Test("a QTI item's table, MathML, exhibit and formulas in choices and feedback come in as trees, the MathML kept and its TeX written")
    func qtiItem() throws {
        let content = try ForeignImport().read(Data(Self.qtiPackage), format: .contentPackage, language: "en")
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        let question = try #require(content.questions.first)
        let stem = try #require(question.richStem)
        let exhibit = try ContentImage(bytes: Self.circuit)
        func row(_ children: MathNode...) -> MathNode { .element("mrow", attributes: [:], children: children) }
        func leaf(_ name: String, _ text: String) -> MathNode { .element(name, attributes: [:], children: [.text(text)]) }
        #expect(stem.blocks.count == 4)
        // The formula in the line: its MathML as the item has it, its TeX written from it.
        #expect(stem.blocks[0] == .paragraph([
            .text("Refer to the exhibit. By "), .math(RichText.Math(tex: "V = I R", mathml: row(leaf("mi", "V"), leaf("mo", "="), leaf("mi", "I"), leaf("mi", "R")))),
            .text(", what current flows?"),
        ]))
        #expect(stem.blocks[1] == .picture(RichText.Picture(source: exhibit.path, alt: "A 10 V source across a 5 Ω resistor")))
        #expect(stem.blocks[2] == .table(RichText.Table(
            header: [[.text("Quantity")], [.text("Value")]], alignments: [.none, .right],
            rows: [[[.text("V")], [.text("10")]], [[.emphasis([.text("R")])], [.text("5")]]], caption: [.text("Readings")])))
        // The displayed formula keeps the TeX of its annotation and the MathML of its presentation.
        #expect(stem.blocks[3] == .math(RichText.Math(
            tex: "I = \\frac{V}{R}", mathml: row(leaf("mi", "I"), leaf("mo", "="), .element("mfrac", attributes: [:], children: [leaf("mi", "V"), leaf("mi", "R")])))))
        #expect(question.stem == RichTextPlain.text(stem), "the plain text is the tree's")
        #expect(question.shownImages == [exhibit])
        // A choice that is a formula; a choice's feedback with two.
        let choice = try #require(question.options.first?.richText)
        guard case .paragraph(let inlines) = try #require(choice.blocks.first), case .math(let amps) = try #require(inlines.first) else {
            Issue.record("choice A is not a formula: \(choice)"); return
        }
        #expect(amps.mathml == row(leaf("mn", "2"), .element("mtext", attributes: [:], children: [.text(" A")])))
        #expect((try? TeXMath.convert(amps.tex)) != nil, "its TeX (\(amps.tex)) is one the editor reads back")
        #expect(question.options[1].text == "50 A" && question.options[1].richText == nil, "a choice of words stays words")
        let feedback = try #require(question.options[1].richFeedback)
        #expect(RichTextPlain.text(feedback).hasPrefix("That is "))
        #expect(feedback.blocks.count == 1)
        let general = try #require(question.richFeedback)
        guard case .paragraph(let generalInlines) = try #require(general.blocks.first) else { Issue.record("\(general)"); return }
        #expect(generalInlines.contains { if case .math(let math) = $0 { math.tex == "{I}^{2} = \\sqrt{4}" } else { false } }, "\(generalInlines)")
    }

    @Test("what no formula or text may hold is dropped on import: maction's hidden branch, href on MathML, annotation-xml with HTML, javascript: links, events")
    func hostileMarkup() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz><question type="multichoice"><name><text>Trap</text></name>
              <questiontext format="html"><text><![CDATA[<p>Which is <a href="javascript:alert(1)">safe</a>?
                <math><maction actiontype="statusline"><mi href="javascript:alert(2)" onclick="alert(3)" style="color:red">x</mi><mtext>hidden</mtext></maction>
                <semantics><mi>y</mi><annotation-xml encoding="text/html"><script>alert(4)</script><b onclick="alert(5)">z</b></annotation-xml></semantics></math></p>
                <table onmouseover="alert(6)"><tr><th>a</th></tr><tr><td><img src="x" onerror="alert(7)"></td></tr></table>]]></text></questiontext>
              <answer fraction="100"><text>A</text></answer><answer fraction="0"><text>B</text></answer>
            </question></quiz>
            """
        let content = try ForeignImport().read(Data(xml.utf8), format: .moodleXML, language: "en")
        // The picture at an outside address is named, and the question waits for a file that carries it.
        #expect(content.skipped.map(\.reason) == ["a picture at an outside address (x), which the portal does not load: embed it in the file"])
        let safe = xml.replacingOccurrences(of: #"<td><img src="x" onerror="alert(7)"></td>"#, with: "<td>b</td>")
        let read = try ForeignImport().read(Data(safe.utf8), format: .moodleXML, language: "en")
        let tree = try #require(read.questions.first?.richStem)
        guard case .paragraph(let inlines) = tree.blocks[0] else { Issue.record("\(tree)"); return }
        #expect(Array(inlines.prefix(3)) == [.text("Which is "), .text("safe"), .text("? ")], "the link's words stay, the link does not: \(inlines)")
        let formula = inlines.compactMap { if case .math(let math) = $0 { math } else { nil } }
        #expect(formula.map(\.mathml) == [.element("mrow", attributes: [:], children: [
            .element("mi", attributes: [:], children: [.text("x")]), .element("mi", attributes: [:], children: [.text("y")]),
        ])])
        let html = RichTextHTML.render(tree)
        for trace in ["javascript", "alert", "onclick", "onmouseover", "style", "maction", "annotation-xml", "hidden", "<script", "<b"] {
            #expect(!html.contains(trace), "\(trace) in \(html)")
        }
    }

    @Test("Moodle's old <image> field is an exhibit after the question's text, named by its file; one not embedded is named")
    func moodleOldImage() throws {
        func file(_ image: String) -> Data {
            Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <quiz><question type="multichoice"><name><text>Old</text></name>
                  <questiontext format="html"><text>Which part of the circuit is shown?</text></questiontext>
                  \(image)
                  <answer fraction="100"><text>The resistor</text></answer><answer fraction="0"><text>The source</text></answer>
                </question></quiz>
                """.utf8)
        }
        let content = try ForeignImport().read(file("<image>circuit_diagram.svg</image><image_base64>\(Data(Self.circuit).base64EncodedString())</image_base64>"), format: .moodleXML, language: "en")
        let stored = try ContentImage(bytes: Self.circuit)
        #expect(content.questions.first?.richStem == RichText([
            .paragraph([.text("Which part of the circuit is shown?")]), .picture(RichText.Picture(source: stored.path, alt: "circuit_diagram.svg")),
        ]))
        #expect(content.questions.first?.shownImages == [stored])
        // A file's name is no description: the report says so, and the question waits as a draft.
        #expect(content.notes.map(\.reason) == [
            "its picture has no alt text: its file's name (circuit_diagram.svg) stands in, so the question waits as a draft — give the picture words in the editor, then publish it",
        ])
        let outside = try ForeignImport().read(file("<image>https://example.org/circuit.png</image>"), format: .moodleXML, language: "en")
        #expect(outside.questions.isEmpty)
        #expect(outside.skipped.map(\.reason) == ["the picture https://example.org/circuit.png is not embedded in the file (<image_base64>), and the portal does not load pictures from elsewhere"])
    }

    @Test("GIFT's [html] and [markdown] texts become trees (TeX commands kept through GIFT's escapes); [plain] and unmarked text stay as written")
    func giftMarkup() throws {
        let gift = #"""
            ::area::[markdown]The area of a circle of radius $r$ is\: {=$\pi r^2$ ~$2\pi r$#That is its **circumference**}

            ::sum::[html]<p>What is <b>2 + 2</b>?</p><ul><li>Think\: carefully</li></ul> {=4 ~5}

            ::plain::[plain]Is *this* kept as typed? {T}

            ::words::[html]<p>Just words</p> {=yes ~no}
            """#
        let content = try ForeignImport().read(Data(gift.utf8), format: .gift, language: "en")
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        let byKey = Dictionary(uniqueKeysWithValues: content.questions.map { ($0.key, $0) })
        let area = try #require(byKey["gift:area"])
        #expect(area.stem == "The area of a circle of radius r is:")
        let pi = try RichText.Math(tex: "\\pi r^2")
        #expect(area.options[0].richText == RichText([.paragraph([.math(pi)])]))
        #expect(area.options[1].richFeedback == RichText([.paragraph([.text("That is its "), .strong([.text("circumference")])])]))
        let sum = try #require(byKey["gift:sum"])
        #expect(sum.richStem == RichText([.paragraph([.text("What is "), .strong([.text("2 + 2")]), .text("?")]), .list(ordered: false, start: 1, items: [[.paragraph([.text("Think: carefully")])]])]))
        #expect(byKey["gift:plain"]?.hasTrees == false && byKey["gift:plain"]?.stem == "Is *this* kept as typed?")
        #expect(byKey["gift:words"]?.hasTrees == false && byKey["gift:words"]?.stem == "Just words")
    }

    /// Each live question of `exam` with its stored trees, by key.
    private func trees(_ catalogue: ExamFixtures.Catalogue, _ exam: String) throws -> [String: String] {
        let rows = try catalogue.connection.query("""
            SELECT q.source_key, coalesce(q.rich::text, '') AS rich FROM questions q JOIN exams e ON e.id = q.exam_id WHERE e.slug = \(exam) AND q.deleted_at IS NULL
            """).rows
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.decode("source_key", as: String.self), try $0.decode("rich", as: String.self)) })
    }

    @Test("a QTI package and a Moodle file with tables, formulas and exhibits export back to equal trees", arguments: ["moodle", "qti3", "qti21", "json"])
    func roundTrip(_ format: String) throws {
        let catalogue = try ExamFixtures.Catalogue()
        try catalogue.importing(Data(Self.qtiPackage), into: "school/exam-a")
        try catalogue.importing(Self.moodleFile, into: "school/exam-a")
        let before = try trees(catalogue, "exam-a")
        #expect(before.count == 3 && before.values.allSatisfy { !$0.isEmpty }, "\(before)")
        try catalogue.copy("exam-a", to: "exam-b", format: format)
        let after = try trees(catalogue, "exam-b")
        for key in before.keys.sorted() {
            // Format 1 carries formulas as their TeX: one that came as MathML is drawn again by the converter.
            if format == "json", key.hasPrefix("qti:") { continue }
            #expect(after[key] == before[key], "\(key) after \(format)")
        }
        if format == "json" {
            let qti = try #require(before.keys.first { $0.hasPrefix("qti:") })
            let (was, now) = try (JSONDecoder().decode(QuestionTexts.self, from: Data((before[qti] ?? "").utf8)), JSONDecoder().decode(QuestionTexts.self, from: Data((after[qti] ?? "").utf8)))
            #expect(RichTextPlain.text(was.stem) == RichTextPlain.text(now.stem) && was.stem.blocks.count == now.stem.blocks.count)
        }
        #expect(try catalogue.questions("exam-b").count == 3)
    }

    /// A QTI 3 item for a Japanese exam whose words carry their readings (`<ruby>` with `<rb>` and
    /// `<rt>`, as QTI 3's own examples write them), in the question and in a choice.
    static let rubyItem = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="hometown" title="出身地" adaptive="false" time-dependent="false" xml:lang="ja">
          <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
            <qti-correct-response><qti-value>HK</qti-value></qti-correct-response>
          </qti-response-declaration>
          <qti-item-body>
            <p>村田<ruby><rb>真</rb><rt>まこと</rt></ruby>の出身地はどこですか</p>
            <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
              <qti-simple-choice identifier="HK"><ruby><rb>北海道</rb><rp>(</rp><rt>ほっかいどう</rt><rp>)</rp></ruby></qti-simple-choice>
              <qti-simple-choice identifier="OK"><ruby>沖縄<rt>おきなわ</rt></ruby></qti-simple-choice>
            </qti-choice-interaction>
          </qti-item-body>
        </qti-assessment-item>
        """.utf8)

    @Test("ruby in a QTI 3 item is base text with its reading, in the question and a choice; QTI 3 and Moodle keep it, QTI 2.1 (no ruby in its XHTML) writes the reading after its base; a reading without base text is refused with the item")
    func ruby() throws {
        let content = try ForeignImport().read(Self.rubyItem, format: .qti3, language: "ja")
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        let question = try #require(content.questions.first)
        #expect(question.stem == "村田真の出身地はどこですか")
        #expect(question.richStem == RichText([.paragraph([.text("村田"), .ruby(base: "真", reading: "まこと"), .text("の出身地はどこですか")])]))
        #expect(question.options.map(\.richText) == [
            RichText([.paragraph([.ruby(base: "北海道", reading: "ほっかいどう")])]), RichText([.paragraph([.ruby(base: "沖縄", reading: "おきなわ")])]),
        ])

        let catalogue = try ExamFixtures.Catalogue()
        try catalogue.importing(Self.rubyItem, into: "school/exam-a")
        let exported = try catalogue.export("exam-a")
        let files = { (version3: Bool) in
            try Zip.entries(QTIPackage.archive(exported, version3: version3)).filter { $0.path.hasPrefix("items/") }.map { String(decoding: $0.bytes, as: UTF8.self) }.joined()
        }
        #expect(try files(true).contains("村田<ruby><rb>真</rb><rp>(</rp><rt>まこと</rt><rp>)</rp></ruby>の出身地"))
        #expect(try files(false).contains("村田真(まこと)の出身地"))
        #expect(MoodleXMLExport.document(exported).contains("<ruby><rb>北海道</rb>"))
        for format in ["qti3", "moodle", "json"] {
            let copy = try ExamFixtures.Catalogue()
            try copy.importing(Self.rubyItem, into: "school/exam-a")
            try copy.copy("exam-a", to: "exam-b", format: format)
            #expect(try trees(copy, "exam-b").values.first == trees(copy, "exam-a").values.first, "\(format)")
        }

        let bare = String(decoding: Self.rubyItem, as: UTF8.self).replacingOccurrences(of: "<rb>真</rb>", with: "")
        let refused = try ForeignImport().read(Data(bare.utf8), format: .qti3, language: "ja")
        #expect(refused.questions.isEmpty && refused.skipped.first?.reason.contains("a ruby needs its base text and its reading") == true, "\(refused.skipped)")
    }
}
