import HTTPServer

/// Schools: joining a class and a student's classes, share links, and the teaching area (a
/// teacher's classes, a class's page, kept and answered on the event loop while current, its
/// members and accounts).
struct SchoolRoutes {
    let keeper: PageKeeper
    let schools: SchoolPages
    let classAccounts: ClassAccounts
    let requests: TeachingRequestPages
    let quizzes: QuizPages

    var routes: [PortalRoute] {
        let keeper = self.keeper, site = schools.site, requests = self.requests, quizzes = self.quizzes
        return [
            PortalRoute("joinForm", "GET /join", .visitors) { request, _ in try schools.enterCode(request) },
            PortalRoute("joinPage", "GET /join/:code", .visitors) { request, p in try schools.joinPage(request, code: p["code"]) },
            PortalRoute("sharePage", "GET /s/:token", .visitors) { request, p in try schools.sharePage(request, token: p["token"]) },
            PortalRoute("joinClass", "POST /join/:code", .members) { request, p in try schools.join(request, request.member(), code: p["code"]) },
            PortalRoute("myClasses", "GET /me/classes", .members) { request, _ in try schools.myClasses(request, request.member()) },
            PortalRoute("leaveClass", "POST /me/classes/:id(uuid)/leave", .members) { request, p in
                try schools.leave(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("startShared", "POST /s/:token/start", .members) { request, p in
                try schools.startShared(request, request.member(), token: p["token"])
            },
            PortalRoute("myAssignment", "GET /me/assignments/:id(uuid)", .members) { request, p in
                try schools.assignmentPage(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("startAssignment", "POST /me/assignments/:id(uuid)/start", .members) { request, p in
                try schools.startAssignment(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("teachingRequest", "GET /me/teaching", .members) { request, _ in try requests.page(request, request.member()) },
            PortalRoute("fileTeachingRequest", "POST /me/teaching", .members) { request, _ in try requests.file(request, request.member()) },
            // Teaching.
            PortalRoute("teach", "GET /teach", .teachers) { request, _ in try schools.teach(request, request.member()) },
            PortalRoute("createClass", "POST /teach/classes", .teachers) { request, _ in try schools.createClass(request, request.member()) },
            PortalRoute("classPage", "GET /teach/classes/:id(uuid)", .teachers, kept: { request, p in
                // Only a teacher's class page is kept; the route admits no one else.
                guard let id = try? p.uuid("id") else { return nil }
                return keeper.loopAnswer(request) { reader in
                    reader?.role.teaches == true
                        ? SchoolPages.cachedClass(id, joinBase: SchoolPages.joinBase(site, request), sort: RosterSort(query: request.query["sort"])) : nil
                }
            }) { request, p in try schools.classPage(request, request.member(), class: p.uuid("id")) },
            PortalRoute("classExport", "GET /teach/classes/:id(uuid)/export.csv", .teachers) { request, p in
                try schools.export(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("classAccountsForm", "GET /teach/classes/:id(uuid)/accounts", .teachers) { request, p in
                try classAccounts.form(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("makeClassAccounts", "POST /teach/classes/:id(uuid)/accounts", .teachers) { request, p in
                try classAccounts.make(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("classAccountCards", "GET /teach/classes/:id(uuid)/accounts/:batch(uuid)", .teachers) { request, p in
                try classAccounts.cards(request, request.member(), class: p.uuid("id"), batch: p.uuid("batch"))
            },
            PortalRoute("savePublicBoards", "POST /teach/classes/:id(uuid)/boards", .teachers) { request, p in
                try classAccounts.savePublicBoards(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("newAssignment", "GET /teach/classes/:id(uuid)/assignments/new", .teachers) { request, p in
                try schools.newAssignment(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("gradebook", "GET /teach/classes/:id(uuid)/gradebook", .teachers, kept: { request, p in
                guard let id = try? p.uuid("id") else { return nil }
                return keeper.loopAnswer(request) { reader in reader?.role.teaches == true ? SchoolPages.cachedGradebook(id) : nil }
            }) { request, p in
                try schools.gradebook(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("gradebookCSV", "GET /teach/classes/:id(uuid)/gradebook.csv", .teachers) { request, p in
                try schools.gradebookCSV(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("classMember", "GET /teach/classes/:id(uuid)/members/:user(uuid)", .teachers) { request, p in
                try schools.memberPage(request, request.member(), class: p.uuid("id"), student: p.uuid("user"))
            },
            PortalRoute("confirmRemoval", "GET /teach/classes/:id(uuid)/members/:user(uuid)/remove", .teachers) { request, p in
                try schools.confirmRemoval(request, request.member(), class: p.uuid("id"), student: p.uuid("user"))
            },
            PortalRoute("removeMember", "POST /teach/classes/:id(uuid)/members/:user(uuid)/remove", .teachers) { request, p in
                try schools.remove(request, request.member(), class: p.uuid("id"), student: p.uuid("user"))
            },
            PortalRoute("setAccommodation", "POST /teach/classes/:id(uuid)/members/:user(uuid)/accommodation", .teachers) { request, p in
                try schools.setAccommodation(request, request.member(), class: p.uuid("id"), student: p.uuid("user"))
            },
            PortalRoute("quizzes", "GET /teach/quizzes", .teachers) { request, _ in try quizzes.list(request, request.member()) },
            PortalRoute("createQuiz", "POST /teach/quizzes", .teachers) { request, _ in try quizzes.create(request, request.member()) },
            PortalRoute("quiz", "GET /teach/quizzes/:id(uuid)", .teachers) { request, p in try quizzes.page(request, request.member(), quiz: p.uuid("id")) },
            PortalRoute("quizPreview", "GET /teach/quizzes/:id(uuid)/preview", .teachers) { request, p in
                try quizzes.preview(request, request.member(), quiz: p.uuid("id"))
            },
            PortalRoute("renameQuiz", "POST /teach/quizzes/:id(uuid)/title", .teachers) { request, p in
                try quizzes.rename(request, request.member(), quiz: p.uuid("id"))
            },
            PortalRoute("addQuizQuestion", "POST /teach/quizzes/:id(uuid)/questions", .teachers) { request, p in
                try quizzes.add(request, request.member(), quiz: p.uuid("id"))
            },
            PortalRoute("moveQuizQuestion", "POST /teach/quizzes/:id(uuid)/questions/:question(uuid)/move", .teachers) { request, p in
                try quizzes.move(request, request.member(), quiz: p.uuid("id"), question: p.uuid("question"))
            },
            PortalRoute("removeQuizQuestion", "POST /teach/quizzes/:id(uuid)/questions/:question(uuid)/remove", .teachers) { request, p in
                try quizzes.remove(request, request.member(), quiz: p.uuid("id"), question: p.uuid("question"))
            },
            PortalRoute("createLink", "POST /teach/links", .teachers) { request, _ in try schools.createLink(request, request.member()) },
            PortalRoute("confirmRevoke", "GET /teach/links/:id(uuid)/revoke", .teachers) { request, p in
                try schools.confirmRevoke(request, request.member(), link: p.uuid("id"))
            },
            PortalRoute("revokeLink", "POST /teach/links/:id(uuid)/revoke", .teachers) { request, p in
                try schools.revoke(request, request.member(), link: p.uuid("id"))
            },
        ]
    }
}
