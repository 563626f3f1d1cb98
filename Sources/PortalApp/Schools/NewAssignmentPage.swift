import ExamData
import Foundation
import HTTPServer
import Identifiers

/// `/teach/classes/{id}/assignments/new`: setting a class an assignment from its own page. First
/// the exam (every exam of the catalogue, by region), then the same form as the exam page's
/// share panel with this class chosen: its mode, domains, difficulty, count, due day and attempts.
struct NewAssignmentPage: Encodable {
    struct ExamChoice: Encodable {
        var href: String
        var title: String
        var language: String
        var questions: Int
    }

    struct RegionChoice: Encodable {
        var name: String
        var exams: [ExamChoice]
    }

    var classID: String
    var className: String
    var classHref: String
    /// Step one: the exams to choose from.
    var regions: [RegionChoice]
    /// Step two: the form for the chosen exam.
    var share: ExamPage.SharePanel?
}

extension SchoolPages {
    /// `GET /teach/classes/{id}/assignments/new[?exam=region/slug]`.
    func newAssignment(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let chosen = request.query["exam"].map { $0.split(separator: "/", maxSplits: 1).map(String.init) }
        let (summary, regions, detail) = try request.database.transaction { connection in
            guard let summary = try SchoolStore().taughtClass(id: id, connection) else { throw PageRefusal(.notFound, "school.not_found") }
            let catalog = ExamCatalog()
            guard let chosen else { return (summary, try catalog.regions(connection), nil as ExamDetail?) }
            guard chosen.count == 2, let detail = try catalog.exam(region: chosen[0], slug: chosen[1], connection) else {
                throw PageRefusal(.notFound, "school.no_such_exam")
            }
            return (summary, [RegionSummary](), detail)
        }
        let classHref = "/teach/classes/" + id.lowercasedText
        var page = NewAssignmentPage(
            classID: id.lowercasedText, className: summary.name, classHref: classHref,
            regions: regions.map { region in
                NewAssignmentPage.RegionChoice(name: region.name, exams: region.exams.filter { $0.publishedQuestions > 0 }.map { exam in
                    NewAssignmentPage.ExamChoice(
                        href: classHref + "/assignments/new?exam=" + LocalPath.escaped(region.code + "/" + exam.slug), title: exam.title,
                        language: exam.language, questions: exam.publishedQuestions)
                })
            }.filter { !$0.exams.isEmpty },
            share: nil)
        if let detail {
            let exam = ExamPage(detail, difficulty: nil, pages: pages, locale: locale)
            page.share = ExamPage.SharePanel(
                exam: exam.exam, levels: exam.levels, domains: exam.domains,
                classes: [ExamPage.ClassOption(id: id.lowercasedText, name: summary.name, selected: true)])
        }
        return try pages.privatePage("teach/new-assignment", page, request)
    }
}
