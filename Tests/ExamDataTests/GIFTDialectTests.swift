import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// GIFT as its users write it (Moodle's reading, where the grammar's own tests agree), and the
/// problems of a whole file that `--skip-unsupported` now skips with a line in the report
/// instead of refusing the file.
@Suite("GIFT as its users write it", .serialized, .onTestThreads)
struct GIFTDialectTests {
    static func read(_ gift: String) throws -> ForeignContent {
        try ForeignImport().read(Data(gift.utf8), format: .gift, language: "en")
    }

    @Test("escapes as Moodle reads them: \\n is a line break, a backslash before anything else is a backslash")
    func escapes() throws {
        let content = try Self.read(#"""
            Which is not a GIFT control character? {
              ~ \~ # \~ is one.
              = \  # Right: \ only escapes the others.
            }

            First line\nsecond line {=yes ~no}
            """#)
        #expect(content.questions.map(\.options).map { $0.map(\.text) } == [["~", "\\"], ["yes", "no"]])
        #expect(content.questions[0].options[1].feedback == "Right: \\ only escapes the others.")
        #expect(content.questions[1].stem == "First line\nsecond line")
    }

    @Test("a lone short answer needs no =, several = are each right, and an answer or feedback may name its own format")
    func answerForms() throws {
        let content = try Self.read("""
            How do you write the number 1 in words? {One}

            Name the seasons: {=spring =summer =autumn =winter ~easter}

            ::Colours::[html]What is between <b>orange</b> and green? {=[plain]yellow#[html]<i>Yes</i>. ~red ####[html]<p>The spectrum.</p>}

            ::Reliable:: Is TCP reliable? {T#[html]<b>No</b>: it retransmits.#[html]<i>Right</i>.}

            ::Unmarked:: What is <i>between</i> orange and green? {=yellow ~red}

            ::Compare:: Is 2 < 3? {T}
            """)
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        #expect(content.questions[0].answering == .typing(accepted: ["One"], match: .caseInsensitive, tolerance: nil))
        // Several `=` answers without weights: one is chosen, and any of them is fully right (as Moodle reads it).
        #expect(!content.questions[1].isMultiple && content.questions[1].correct == [0, 1, 2, 3])
        let colours = content.questions[2]
        #expect(colours.options.map(\.text) == ["yellow", "red"] && colours.options[0].feedback == "Yes.")
        #expect(colours.generalFeedback == "The spectrum.")
        // A true/false question's feedback names its format too: the marker is never shown.
        let reliable = content.questions[3]
        #expect(reliable.options.map(\.feedback) == ["Right.", "No: it retransmits."], "\(reliable.options.map(\.feedback))")
        // No marker is Moodle's automatic format: its tags are HTML, not text; a lone "<" stays text.
        #expect(content.questions[4].stem == "What is between orange and green?", "\(content.questions[4].stem)")
        #expect(content.questions[4].richStem != nil, "the <i> is kept as markup")
        #expect(content.questions[5].stem == "Is 2 < 3?")
    }

    @Test("a number's catch-all ~#feedback is no answer; a single choice with part-mark answers keeps its right one and says the rest count as wrong")
    func numbersAndPartMarks() throws {
        let content = try Self.read("""
            ::Q5:: What is a number from 1 to 5? {#
            =3:2
            ~#Completely wrong}

            Jesus Christ was from {~Jerusalem ~%25%Bethlehem ~%50%Galilee =Nazareth}.
            """)
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        #expect(content.questions[0].answering == .typing(accepted: ["3"], match: .numeric, tolerance: 2))
        #expect(content.questions[1].correct == [3] && !content.questions[1].isMultiple)
        #expect(content.notes.map(\.description) == [
            "line 5: answer 2 (25%), answer 3 (50%) counted as wrong: a single-choice question gives full marks for its one right answer or none",
        ])
    }

    @Test("a picture a GIFT file cannot carry: in the feedback it is left out and named, in the question's text or an answer the question is skipped")
    func pictures() throws {
        let content = try Self.read(#"""
            [html]<p>Which class creates it?</p>{=Controller ~Client ####<p>See <img src\="@@PLUGINFILE@@/3.png" alt\=""> the diagram.</p>}

            [html]<p>Which is it? <img src\="@@PLUGINFILE@@/4.png" alt\="diagram"></p>{=A ~B}
            """#)
        let feedback = content.questions.first?.generalFeedback ?? ""
        #expect(content.questions.count == 1 && feedback.split(whereSeparator: \.isWhitespace).joined(separator: " ") == "See the diagram.", "\(feedback)")
        #expect(content.notes.map(\.description) == ["line 1: the general feedback's picture (@@PLUGINFILE@@/3.png) left out: a GIFT file cannot carry it"])
        #expect(content.skipped.map(\.position) == ["line 3"] && content.skipped[0].reason.contains("@@PLUGINFILE@@/4.png"))
    }

    @Test("a name used twice, or two untitled questions alike, get keys of their own and a line in the report; importing again finds each again")
    func repeatedNames() throws {
        let gift = """
            ::Ports:: Which port does HTTPS use? {=443 ~80}

            ::Ports:: Which port does SSH use? {=22 ~80}

            Is TCP reliable? {T}

            Is TCP reliable? {T}
            """
        let content = try Self.read(gift)
        #expect(content.questions.map(\.key) == ["gift:Ports", "gift:Ports#2", content.questions[2].key, content.questions[2].key + "#2"])
        #expect(content.notes.map(\.position) == ["line 3", "line 7"])
        #expect(content.notes[0].reason == "the name gift:Ports is the one of the question at line 1: kept as gift:Ports#2")
        let catalogue = try ExamFixtures.Catalogue()
        let first = try catalogue.importing(Data(gift.utf8), into: "school/exam-a")
        #expect(first.questionsAdded == 4)
        let again = try catalogue.importing(Data(gift.utf8), into: "school/exam-a")
        #expect(again.questionsAdded == 0 && again.questionsChanged == 0 && again.questionsUnchanged == 4)
    }

    @Test("a question the portal cannot hold (fourteen pairs) is named by its line: it refuses the file, or with --skip-unsupported is left out")
    func oversized() throws {
        let pairs = (1...14).map { "=item \($0) -> answer \($0)" }.joined(separator: "\n")
        let gift = "::Big:: Match them. {\n\(pairs)\n}\n\n::Small:: Which port does HTTPS use? {=443 ~80}\n"
        let catalogue = try ExamFixtures.Catalogue()
        do {
            _ = try catalogue.connection.withTransaction { connection in
                try ImportPlanner().plan(Data(gift.utf8), into: "school/exam-a", domain: nil, skipUnsupported: false, connection)
            }
            Issue.record("a file with a question of fourteen pairs was planned whole")
        } catch let refusal as ImportRefusal {
            #expect(refusal == .unsupported([SkippedItem(position: "line 1", reason: "options: a question needs 2 to 10 options")]))
        }
        let plan = try catalogue.connection.withTransaction { connection in
            try ImportPlanner().plan(Data(gift.utf8), into: "school/exam-a", domain: nil, skipUnsupported: true, connection)
        }
        #expect(plan.skipped.map(\.description) == ["line 1: options: a question needs 2 to 10 options"])
        #expect(plan.document.regions[0].exams[0].domains.flatMap(\.questions).map(\.key) == ["gift:Small"])
    }

    @Test("several `=` answers are each fully right in a single-answer question, and stay so through every export and back",
          arguments: ["moodle", "qti3", "qti21", "json"])
    func severalRightRoundTrip(_ format: String) throws {
        let catalogue = try ExamFixtures.Catalogue()
        try catalogue.importing(Data("::Either:: Which port may HTTPS use? {=443 ~80 =8443}\n".utf8), into: "school/exam-a")
        try catalogue.copy("exam-a", to: "exam-b", format: format)
        let question = { (exam: String) in try catalogue.export(exam).regions[0].exams[0].domains.flatMap(\.questions).first }
        let before = try #require(try question("exam-a")), after = try #require(try question("exam-b"))
        #expect(before.type == "single-choice" && before.correct == .array([.number(0), .number(2)]))
        #expect(after.type == before.type && after.correct == before.correct, "\(format): \(after.type) \(after.correct)")
    }
}
