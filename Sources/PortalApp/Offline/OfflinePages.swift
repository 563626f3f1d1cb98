import ExamData
import Foundation
import HTTPServer
import OfflineBundle
import PostgresClient

/// The offline side of the catalogue (DESIGN §6): the manifest, the immutable bundles and the
/// change feeds. Bundles are built once per content version and kept in memory with their gzip
/// form and strong ETag; a request for an old version answers 404 naming the current URL (the
/// client always starts from the manifest, and an immutable URL must never change meaning).
/// Bundles and change feeds carry answer keys, so they go to signed-in students only and are
/// cached privately, never by a shared cache; exam-only questions are never in them.
final class OfflinePages: @unchecked Sendable {
    private struct Entry {
        var version: String
        var url: String
        var bytes: Int
        var files: StaticFiles
    }

    private let pages: PageRenderer
    private let clock: @Sendable () -> Date
    /// Built bundles by exam and content version (an edit names a new one; the old ages out),
    /// within a budget of bytes; none is ever rebuilt while its version is current and kept.
    private let bundles: KeptValues<Entry>

    init(pages: PageRenderer, clock: @escaping @Sendable () -> Date) {
        self.pages = pages
        self.clock = clock
        bundles = KeptValues(budget: 256 << 20, maximumAge: 86_400, patience: 30, clock: clock, size: \.bytes)
    }

    /// An exam a bundle was asked for that is not there (not published, no such exam).
    private struct NoExam: Error {}

    /// The current bundle of an exam, built when its version is new to this instance.
    private func entry(region: String, slug: String, version: Date, _ connection: PostgresConnection) throws -> Entry? {
        do {
            return try bundles.value(region + "/" + slug + "|" + BundleVersion.string(version)) {
                guard let built = try BundleBuilder().bundle(region: region, slug: slug, connection) else { throw NoExam() }
                let url = BundleBuilder.url(region: region, slug: slug, version: built.bundle.version)
                var files = StaticFiles()
                files.add(path: url, bytes: built.bytes, contentType: "application/json")
                return Entry(version: built.bundle.version, url: url, bytes: built.bytes.count, files: files)
            }
        } catch is NoExam {
            return nil
        }
    }

    func manifest(_ request: PortalRequest) throws -> Response {
        struct Item: Encodable {
            var region: String
            var slug: String
            var title: String
            var language: String
            var version: String
            var questions: Int
            var url: String
            var bytes: Int
        }
        struct Manifest: Encodable {
            var format = 1
            var exams: [Item]
        }
        let items = try request.database.run { connection -> [Item] in
            try ExamCatalog().regions(connection).flatMap { region in
                try region.exams.compactMap { exam -> Item? in
                    guard let entry = try entry(region: region.code, slug: exam.slug, version: exam.contentUpdatedAt, connection) else { return nil }
                    return Item(
                        region: region.code, slug: exam.slug, title: exam.title, language: exam.language, version: entry.version,
                        questions: exam.publishedQuestions, url: entry.url, bytes: entry.bytes)
                }
            }
        }
        return try APIResponse.json(Manifest(exams: items), cache: "no-cache")
    }

    func bundle(_ request: PortalRequest, _ user: SessionUser, region: String, file: String) throws -> Response {
        let locale = pages.locale(for: request)
        let parts = file.hasSuffix(".json") ? file.dropLast(5).split(separator: ".", maxSplits: 1).map(String.init) : []
        guard parts.count == 2, BundleVersion.date(parts[1]) != nil else {
            return APIResponse.problem(pages.message("offline.bad_bundle_name", locale: locale), status: .notFound, cache: "no-cache")
        }
        let slug = parts[0]
        let current = try request.database.run { connection -> Entry? in
            guard let version = try ExamCatalog().examVersion(region: region, slug: slug, connection) else { return nil }
            return try entry(region: region, slug: slug, version: version, connection)
        }
        guard let current else {
            return APIResponse.noExam(region: region, slug: slug, pages: pages, locale: locale, cache: "no-cache")
        }
        guard current.version == parts[1], var response = current.files.response(for: request.head) else {
            return APIResponse.problem(pages.message("offline.old_bundle", locale: locale), status: .notFound, current: current.url, cache: "no-cache")
        }
        // The browser keeps it for good (the URL names the version); nothing shared keeps it.
        response.headers.set("Cache-Control", "private, max-age=31536000, immutable")
        return response
    }

    func changes(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress) throws -> Response {
        let locale = pages.locale(for: request)
        guard let since = request.query["since"].flatMap(BundleVersion.date), since <= clock().addingTimeInterval(60) else {
            return APIResponse.problem(
                pages.message("offline.bad_since", locale: locale, ["value": String((request.query["since"] ?? "").prefix(20))]), status: .badRequest, cache: "no-cache")
        }
        let region = exam.region, slug = exam.slug
        guard let feed = try request.database.run({ try BundleBuilder().changes(region: region, slug: slug, since: since, now: clock(), $0) }) else {
            return APIResponse.noExam(region: region, slug: slug, pages: pages, locale: locale, cache: "no-cache")
        }
        return try APIResponse.json(feed, cache: "no-cache")
    }
}
