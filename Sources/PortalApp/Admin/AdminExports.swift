import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// An exam's published questions exported as JSON, Moodle XML or a QTI package.
extension AdminPages {
    /// The exam's published questions as a QTI 3.0 or 2.1 content package (`QTIPackage`).
    func exportQTI(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress, version3: Bool) throws -> Response {
        try download(request, exam, type: "application/zip", suffix: version3 ? "qti.zip" : "qti21.zip") { QTIPackage.archive(SiteImages(publicDirectory: publicDirectory).including($0), version3: version3) }
    }

    /// The exam as Moodle XML (`MoodleXMLExport`), for a school's Moodle question bank.
    func exportMoodle(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress) throws -> Response {
        try download(request, exam, type: "application/xml; charset=utf-8", suffix: "moodle.xml") { Array(MoodleXMLExport.document(SiteImages(publicDirectory: publicDirectory).including($0)).utf8) }
    }

    /// The exam in the import format (format 1).
    func export(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress) throws -> Response {
        try download(request, exam, type: "application/json", suffix: "json") { document in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(document))
        }
    }

    /// The exam at `exam`, written by `write`, as an attachment named `region-exam.suffix` (404
    /// for an exam there is not).
    private func download(
        _ request: PortalRequest, _ exam: ExamAddress, type: String, suffix: String, _ write: (ContentDocument) throws -> [UInt8]
    ) throws -> Response {
        let region = exam.region, slug = exam.slug
        guard let document = try request.database.transaction({ try ContentImport().export(region: region, exam: slug, $0) }) else {
            throw PageRefusal.noExam(region: region, slug: slug)
        }
        var response = Response(status: .ok, headers: ["Content-Type": type], body: .bytes(try write(document)))
        response.headers.add("Content-Disposition", "attachment; filename=\"\(region)-\(slug).\(suffix)\"")
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
