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

    /// How the page is kept: by the catalogue's version, a copy per language for visitors and
    /// one per sign-in for readers.
    static let cached = CachedPage(name: "home", dependsOn: [.catalogue])

    /// The catalogue is one fragment, kept by the catalogue's version: a visitor's whole page
    /// is kept, a signed-in reader's page is that fragment under their own header.
    static func handler(pages: PageRenderer, keeper: PageKeeper) -> @Sendable (PortalRequest) throws -> Response {
        { request in
            let locale = pages.locale(for: request)
            return try keeper.respond(request, cached) { versions, viewer in
                let catalog = ExamCatalog()
                let shared = Fragment(key: "home|\(versions.shared.timeIntervalSince1970)") {
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
                return try pages.render("home", FragmentsOnly(), locale: locale, viewer: viewer, fragments: ["catalogue": shared])
            }
        }
    }
}
