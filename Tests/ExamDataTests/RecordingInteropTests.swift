import ContentPackage
import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// Recordings in a question's text through the exchange formats: QTI 2.1 carries them as
/// `<object>`, QTI 3.0 and Moodle XML as `<audio>` and `<video>`, each with its transcript as
/// the fallback, and every round trip gives the same tree and the same file back.
@Suite("Recordings in imports and exports", .serialized, .onTestThreads)
struct RecordingInteropTests {

    @Test("a question that plays an audio and a video comes back from every export with both, and their transcripts", arguments: ["moodle", "qti3", "qti21", "json"])
    func roundTrip(_ format: String) throws {
        let catalogue = try ExamFixtures.Catalogue()
        #expect(ContentImport().problems(RecordingDocuments.document).isEmpty, "\(ContentImport().problems(RecordingDocuments.document))")
        _ = try catalogue.connection.withTransaction { try ContentImport().apply(RecordingDocuments.document, $0) }
        let exported = try catalogue.export("exam-a")
        #expect(exported.images?.count == 2)
        let file: Data
        switch format {
        case "json":
            file = try JSONEncoder().encode(ExamFixtures.Catalogue.formatOne(exported, as: "exam-b"))
        case "moodle": file = Data(MoodleXMLExport.document(exported).utf8)
        default:
            let archive = QTIPackage.archive(exported, version3: format == "qti3")
            let item = try #require(try Zip.entries(archive).first { $0.path.hasPrefix("items/") })
            let xml = String(decoding: item.bytes, as: UTF8.self)
            #expect(format == "qti21" ? xml.contains(#"type="audio/mpeg">Bonjour, je m&#39;appelle Claire.</object>"#) || xml.contains(#"type="audio/mpeg">Bonjour, je m'appelle Claire.</object>"#)
                                       : xml.contains("<audio controls=\"controls\" src=\"../images/"), "\(xml)")
            file = Data(archive)
        }
        try catalogue.importing(file, into: "school/exam-b")
        let (before, after) = (try catalogue.export("exam-a"), try catalogue.export("exam-b"))
        let stem = { (document: ContentDocument) in document.regions[0].exams[0].domains.flatMap(\.questions).first?.stem ?? "" }
        #expect(stem(after) == stem(before), "\(format)")
        #expect(after.images?.map(\.path).sorted() == before.images?.map(\.path).sorted())
    }
}
