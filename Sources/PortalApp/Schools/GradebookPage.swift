import ExamData
import Foundation
import HTTPServer
import Identifiers

/// `/teach/classes/{id}/gradebook`: the class's pupils against its assignments, each cell the
/// pupil's first finished attempt (score, late), the attempts they started, and a link to their
/// page at that assignment; and the same grid as CSV (`gradebook.csv`).
struct GradebookPage: Encodable {
    struct Column: Encodable {
        var id: String
        var title: String
        var due: String?
    }

    struct Cell: Encodable {
        var href: String
        /// "85%", "started", or "—".
        var text: String
        var late: Bool
        var attempts: String?
    }

    struct Row: Encodable {
        var name: String
        var username: String
        var href: String
        var cells: [Cell]
    }

    var classID: String
    var className: String
    var classHref: String
    var columns: [Column]
    var rows: [Row]
    var hasRows: Bool
    var hasColumns: Bool

    init(_ book: Gradebook, pages: PageRenderer, locale: String, zone: TimeZone) {
        classID = book.summary.id.lowercasedText
        className = book.summary.name
        classHref = "/teach/classes/" + classID
        columns = book.links.map { link in
            Column(id: link.id.lowercasedText, title: link.title, due: link.dueAt.map { LocalDates.dateTime($0, locale: locale, zone: zone) })
        }
        let started = pages.message("school.grade_started", locale: locale)
        rows = book.pupils.map { pupil in
            let href = "/teach/classes/\(book.summary.id.lowercasedText)/members/\(pupil.member.userID.lowercasedText)"
            return Row(name: pupil.member.displayName, username: pupil.member.username, href: href, cells: book.links.map { link in
                let cell = book.cells[link.id]?[pupil.member.userID]
                let text = cell?.attempt.scorePercent.map { Percentages.format($0 / 100, locale: locale) } ?? ((cell?.attempt.started ?? 0) > 0 ? started : "—")
                return Cell(
                    href: href + "#assignment-" + link.id.lowercasedText, text: text, late: cell?.late ?? false,
                    attempts: (cell?.attempt.started ?? 0) > 1 ? pages.message("school.grade_attempts", locale: locale, ["count": String(cell!.attempt.started)]) : nil)
            })
        }
        hasRows = !rows.isEmpty
        hasColumns = !columns.isEmpty
    }
}

extension SchoolPages {
    /// `GET /teach/classes/{id}/gradebook`, read in one flight, and kept as the class page is:
    /// by the class's version, so a teacher coming back to it while nothing changed reads nothing.
    func gradebook(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let statements = Gradebook.statements(classID: id, collation: .of(locale: locale))
        let cached = Self.cachedGradebook(id)
        let (versions, fresh) = try keeper.versions(request, cached, alongside: statements)
        return try keeper.readerPage(request, user, cached, versions) {
            guard let book = try Gradebook(fresh ?? request.database.read(statements)) else { throw PageRefusal(.notFound, "school.not_found") }
            let page = GradebookPage(book, pages: pages, locale: locale, zone: TimeZone(identifier: user.timeZone) ?? .gmt)
            return try pages.render("teach/gradebook", page, for: request)
        }
    }

    /// How a class's gradebook is kept: for its teacher's sign-in, by the class's version.
    static func cachedGradebook(_ id: UUID) -> CachedPage {
        CachedPage(name: "gradebook|\(id.lowercasedText)", dependsOn: [.schoolClass(id)], visitors: .builtEachTime)
    }

    /// `GET /teach/classes/{id}/gradebook.csv`: the grid a spreadsheet opens — a row a pupil, for
    /// each assignment its score (blank when not finished), its attempts and whether it was late;
    /// headers in the teacher's language, numbers as data.
    func gradebookCSV(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        guard let book = try Gradebook(request.database.read(Gradebook.statements(classID: id, collation: .of(locale: "en")))) else {
            throw PageRefusal(.notFound, "school.not_found")
        }
        let locale = pages.locale(for: request)
        func say(_ key: String, _ arguments: [String: String] = [:]) -> String { pages.message("school.csv." + key, locale: locale, arguments) }
        var header = [say("student"), say("username")]
        for link in book.links { header += [link.title, say("attempts_of", ["title": link.title]), say("late_of", ["title": link.title])] }
        var rows = [header]
        let yes = pages.message("school.yes", locale: locale)
        for pupil in book.pupils {
            var row = [pupil.member.displayName, pupil.member.username]
            for link in book.links {
                let cell = book.cells[link.id]?[pupil.member.userID]
                row += [cell?.attempt.scorePercent.map { String(format: "%.2f", $0) } ?? "", String(cell?.attempt.started ?? 0), cell?.late == true ? yes : ""]
            }
            rows.append(row)
        }
        var response = Response(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8"], body: .bytes(CSVWriter.document(rows)))
        response.headers.add("Content-Disposition", "attachment; filename=\"gradebook.csv\"")
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
