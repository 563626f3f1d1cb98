import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode
import TemplateEngine

/// `/teach` and a class's page: a teacher's classes, their members, assignments and progress.
extension SchoolPages {
    func teach(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try pages.privatePage("teach/index", try teachPage(request), request)
    }

    private func teachPage(_ request: PortalRequest) throws -> TeachPage {
        let read = try request.database.read([SchoolStore.taughtClassesStatement, SchoolStore.shareLinksStatement(classID: nil)])
        return TeachPage(
            classes: try SchoolStore.taughtClasses(read[0]), links: try read[1].rows.map(SchoolStore.shareLink), pages: pages, locale: pages.locale(for: request))
    }

    /// `POST /teach/classes`: the class is made once per showing of the form (a second send
    /// leads to the same class); a refused name comes back beside its field with what was typed.
    func createClass(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(ClassForm.self)
        let (name, school) = (form.name, form.school)
        func again(_ edit: (inout TeachPage) -> Void) throws -> Response {
            var page = try teachPage(request)
            (page.className, page.schoolName) = (form.typedName, form.typedSchool)
            edit(&page)
            return try pages.privatePage("teach/index", page, request, status: .unprocessableContent)
        }
        if let problem = form.problem {
            let sentence = pages.message(problem.key, for: request, problem.arguments)
            return try again { problem.field == "name" ? ($0.nameError = sentence) : ($0.schoolError = sentence) }
        }
        let location = try SentOnce.send(request, form: form.fields) { connection -> String in
            for _ in 0..<10 {
                if let id = try SchoolStore().createClass(name: name, schoolName: school.isEmpty ? nil : school, joinCode: Crypto.code(length: 8), at: clock(), connection) {
                    return "/teach/classes/\(id.lowercasedText)"
                }
            }
            throw PageRefusal(.serviceUnavailable, "live.no_code")
        }?.location
        if let location { return .redirect(to: location) }
        return try again { $0.nameError = pages.message("error.form_resent", for: request) }
    }

    /// The form that makes a class on `/teach`: its name and school, a problem with either said
    /// beside it.
    struct ClassForm: PostedForm {
        let fields: FormFields
        let name: String
        let school: String
        /// What was typed, shortened, for the form shown again.
        let typedName: String
        let typedSchool: String
        let problem: FormProblem?

        init(_ form: FormReader) throws(PageRefusal) {
            fields = form.fields
            (name, school) = (form.trimmed("name"), form.trimmed("school"))
            (typedName, typedSchool) = (form.quoted("name", length: 200), form.quoted("school", length: 300))
            problem = !(1...120).contains(name.count) ? FormProblem("name", "school.bad_class_name")
                : school.count > 200 ? FormProblem("school", "school.bad_school_name") : nil
        }
    }

    /// A class's page is one fragment, kept for the teacher's session by the class's version
    /// (its members' data versions and its links) for up to a minute: coming back to it costs
    /// one small read until a student answers.
    func classPage(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let joinBase = Self.joinBase(site, request.http), sort = RosterSort(query: request.query["sort"])
        let statements = ClassReading.statements(classID: id, collation: Collation.of(locale: locale))
        // A class the reader may see is kept whole by its version; any other is refused afresh.
        // The version, when not remembered, is read in the same flight as the page.
        let cached = Self.cachedClass(id, joinBase: joinBase, sort: sort)
        let (versions, fresh) = try keeper.versions(request, cached, alongside: statements)
        return try keeper.readerPage(request, user, cached, versions) {
            let version = versions.schoolClass ?? ""
            // Keyed by the session (the fragment carries its form token); kept a minute at most.
            let page = Fragment(key: "\(user.sessionID)|\(id)|\(version)|\(joinBase)|\(sort.rawValue)") { () -> ClassPage in
                let results = try fresh ?? request.database.read(statements)
                guard let reading = try ClassReading(results) else { throw PageRefusal(.notFound, "school.not_found") }
                return ClassPage(reading, joinBase: joinBase, csrfToken: user.csrfToken, sort: sort, pages: pages, locale: locale)
            }
            return try pages.render("teach/class", FragmentsOnly(), locale: locale, viewer: request.viewer, fragments: ["class": page])
        }
    }

    /// How a class's page is kept: for its teacher's sign-in, by the class's version (its
    /// members' data versions and its links), the join link's base (the address the page was
    /// asked by) and the roster's order. Only teachers see it.
    static func cachedClass(_ id: UUID, joinBase: String, sort: RosterSort) -> CachedPage {
        CachedPage(name: "class|\(id.lowercasedText)|\(joinBase)|\(sort.rawValue)", dependsOn: [.schoolClass(id)], visitors: .builtEachTime)
    }

    /// The start of the class's join link, on the address the page was asked by.
    static func joinBase(_ site: SiteAddress, _ request: Request) -> String {
        site.url("/join/", for: request.head, peer: request.remoteAddress)
    }

    /// The question before a student leaves a class at the teacher's hand: who, from which
    /// class, and what it means; without scripts, a page of its own.
    func confirmRemoval(_ request: PortalRequest, _ user: SessionUser, class id: UUID, student: UUID) throws -> Response {
        let page = try request.database.transaction { connection -> RemovalPage in
            let store = SchoolStore()
            guard let summary = try store.taughtClass(id: id, connection) else { throw PageRefusal(.notFound, "school.not_found") }
            guard let member = try store.members(classID: id, connection).first(where: { $0.userID == student }) else {
                throw PageRefusal(.notFound, "school.not_a_member")
            }
            let classHref = "/teach/classes/\(id.lowercasedText)"
            return RemovalPage(
                name: member.displayName, className: summary.name, classHref: classHref,
                action: "\(classHref)/members/\(student.lowercasedText)/remove", csrfToken: user.csrfToken)
        }
        return try pages.privatePage("teach/remove", page, request)
    }

    func remove(_ request: PortalRequest, _ user: SessionUser, class id: UUID, student: UUID) throws -> Response {
        // Only from the page that asked first (an older form, or one made elsewhere, is sent there).
        guard try request.form(Confirmation.self).confirmed else {
            return .redirect(to: "/teach/classes/\(id.lowercasedText)/members/\(student.lowercasedText)/remove")
        }
        try request.database.transaction { connection in
            guard try SchoolStore().taughtClass(id: id, connection) != nil else { throw PageRefusal(.notFound, "school.not_found") }
            _ = try SchoolStore().leave(classID: id, userID: student, at: clock(), connection)
        }
        return .redirect(to: "/teach/classes/\(id.lowercasedText)")
    }

    /// Sets a member's extra time from the class page's form: a current member of a class the
    /// reader teaches; the database checks that too, and records the change.
    func setAccommodation(_ request: PortalRequest, _ user: SessionUser, class id: UUID, student: UUID) throws -> Response {
        let accommodation = try request.form(Accommodation.self)
        try request.database.transaction { connection in
            let store = SchoolStore()
            guard try store.taughtClass(id: id, connection) != nil else { throw PageRefusal(.notFound, "school.not_found") }
            guard try store.members(classID: id, connection).contains(where: { $0.userID == student }) else {
                throw PageRefusal(.notFound, "school.not_a_member")
            }
            _ = try store.setAccommodation(student: student, accommodation, connection)
        }
        return .redirect(to: "/teach/classes/\(id.lowercasedText)/members/\(student.lowercasedText)?saved=1#accommodation-heading")
    }

    func export(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let read = try request.database.read([
            ClassReading.summaryStatement(id), SchoolStore.shareLinksStatement(classID: id), ClassReading.attemptsStatement(id, .of(locale: "en")),
        ])
        guard read[0].first != nil else { throw PageRefusal(.notFound, "school.not_found") }
        let attempts = try ClassReading.attempts(read[2])
        // Headers and yes/no in the teacher's language; numbers and times as data (UTC, ISO 8601).
        let locale = pages.locale(for: request)
        var rows = [["student", "assignment", "exam", "finished", "score", "passed", "minutes", "started"].map {
            pages.message("school.csv." + $0, locale: locale)
        }]
        let yes = pages.message("school.yes", locale: locale), no = pages.message("school.no", locale: locale)
        let iso = ISO8601DateFormatter()
        for link in try read[1].rows.map(SchoolStore.shareLink) {
            for attempt in attempts[link.id] ?? [] {
                rows.append([
                    attempt.displayName, link.title, link.examTitle, attempt.finishedAt.map(iso.string(from:)) ?? "",
                    attempt.scorePercent.map { String(format: "%.2f", $0) } ?? "", attempt.passed.map { $0 ? yes : no } ?? "",
                    attempt.secondsUsed.map { String(format: "%.1f", Double($0) / 60) } ?? "", String(attempt.started),
                ])
            }
        }
        var response = Response(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8"], body: .bytes(CSVWriter.document(rows)))
        response.headers.add("Content-Disposition", "attachment; filename=\"class-results.csv\"")
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
