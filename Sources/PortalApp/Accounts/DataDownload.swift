import ContentPackage
import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// `GET /me/data.zip`: everything the portal keeps about the signed-in student, theirs to take
/// (GDPR articles 15 and 20) — a zip of JSON files, one per part (`PersonalDataExport`), the
/// answers and study sessions also as CSV for a spreadsheet, and a README saying what each
/// file holds. Read as the student themselves, in one flight.
///
/// A history of up to `inlineAnswers` answers is made at once and never kept. A larger one is
/// made in the background, still as the student (their session's own credentials on a
/// connection of its own, one archive at a time per instance): the page says it is being
/// prepared and looks again by itself; the archive waits in the database (`data_exports`) until
/// the student downloads it, once.
struct DataDownload: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    /// Histories larger than this are made in the background (`DATA_EXPORT_INLINE_ANSWERS`).
    let inlineAnswers: Int
    /// One archive at a time on this instance, off the request's worker.
    private let builder = DispatchQueue(label: "data-exports", qos: .utility)

    init(pages: PageRenderer, clock: @escaping @Sendable () -> Date, inlineAnswers: Int) {
        self.pages = pages
        self.clock = clock
        self.inlineAnswers = inlineAnswers
    }

    struct PreparingPage: Encodable {}

    func download(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let store = DataExportStore()
        let locale = pages.locale(for: request)
        let filename = "study-portal-\(user.userID.uuidString.prefix(8).lowercased())-\(LocalDates.day(of: clock())).zip"
        guard try request.database.run({ try store.answerCount($0) }) > inlineAnswers else {
            guard let archive = try Self.archive(locale: locale, pages: pages, { try request.database.read($0) }) else {
                throw PageRefusal(.notFound, "error.no_account")
            }
            return Self.zipResponse(archive, filename: filename)
        }
        if let ready = try request.database.transaction({ try store.take($0) }) {
            return Self.zipResponse(ready.archive, filename: ready.filename)
        }
        // Being made already (by this or another instance), unless it was asked for so long ago
        // that its maker must have stopped.
        if let state = try request.database.run({ try store.state($0) }), state.readyAt == nil,
           clock().timeIntervalSince(state.requestedAt) < 600 {
            return try preparing(request)
        }
        let requestedAt = try request.database.transaction { try store.request($0) }
        guard let token = request.database.sessionToken else {
            throw PageRefusal(.notFound, "error.no_account")
        }
        let pool = request.database.pool, pages = self.pages
        builder.async {
            let database = RequestDatabase(pool: pool)
            database.use(sessionToken: token)
            defer { database.release() }
            do {
                guard let archive = try Self.archive(locale: locale, pages: pages, { try database.read($0) }) else { return }
                _ = try database.transaction { try store.store(archive: archive, filename: filename, requestedAt: requestedAt, $0) }
            } catch {
                FileHandle.standardError.write(Data("data export: an archive could not be made: \(error)\n".utf8))
            }
        }
        return try preparing(request)
    }

    /// The archive's bytes, read through `read` (as the student); nil for nobody.
    static func archive(locale: String, pages: PageRenderer, _ read: ([SQL]) throws -> [QueryResult]) throws -> [UInt8]? {
        guard let contents = try PersonalDataExport().read(read) else { return nil }
        var entries = [Zip.Entry(path: "README.txt", bytes: Array(pages.message("account.data_readme", locale: locale).utf8))]
        entries += contents.parts.map { Zip.Entry(path: $0.name + ".json", bytes: Array($0.json.utf8)) }
        entries += contents.tables.map { Zip.Entry(path: $0.name + ".csv", bytes: CSVWriter.document($0.rows)) }
        return Zip.archive(entries)
    }

    static func zipResponse(_ archive: [UInt8], filename: String) -> Response {
        var response = Response(status: .ok, headers: ["Content-Type": "application/zip"], body: .bytes(archive))
        response.headers.add("Content-Disposition", "attachment; filename=\"\(filename)\"")
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// 202: being prepared; the page looks again every ten seconds.
    private func preparing(_ request: PortalRequest) throws -> Response {
        var response = try pages.privatePage("me/data_preparing", PreparingPage(), request, status: .accepted)
        response.headers.set("Retry-After", "10")
        return response
    }
}
