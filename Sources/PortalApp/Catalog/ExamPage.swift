import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// `GET /exams/{region}/{exam}`: domains, weights, counts by difficulty and the start form.
struct ExamPage: Encodable {
    struct Exam: Encodable {
        var regionCode: String
        var regionName: String
        var slug: String
        var title: String
        var description: String
        var language: String
        var passMark: Int
        var minutes: Int
        var questionCount: Int
        var bankSize: Int
        var updatedAgo: String
    }

    struct Level: Encodable {
        var level: Int
        var label: String
        var selected: Bool
        var shown: Bool
        var isFrom: Bool
        var isTo: Bool
    }

    struct Domain: Encodable {
        var slug: String
        var title: String
        var weight: Int
        var counts: [Int]
        var total: Int
    }

    struct Filter: Encodable {
        var label: String
        var total: Int
    }

    struct ClassOption: Encodable {
        var id: String
        var name: String
    }

    var exam: Exam
    var levels: [Level]
    var domains: [Domain]
    var filter: Filter?
    /// For teachers: the share form, and the classes a link may be for.
    var canShare = false
    var classes: [ClassOption] = []

    /// Reads `?difficulty=`: absent or empty for all, else a whole number 1–5.
    static func difficulty(from request: PortalRequest, pages: PageRenderer, locale: String) throws -> Int? {
        guard let text = request.query["difficulty"], !text.isEmpty else { return nil }
        guard let level = Int(text), (1...5).contains(level) else {
            throw HTTPError(.badRequest, pages.message("error.bad_difficulty", locale: locale, ["value": String(text.prefix(20))]))
        }
        return level
    }

    static func handler(pages: PageRenderer, cache: PageCache) -> @Sendable (PortalRequest) throws -> Response {
        { request in
            let locale = pages.locale(for: request)
            let difficulty = try difficulty(from: request, pages: pages, locale: locale)
            let region = request.parameter("region"), slug = request.parameter("exam")
            let key = request.user == nil ? "exam|\(region)|\(slug)|\(difficulty ?? 0)|\(locale)" : nil
            let bytes = try cache.freshOrStale(key: key) { try request.database.run { connection -> [UInt8] in
                let catalog = ExamCatalog()
                guard let version = try catalog.examVersion(region: region, slug: slug, connection) else {
                    throw HTTPError(.notFound, pages.message("error.no_exam", locale: locale, ["exam": slug, "region": region]))
                }
                return try cache.page(key: key, version: version, now: pages.clock()) {
                    guard let detail = try catalog.exam(region: region, slug: slug, connection) else {
                        throw HTTPError(.notFound, pages.message("error.no_exam", locale: locale, ["exam": slug, "region": region]))
                    }
                    var page = ExamPage(detail, difficulty: difficulty, pages: pages, locale: locale)
                    if let user = request.user, user.role.teaches {
                        page.canShare = true
                        // The request's one connection, already in its transaction.
                        page.classes = try SchoolStore().taughtClasses(connection).map { ClassOption(id: $0.id.uuidString.lowercased(), name: $0.name) }
                    }
                    // A shared page is rendered for nobody in particular: no name, no token.
                    return try pages.render("exams/show", page, locale: locale, viewer: key == nil ? request.viewer : .anonymous)
                }
            } }
            return .html(bytes)
        }
    }

    init(_ detail: ExamDetail, difficulty: Int?, pages: PageRenderer, locale: String) {
        exam = Exam(
            regionCode: detail.regionCode, regionName: detail.regionName, slug: detail.slug, title: detail.title,
            description: detail.description, language: detail.language, passMark: detail.passMark,
            minutes: detail.timeLimitSeconds / 60, questionCount: detail.questionCount,
            bankSize: detail.domains.reduce(0) { $0 + $1.total }, updatedAgo: pages.ago(detail.contentUpdatedAt, locale: locale))
        levels = (1...5).map { level in
            Level(
                level: level, label: pages.message("difficulty.\(level)", locale: locale), selected: level == difficulty,
                shown: difficulty == nil || difficulty == level, isFrom: level == (difficulty ?? 1), isTo: level == (difficulty ?? 5))
        }
        domains = detail.domains.map { domain in
            let counts = difficulty.map { [domain.countsByDifficulty[$0 - 1]] } ?? domain.countsByDifficulty
            return Domain(slug: domain.slug, title: domain.title, weight: domain.weight, counts: counts, total: counts.reduce(0, +))
        }
        filter = difficulty.map { level in
            Filter(label: "\(level) · " + pages.message("difficulty.\(level)", locale: locale), total: domains.reduce(0) { $0 + $1.total })
        }
    }
}
