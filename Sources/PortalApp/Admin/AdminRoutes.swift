import HTTPServer

/// The admin area, for admins only (everyone else finds nothing there): the overview, the
/// question bank and editor, imports and exports, reports, the audit log, accounts and single
/// sign-on providers.
struct AdminRoutes {
    let admin: AdminPages
    let signOn: SSOAdmin
    let teachers: TeacherQueue
    let exams: ExamAdmin

    var routes: [PortalRoute] {
        let admin = self.admin, teachers = self.teachers, exams = self.exams
        return [
            PortalRoute("adminOverview", "GET /admin", .admins) { request, _ in try admin.overview(request, request.member()) },
            PortalRoute("importForm", "GET /admin/import", .admins) { request, _ in try admin.importForm(request, request.member()) },
            PortalRoute("importDocument", "POST /admin/import", .admins, bodyLimit: AdminPages.importLimit) { request, _ in
                try admin.importDocument(request, request.member())
            },
            PortalRoute("examsAdmin", "GET /admin/exams", .admins) { request, _ in try exams.list(request, request.member()) },
            PortalRoute("createRegion", "POST /admin/regions", .admins) { request, _ in try exams.createRegion(request, request.member()) },
            PortalRoute("createExam", "POST /admin/exams", .admins) { request, _ in try exams.createExam(request, request.member()) },
            PortalRoute("examAdmin", "GET /admin/exams/:region/:exam", .admins) { request, p in
                try exams.page(request, request.member(), region: p.exam.region, slug: p.exam.slug)
            },
            PortalRoute("saveExam", "POST /admin/exams/:region/:exam", .admins) { request, p in
                try exams.save(request, request.member(), region: p.exam.region, slug: p.exam.slug)
            },
            PortalRoute("saveBlueprint", "POST /admin/exams/:region/:exam/blueprint", .admins) { request, p in
                try exams.saveBlueprint(request, request.member(), region: p.exam.region, slug: p.exam.slug)
            },
            PortalRoute("publishExam", "POST /admin/exams/:region/:exam/publish", .admins) { request, p in
                try exams.publish(request, request.member(), region: p.exam.region, slug: p.exam.slug)
            },
            PortalRoute("importCheck", "GET /admin/import/:id(uuid)", .admins) { request, p in try admin.importCheck(request, request.member(), id: p.uuid("id")) },
            PortalRoute("importChecked", "POST /admin/import/:id(uuid)", .admins) { request, p in
                try admin.importChecked(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("exportJSON", "GET /admin/exams/:region/:exam/export.json", .admins) { request, p in
                try admin.export(request, request.member(), exam: p.exam)
            },
            PortalRoute("exportMoodle", "GET /admin/exams/:region/:exam/export.moodle.xml", .admins) { request, p in
                try admin.exportMoodle(request, request.member(), exam: p.exam)
            },
            PortalRoute("exportQTI3", "GET /admin/exams/:region/:exam/export.qti.zip", .admins) { request, p in
                try admin.exportQTI(request, request.member(), exam: p.exam, version3: true)
            },
            PortalRoute("exportQTI21", "GET /admin/exams/:region/:exam/export.qti21.zip", .admins) { request, p in
                try admin.exportQTI(request, request.member(), exam: p.exam, version3: false)
            },
            PortalRoute("adminReports", "GET /admin/reports", .admins) { request, _ in try admin.reports(request, request.member()) },
            PortalRoute("resolveReport", "POST /admin/reports/:id(uuid)", .admins) { request, p in
                try admin.resolve(request, request.member(), report: p.uuid("id"))
            },
            PortalRoute("audit", "GET /admin/audit", .admins) { request, _ in try admin.audit(request, request.member()) },
            PortalRoute("signOnAdmin", "GET /admin/sso", .admins) { request, _ in try signOn.page(request, request.member()) },
            PortalRoute("saveProvider", "POST /admin/sso/providers", .admins) { request, _ in try signOn.save(request, request.member()) },
            PortalRoute("users", "GET /admin/users", .admins) { request, _ in try admin.accounts(request, request.member()) },
            PortalRoute("changeAccount", "POST /admin/users/:id(uuid)", .admins) { request, p in
                try admin.changeAccount(request, request.member(), account: p.uuid("id"))
            },
            PortalRoute("teacherRequests", "GET /admin/teachers", .admins) { request, _ in try teachers.page(request, request.member()) },
            PortalRoute("decideTeacherRequest", "POST /admin/teachers/:id(uuid)", .admins) { request, p in
                try teachers.decide(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("createInvitation", "POST /admin/teachers/invitations", .admins) { request, _ in
                try teachers.createInvitation(request, request.member())
            },
            PortalRoute("revokeInvitation", "POST /admin/teachers/invitations/:id(uuid)/revoke", .admins) { request, p in
                try teachers.revokeInvitation(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("changeAccommodation", "POST /admin/users/:id(uuid)/accommodation", .admins) { request, p in
                try admin.changeAccommodation(request, request.member(), account: p.uuid("id"))
            },
            PortalRoute("questionList", "GET /admin/questions", .admins) { request, _ in try admin.questionList(request, request.member()) },
            PortalRoute("publishDrafts", "POST /admin/questions/publish", .admins) { request, _ in try admin.publishDrafts(request, request.member()) },
            PortalRoute("newQuestion", "GET /admin/questions/new", .admins) { request, _ in try admin.editor(request, request.member(), id: nil) },
            PortalRoute("createQuestion", "POST /admin/questions/new", .admins, bodyLimit: AdminPages.editorLimit) { request, _ in
                try admin.saveQuestion(request, request.member(), id: nil)
            },
            PortalRoute("adminQuestion", "GET /admin/questions/:id(uuid)", .admins) { request, p in
                try admin.question(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("editQuestion", "GET /admin/questions/:id(uuid)/edit", .admins) { request, p in
                try admin.editor(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("saveQuestion", "POST /admin/questions/:id(uuid)/edit", .admins, bodyLimit: AdminPages.editorLimit) { request, p in
                try admin.saveQuestion(request, request.member(), id: p.uuid("id"))
            },
        ]
    }
}
