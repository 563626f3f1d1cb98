import ExamData
import Foundation
import HTTPServer
import TemplateEngine

/// `GET /`: the regions and their exams.
struct HomePage: Encodable {
    struct Region: Encodable {
        var code: String
        var name: String
        var examCount: Int
        var exams: [Exam]
    }

    struct Exam: Encodable {
        var regionCode: String
        var slug: String
        var title: String
        var language: String
        var languageName: String
        var questions: Int
        var updatedAgo: String
    }

    var regions: [Region]

    /// Where a reader's page is kept: by the catalogue's version.
    static func readerKey(catalogue: Date) -> String { "home|\(catalogue.timeIntervalSince1970)" }

    /// A reader's kept page, when the catalogue's version is remembered (see `ReaderCopies`).
    static func readerCopy(_ request: Request, _ known: ReaderCopies.Known) -> String? {
        known.catalogue.map { readerKey(catalogue: $0) }
    }

    /// Where a visitor's copy of the page is kept (see `VisitorCopies`).
    static func visitorCopy(_ request: Request) -> (page: String, versions: [String])? { ("home", [SharedVersions.contentKey("catalogue")]) }

    /// The catalogue is one fragment, kept by the catalogue's version: a visitor's whole page
    /// is kept, a signed-in reader's page is that fragment under their own header.
    static func handler(pages: PageRenderer, cache: PageCache, versions: SharedVersions) -> @Sendable (PortalRequest) throws -> Response {
        { request in
            let locale = pages.locale(for: request)
            // Pages for visitors are shared; a signed-in page names its reader, so it is not.
            let key = request.user == nil ? "home|\(locale)" : nil
            let page = try cache.freshOrStale(key: key) {
                let catalog = ExamCatalog()
                let version = try versions.content("catalogue") { try request.database.shared { try catalog.catalogVersion($0) } } ?? .distantPast
                let shared = Fragment(key: "home|\(version.timeIntervalSince1970)") {
                    HomePage(regions: try request.database.run { try catalog.regions($0) }.map { region in
                        Region(
                            code: region.code, name: region.name, examCount: region.exams.count,
                            exams: region.exams.map { exam in
                                Exam(
                                    regionCode: region.code, slug: exam.slug, title: exam.title, language: exam.language,
                                    languageName: pages.message("language.\(exam.language)", locale: locale),
                                    questions: exam.publishedQuestions, updatedAgo: pages.ago(exam.contentUpdatedAt, locale: locale))
                            })
                    })
                }
                if let user = request.user {
                    // A reader's page is the catalogue under their own header: kept whole by its version.
                    return try pages.keptForReader(request, user, key: readerKey(catalogue: version)) {
                        try pages.render("home", FragmentsOnly(), locale: locale, viewer: request.viewer, fragments: ["catalogue": shared])
                    }
                }
                return KeptPage(bytes: try cache.page(key: key, version: version, now: pages.clock()) {
                    // A shared page is rendered for nobody in particular: no name, no token.
                    try pages.render("home", FragmentsOnly(), locale: locale, viewer: .anonymous, fragments: ["catalogue": shared])
                }, isGzip: false)
            }
            return page.html
        }
    }
}
