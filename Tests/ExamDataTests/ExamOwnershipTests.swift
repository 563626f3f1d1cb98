import ExamData
import Foundation
import Interop
import PostgresClient
import TestSupport
import Testing

/// A question belongs to its exam: importing into one exam never changes, moves or retires a
/// question of another, whatever keys the two files share — the two-file case an attacker (or
/// an honest teacher) can make with GIFT titles, and the copy made by importing one exam's
/// export into another, in every export format.
@Suite("Content belongs to its exam", .serialized, .onTestThreads)
struct ExamOwnershipTests {

    @Test("two GIFT files with the same question name, into two exams: each exam keeps its own question")
    func sameNameTwoExams() throws {
        let catalogue = try ExamFixtures.Catalogue()
        try catalogue.importing(Data("::Q1:: 2+2? {=4 ~3}".utf8), into: "school/exam-a")
        let second = try catalogue.importing(Data("::Q1:: Capital? {=Paris ~Lyon}".utf8), into: "school/exam-b")
        #expect(second.questionsAdded == 1 && second.questionsChanged == 0)
        #expect(second.changes == [ImportSummary.ExamChanges(exam: "school/exam-b", title: "Exam B", added: ["gift:Q1"], changed: [])])
        #expect(try catalogue.questions("exam-a") == ["gift:Q1 | 2+2? | v1"])
        #expect(try catalogue.questions("exam-b") == ["gift:Q1 | Capital? | v1"])
        // Importing into A again still updates A's own question, as a new version, and says so.
        let again = try catalogue.importing(Data("::Q1:: 2+2=? {=4 ~3}".utf8), into: "school/exam-a")
        #expect(again.changes == [ImportSummary.ExamChanges(exam: "school/exam-a", title: "Exam A", added: [], changed: ["gift:Q1"])])
        #expect(try catalogue.questions("exam-a") == ["gift:Q1 | 2+2=? | v2"])
        #expect(try catalogue.questions("exam-b") == ["gift:Q1 | Capital? | v1"])
    }

    @Test("an exam's export imported into another exam makes copies and leaves the original untouched", arguments: ["json", "moodle", "qti3", "qti21"])
    func exportAndCopy(_ format: String) throws {
        let catalogue = try ExamFixtures.Catalogue()
        try catalogue.importing(Data("""
            ::Ports:: Which port does HTTPS use? {=443 ~80 ~22}

            ::Secure:: Which are encrypted? {~%50%SSH ~%50%HTTPS ~%-100%Telnet}

            ::Layers:: The layer of IP is the {=network =internet}.
            """.utf8), into: "school/exam-a")
        let before = try catalogue.questions("exam-a")
        #expect(before.count == 3)
        var exported = try catalogue.export("exam-a")
        let file: Data
        switch format {
        case "json":
            // Format 1 names its exam: the copy is the same document with the other exam's slug.
            exported.regions[0].exams[0].slug = "exam-b"
            exported.regions[0].exams[0].title = "Exam B"
            file = try JSONEncoder().encode(exported)
        case "moodle": file = Data(MoodleXMLExport.document(exported).utf8)
        default: file = Data(QTIPackage.archive(exported, version3: format == "qti3"))
        }
        let copy = try catalogue.importing(file, into: "school/exam-b")
        #expect(copy.questionsAdded == 3 && copy.questionsChanged == 0)
        #expect(copy.changes.map(\.exam) == ["school/exam-b"])
        #expect(try catalogue.questions("exam-a") == before, "the original exam is untouched")
        #expect(try catalogue.questions("exam-b").count == 3)
        // Both exams' questions are live and distinct rows.
        #expect(try catalogue.connection.query("SELECT count(DISTINCT id)::int AS n FROM questions WHERE deleted_at IS NULL").single().decode("n", as: Int.self) == 6)
    }

    @Test("the database holds a question to its domain's exam, whatever a writer says")
    func examFollowsDomain() throws {
        let catalogue = try ExamFixtures.Catalogue()
        try catalogue.importing(Data("::Q1:: 2+2? {=4 ~3}".utf8), into: "school/exam-a")
        let examB = try catalogue.connection.query("SELECT id FROM exams WHERE slug = 'exam-b'").single().decode("id", as: Int.self)
        try catalogue.connection.execute("UPDATE questions SET exam_id = \(examB)")
        #expect(try catalogue.questions("exam-a") == ["gift:Q1 | 2+2? | v1"])
    }
}
