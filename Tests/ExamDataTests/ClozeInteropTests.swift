import ContentPackage
import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// Cloze questions as schools' banks carry them — Moodle's embedded answers (its `multianswer`
/// and cloze blocks in GIFT), QTI's inline choices and text entries — come in as one question
/// with its gaps marked where they stood, and every export gives the same question back.
@Suite("Cloze questions in imports and exports", .serialized, .onTestThreads)
struct ClozeInteropTests {

    @Test("Moodle's embedded answers: a list, words case aside and exactly, a number with its tolerance and weight; written back the same")
    func embeddedAnswers() throws {
        let text = "The capital is {1:MULTICHOICE:=Paris~%50%Lyon~Nice#Not that one}. In {2:NUMERICAL:=1789:1~%25%1790:0} the {1:SA:=seine} rose at the {1:SHORTANSWER_C:=Bastille}."
        let reading = try EmbeddedAnswers.read(text)
        #expect(reading.text == "The capital is {#1}. In {#2} the {#3} rose at the {#4}.")
        #expect(reading.gaps == [ClozeDocuments.city, ClozeDocuments.year, ClozeGap(accepted: ["seine"], match: .caseInsensitive), ClozeDocuments.word])
        #expect(reading.notes == ["the gaps' own feedback was left out (the question's explanation stays)"])
        let written = EmbeddedAnswers.write(reading.text, gaps: reading.gaps)
        #expect(try EmbeddedAnswers.read(written).gaps == reading.gaps)
        // What the portal cannot take is named with its gap.
        func refusal(_ text: String) -> String? {
            do { _ = try EmbeddedAnswers.read(text) } catch { return error.reason }
            return nil
        }
        #expect(refusal("Pick {1:MULTIRESPONSE:=a~=b~c}") == "gap 1 is a MULTIRESPONSE (several answers in one gap), which the portal does not support")
        #expect(refusal("{1:SA:=a} {1:SA:%50%b}") == "gap 2 has no answer worth full marks")
        #expect(refusal("{1:SA:=col*r}") == "gap 1 has an answer with a * wildcard (the portal compares whole answers)")
        // Escaped characters are an answer's own; braces that are no gap stay text.
        let escaped = try EmbeddedAnswers.read(#"A set {1, 2} and {1:SA:=a\~b\}c}"#)
        #expect(escaped.text == "A set {1, 2} and {#1}" && escaped.gaps[0].accepted == ["a~b}c"])
    }

    @Test("Moodle XML: a multianswer question is a cloze question, its text marked where the gaps were; GIFT's cloze blocks too")
    func moodleAndGIFT() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz><question type="multianswer"><name><text>Revolution</text></name>
            <questiontext format="html"><text><![CDATA[<p>The capital is {1:MULTICHOICE:=Paris~%50%Lyon~Nice} &amp; in {2:NUMERICAL:=1789:1~%25%1790:0} the {1:SHORTANSWER:=Seine} rose.</p>]]></text></questiontext>
            <generalfeedback format="html"><text>Paris, 1789.</text></generalfeedback></question></quiz>
            """
        let moodle = try ForeignImport().read(Data(xml.utf8), format: .moodleXML, language: "en")
        #expect(moodle.skipped.isEmpty, "\(moodle.skipped)")
        #expect(moodle.questions.map(\.stem) == ["The capital is {#1} & in {#2} the {#3} rose."])
        #expect(moodle.questions.map(\.answering) == [.filling(gaps: [ClozeDocuments.city, ClozeDocuments.year, ClozeDocuments.river])])
        let gift = try ForeignImport().read(Data("::Rivers:: The {1:SA:=Seine} flows through {1:MC:=Paris~Rome}.\n".utf8), format: .gift, language: "en")
        #expect(gift.skipped.isEmpty, "\(gift.skipped)")
        #expect(gift.questions.map(\.stem) == ["The {#1} flows through {#2}."])
        #expect(gift.questions.map(\.answering) == [.filling(gaps: [ClozeDocuments.river, ClozeGap(choices: ["Paris", "Rome"], accepted: ["Paris"])])])
    }

    @Test("QTI: inline choices and several text entries in one item are one cloze question; a lone text entry stays a fill-in question")
    func qti() throws {
        let item = """
            <assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="rev" title="Revolution" adaptive="false" timeDependent="false">
              <responseDeclaration identifier="R1" cardinality="single" baseType="identifier"><correctResponse><value>P</value></correctResponse></responseDeclaration>
              <responseDeclaration identifier="R2" cardinality="single" baseType="string"><correctResponse><value>Seine</value></correctResponse>
                <mapping defaultValue="0"><mapEntry mapKey="Seine" mappedValue="1" caseSensitive="false"/></mapping></responseDeclaration>
              <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
              <itemBody><p>The capital is <inlineChoiceInteraction responseIdentifier="R1" shuffle="false"><inlineChoice identifier="P">Paris</inlineChoice><inlineChoice identifier="L">Lyon</inlineChoice><inlineChoice identifier="M"><math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi>
                  <mo>=</mo>
                  <mi>y</mi></math></inlineChoice></inlineChoiceInteraction>,
                its river the <textEntryInteraction responseIdentifier="R2" expectedLength="8"/>.</p></itemBody>
            </assessmentItem>
            """
        let content = try ForeignImport().read(Data(item.utf8), format: .qti21, language: "en")
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        #expect(content.questions.map(\.stem) == ["The capital is {#1},\nits river the {#2}."] || content.questions.map(\.stem) == ["The capital is {#1}, its river the {#2}."], "\(content.questions.map(\.stem))")
        // A choice's words on one line, however the markup is laid out (a formula's parts on three).
        #expect(content.questions.map(\.answering) == [.filling(gaps: [ClozeGap(choices: ["Paris", "Lyon", "x = y"], accepted: ["Paris"]), ClozeDocuments.river])])
    }

    @Test("a cloze question comes back from every export with its text, its marks and every gap's choices, answers, shares, tolerance and weight",
          arguments: ["moodle", "qti3", "qti21", "json"], [false, true])
    func roundTrip(_ format: String, _ markdown: Bool) throws {
        let catalogue = try ExamFixtures.Catalogue()
        let document = ClozeDocuments.document(markdown: markdown)
        #expect(ContentImport().problems(document).isEmpty, "\(ContentImport().problems(document))")
        _ = try catalogue.connection.withTransaction { try ContentImport().apply(document, $0) }
        try catalogue.copy("exam-a", to: "exam-b", format: format)
        let (before, after) = (try catalogue.export("exam-a"), try catalogue.export("exam-b"))
        let question = { (document: ContentDocument) in document.regions[0].exams[0].domains.flatMap(\.questions).first }
        #expect(question(after)?.type == "cloze")
        #expect(question(after)?.stem == question(before)?.stem, "\(format)")
        #expect(question(after)?.gaps == question(before)?.gaps, "\(format): \(String(describing: question(after)?.gaps))")
    }

    @Test("a cloze question whose text does not mark its gaps is refused with the reason, naming the question's text")
    func unmarked() throws {
        var document = ClozeDocuments.document(markdown: false)
        document.regions[0].exams[0].domains[0].questions[0].stem = "The capital is {#1}. In {#2} the {#3} rose."
        let problems = ContentImport().problems(document).map { "\($0)" }
        #expect(problems.count == 1 && problems[0].contains("stem") && problems[0].contains("the text does not mark gap 4 as {#4}"), "\(problems)")
    }
}
