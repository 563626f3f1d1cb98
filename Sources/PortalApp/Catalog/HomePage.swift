import ExamData
import Foundation
import HTTPServer
import PostgresClient

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

    static func handler(pages: PageRenderer, cache: PageCache) -> @Sendable (PortalRequest) throws -> Response {
        { request in
            let locale = pages.locale(for: request)
            // Pages for visitors are shared; a signed-in page names its reader, so it is not.
            let key = request.user == nil ? "home|\(locale)" : nil
            let bytes = try cache.freshOrStale(key: key) { try request.database.run { connection -> [UInt8] in
                let catalog = ExamCatalog()
                let version = try catalog.catalogVersion(connection) ?? .distantPast
                return try cache.page(key: key, version: version, now: pages.clock()) {
                    let regions = try catalog.regions(connection).map { region in
                        Region(
                            code: region.code, name: region.name, examCount: region.exams.count,
                            exams: region.exams.map { exam in
                                Exam(
                                    regionCode: region.code, slug: exam.slug, title: exam.title, language: exam.language,
                                    languageName: pages.message("language.\(exam.language)", locale: locale),
                                    questions: exam.publishedQuestions, updatedAgo: pages.ago(exam.contentUpdatedAt, locale: locale))
                            })
                    }
                    // A shared page is rendered for nobody in particular: no name, no token.
                    return try pages.render("home", HomePage(regions: regions), locale: locale, viewer: key == nil ? request.viewer : .anonymous)
                }
            } }
            return .html(bytes)
        }
    }
}
