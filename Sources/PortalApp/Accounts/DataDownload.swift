import ContentPackage
import ExamData
import Foundation
import HTTPServer

/// `GET /me/data.zip`: everything the portal keeps about the signed-in student, theirs to take
/// (GDPR articles 15 and 20) — a zip of JSON files, one per part (`PersonalDataExport`), the
/// answers and study sessions also as CSV for a spreadsheet, and a README saying what each
/// file holds. Read as the student themselves, in one flight; never kept.
struct DataDownload: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date

    func download(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        guard let contents = try PersonalDataExport().read({ try request.database.read($0) }) else {
            throw HTTPError(.notFound, pages.message("error.no_account", for: request))
        }
        var entries = [Zip.Entry(path: "README.txt", bytes: Array(pages.message("account.data_readme", for: request).utf8))]
        entries += contents.parts.map { Zip.Entry(path: $0.name + ".json", bytes: Array($0.json.utf8)) }
        entries += contents.tables.map { Zip.Entry(path: $0.name + ".csv", bytes: CSVWriter.document($0.rows)) }
        let day = LocalDates.day(of: clock())
        var response = Response(status: .ok, headers: ["Content-Type": "application/zip"], body: .bytes(Zip.archive(entries)))
        response.headers.add("Content-Disposition", "attachment; filename=\"study-portal-\(user.userID.uuidString.prefix(8).lowercased())-\(day).zip\"")
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
