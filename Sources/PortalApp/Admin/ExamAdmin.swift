import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// `/admin/exams`: admins shape the catalogue in the browser — regions, exams (title, language,
/// description, pass mark, time limit, question count), and each exam's blueprint saved whole,
/// its weights adding up to 100%. A new exam is a draft students do not see until it is
/// published. Every change is audited.
struct ExamAdmin: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date

    // MARK: The list

    /// `GET /admin/exams`.
    func list(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try showList(request, ExamListPage.Values(), problems: [], status: .ok)
    }

    /// `POST /admin/regions`.
    func createRegion(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        var form = try request.form(ExamAdminForms.Region.self)
        var values = ExamListPage.Values()
        (values.regionCode, values.regionName) = (form.code, form.name)
        guard form.problems.isEmpty else { return try showList(request, values, problems: form.problems, status: .unprocessableContent) }
        do {
            let location = try SentOnce.send(request) { connection -> String in
                guard try ExamShaping().createRegion(code: form.code, name: form.name, connection) else { throw KeyTaken() }
                try AdminStore().audit(actorName: user.displayName, action: "region.create", target: form.code, details: ["name": form.name], at: clock(), connection)
                return "/admin/exams?made=\(form.code)#new-exam"
            }?.location
            return .redirect(to: location ?? "/admin/exams")
        } catch _ as KeyTaken {
            form.problems.append(FormProblem("region_code", "admin.exams.code_taken"))
            return try showList(request, values, problems: form.problems, status: .unprocessableContent)
        }
    }

    /// `POST /admin/exams`: a new draft exam, then its page for the blueprint.
    func createExam(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(ExamAdminForms.NewExam.self)
        var values = ExamListPage.Values(settings: form.settings.settings, region: form.region, slug: form.slug, scale: form.settings.scale)
        values.timeLimit = form.settings.settings.timeLimitSeconds / 60
        var problems = form.settings.problems
        guard problems.isEmpty else { return try showList(request, values, problems: problems, status: .unprocessableContent) }
        do {
            let location = try SentOnce.send(request) { connection -> String in
                guard try ExamShaping().createExam(region: form.region, slug: form.slug, form.settings.settings, connection) != nil else {
                    throw KeyTaken()
                }
                try AdminStore().audit(
                    actorName: user.displayName, action: "exam.create", target: "\(form.region)/\(form.slug)", details: ["title": form.settings.settings.title],
                    at: clock(), connection)
                return "/admin/exams/\(form.region)/\(form.slug)"
            }?.location
            return .redirect(to: location ?? "/admin/exams")
        } catch _ as KeyTaken {
            problems.append(FormProblem("slug", "admin.exams.slug_taken"))
            return try showList(request, values, problems: problems, status: .unprocessableContent)
        }
    }

    private func showList(_ request: PortalRequest, _ values: ExamListPage.Values, problems: [FormProblem], status: HTTPStatus) throws -> Response {
        let regions = try request.database.run { try ExamShaping().overview($0) }
        let locale = pages.locale(for: request)
        let page = ExamListPage(regions: regions, values: values, problems: problems, made: request.query["made"], pages: pages, locale: locale)
        return try pages.privatePage("admin/exams", page, request, status: status)
    }

    // MARK: One exam

    /// `GET /admin/exams/{region}/{exam}`.
    func page(_ request: PortalRequest, _ user: SessionUser, region: String, slug: String) throws -> Response {
        let exam = try shaped(request, region, slug)
        let notice = request.query["saved"].map { "admin.exams.saved_" + ($0 == "blueprint" ? "blueprint" : $0 == "published" ? "published" : "settings") }
        return try show(request, ExamAdminPage(exam, notice: notice, pages: pages, locale: pages.locale(for: request)), status: .ok)
    }

    /// `POST /admin/exams/{region}/{exam}`: its settings.
    func save(_ request: PortalRequest, _ user: SessionUser, region: String, slug: String) throws -> Response {
        let form = try request.form(ExamAdminForms.Settings.self)
        let exam = try shaped(request, region, slug)
        let locale = pages.locale(for: request)
        guard form.problems.isEmpty else {
            var page = ExamAdminPage(exam, notice: nil, pages: pages, locale: locale)
            page.typed(form, pages: pages, locale: locale)
            return try show(request, page, status: .unprocessableContent)
        }
        // Sent again as it was (a reload of the answer), it changes nothing and writes no audit entry.
        if form.settings != exam.settings { try request.database.transaction { connection in
            try ExamShaping().save(examID: exam.id, form.settings, connection)
            try AdminStore().audit(
                actorName: user.displayName, action: "exam.edit", target: "\(region)/\(slug)", details: ["title": form.settings.title], at: clock(), connection)
        } }
        return .redirect(to: "/admin/exams/\(region)/\(slug)?saved=settings")
    }

    /// `POST /admin/exams/{region}/{exam}/blueprint`: the domains and their weights, whole.
    func saveBlueprint(_ request: PortalRequest, _ user: SessionUser, region: String, slug: String) throws -> Response {
        let form = try request.form(ExamAdminForms.BlueprintRows.self)
        let exam = try shaped(request, region, slug)
        // The form names every domain the exam has, and no other: one shown before a domain was
        // added (another tab, another admin) is out of date.
        guard Set(form.rows.compactMap(\.id)) == Set(exam.domains.compactMap(\.id)) else { throw PageRefusal(.conflict, "admin.exams.bad_blueprint") }
        guard form.problems.isEmpty else {
            var page = ExamAdminPage(exam, notice: nil, pages: pages, locale: pages.locale(for: request))
            page.typed(form, pages: pages, locale: pages.locale(for: request))
            return try show(request, page, status: .unprocessableContent)
        }
        let current = Dictionary(uniqueKeysWithValues: exam.domains.map { ($0.slug, $0) })
        let changes = form.domains.filter { domain in current[domain.slug].map { $0.title != domain.title || $0.weight != domain.weight } ?? true }
        if !changes.isEmpty { try request.database.transaction { connection in
            try ExamShaping().saveBlueprint(examID: exam.id, changes, connection)
            try AdminStore().audit(
                actorName: user.displayName, action: "exam.blueprint", target: "\(region)/\(slug)",
                details: ["domains": String(form.domains.count)], at: clock(), connection)
        } }
        return .redirect(to: "/admin/exams/\(region)/\(slug)?saved=blueprint#blueprint")
    }

    /// `POST /admin/exams/{region}/{exam}/publish`: shown to students, or taken back to a draft.
    func publish(_ request: PortalRequest, _ user: SessionUser, region: String, slug: String) throws -> Response {
        let form = try request.form(ExamAdminForms.Publication.self)
        let exam = try shaped(request, region, slug)
        if form.published {
            // Students get an exam they can take: a blueprint whole, and questions in it.
            guard !exam.domains.isEmpty, Blueprint.isWhole(exam.domains.map(\.weight)) else {
                throw PageRefusal(.unprocessableContent, "admin.exams.publish_needs_blueprint")
            }
        }
        if form.published != exam.published { try request.database.transaction { connection in
            try ExamShaping().setPublished(examID: exam.id, form.published, connection)
            try AdminStore().audit(
                actorName: user.displayName, action: form.published ? "exam.publish" : "exam.unpublish", target: "\(region)/\(slug)", details: [:],
                at: clock(), connection)
        } }
        return .redirect(to: "/admin/exams/\(region)/\(slug)?saved=published")
    }

    private func shaped(_ request: PortalRequest, _ region: String, _ slug: String) throws -> ShapedExam {
        guard let exam = try request.database.run({ try ExamShaping().exam(region: region, slug: slug, $0) }) else {
            throw PageRefusal.noExam(region: region, slug: slug)
        }
        return exam
    }

    private func show(_ request: PortalRequest, _ page: ExamAdminPage, status: HTTPStatus) throws -> Response {
        try pages.privatePage("admin/exam", page, request, status: status)
    }
}

/// A key the database already holds (a region's code, an exam's slug in its region).
private struct KeyTaken: Error {}
