import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// Typed answers worth part of the marks, as schools' banks carry them: GIFT's `%50%`, Moodle's
/// `fraction`, QTI's `mappedValue`; imported, scored by the database as the rule says, and kept
/// by every export.
@Suite("Typed answers with credit", .serialized, .onTestThreads)
struct TypedCreditTests {
    static let gift = """
        ::City:: Richard III was Duke of which city? {=New York =%50%York =%25%NY =%0%London#No.}

        ::Born:: When was Ulysses S. Grant born? {#
            =1822:0
            =%50%1822:2#Close.
        }

        ::Pi:: Pi to two places? {#=3.14:0.005 =%20%3:0.5}
        """

    @Test("GIFT: answers worth part of the marks are partly right (a number with its own tolerance), those worth nothing are left out")
    func gift() throws {
        let content = try ForeignImport().read(Data(Self.gift.utf8), format: .gift, language: "en")
        #expect(content.skipped.isEmpty, "\(content.skipped)")
        #expect(content.questions.map(\.answering) == [
            .typing(accepted: ["New York"], match: .caseInsensitive, tolerance: nil,
                    partial: [PartialAnswer(answer: "York", share: 0.5), PartialAnswer(answer: "NY", share: 0.25)]),
            .typing(accepted: ["1822"], match: .numeric, tolerance: 0, partial: [PartialAnswer(answer: "1822", share: 0.5, tolerance: 2)]),
            .typing(accepted: ["3.14"], match: .numeric, tolerance: 0.005, partial: [PartialAnswer(answer: "3", share: 0.2, tolerance: 0.5)]),
        ])
        let wildcard = try ForeignImport().read(Data("Name a colour. {=red =%50%*}".utf8), format: .gift, language: "en")
        #expect(wildcard.skipped.map(\.reason) == ["a short answer with a * wildcard (the portal compares whole answers)"])
    }

    @Test("Moodle XML: a short answer's and a number's fractions below 100 are partly right; a short answer with a wildcard is named")
    func moodle() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz>
              <question type="shortanswer"><name><text>City</text></name><questiontext format="html"><text>Richard III was Duke of which city?</text></questiontext>
                <usecase>0</usecase>
                <answer fraction="100"><text>New York</text></answer><answer fraction="50"><text>York</text></answer><answer fraction="0"><text>London</text></answer>
              </question>
              <question type="numerical"><name><text>Born</text></name><questiontext format="html"><text>When was Grant born?</text></questiontext>
                <answer fraction="100"><text>1822</text><tolerance>0</tolerance></answer><answer fraction="33.3333"><text>1822</text><tolerance>5</tolerance></answer>
              </question>
              <question type="shortanswer"><name><text>Any</text></name><questiontext format="html"><text>Any colour?</text></questiontext>
                <answer fraction="100"><text>*</text></answer>
              </question>
            </quiz>
            """
        let content = try ForeignImport().read(Data(xml.utf8), format: .moodleXML, language: "en")
        #expect(content.questions.map(\.answering) == [
            .typing(accepted: ["New York"], match: .caseInsensitive, tolerance: nil, partial: [PartialAnswer(answer: "York", share: 0.5)]),
            .typing(accepted: ["1822"], match: .numeric, tolerance: 0, partial: [PartialAnswer(answer: "1822", share: 0.3333, tolerance: 5)]),
        ])
        #expect(content.skipped.map(\.reason) == ["a short answer with a * wildcard (the portal compares whole answers)"])
    }

    @Test("QTI: a text entry scored by a mapping alone (as Common Cartridge writes it) imports, its part-mark entries partly right")
    func qtiMappingOnly() throws {
        let item = """
            <?xml version="1.0" encoding="UTF-8"?>
            <assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="city" title="City" adaptive="false" timeDependent="false">
              <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string">
                <mapping defaultValue="0" lowerBound="0" upperBound="2"><mapEntry mapKey="New York" mappedValue="2" caseSensitive="false"/><mapEntry mapKey="York" mappedValue="1" caseSensitive="false"/></mapping>
              </responseDeclaration>
              <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
              <itemBody><p>Richard III was Duke of which city? <textEntryInteraction responseIdentifier="RESPONSE"/></p></itemBody>
              <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>
            </assessmentItem>
            """
        let content = try ForeignImport().read(Data(item.utf8), format: .qti21, language: "en")
        #expect(content.questions.first?.answering == .typing(accepted: ["New York"], match: .caseInsensitive, tolerance: nil, partial: [PartialAnswer(answer: "York", share: 0.5)]))
    }

    @Test("partly right answers come back from every export as they went", arguments: ["moodle", "qti3", "qti21", "json"])
    func roundTrip(_ format: String) throws {
        let catalogue = try ExamFixtures.Catalogue()
        try catalogue.importing(Data(Self.gift.utf8), into: "school/exam-a")
        let before = try details(catalogue, "exam-a")
        #expect(before.count == 3 && before.values.allSatisfy { $0.partial?.isEmpty == false }, "\(before)")
        try catalogue.copy("exam-a", to: "exam-b", format: format)
        let after = try details(catalogue, "exam-b")
        #expect(after.count == before.count)
        for (key, was) in before {
            let now = after[key] ?? after.first { $0.key.hasSuffix(key.split(separator: ":").last.map(String.init) ?? key) }?.value
            #expect(now?.accepted == was.accepted && now?.partial == was.partial && now?.tolerance == was.tolerance, "\(key) after \(format): \(String(describing: now))")
        }
    }

    private func details(_ catalogue: ExamFixtures.Catalogue, _ exam: String) throws -> [String: QuestionDetails] {
        let rows = try catalogue.connection.query("""
            SELECT q.source_key, q.details::text AS details FROM questions q JOIN exams e ON e.id = q.exam_id WHERE e.slug = \(exam) AND q.deleted_at IS NULL
            """).rows
        return Dictionary(uniqueKeysWithValues: try rows.map {
            (try $0.decode("source_key", as: String.self), try JSONDecoder().decode(QuestionDetails.self, from: Data(try $0.decode("details", as: String.self).utf8)))
        })
    }
}
