import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// Schools: `/teach` (a teacher's classes), `/teach/classes/{id}` (members, assignments and
/// progress), share links `/s/{token}`, joining a class `/join/{code}`, `/me/classes`.
struct SchoolPages: Sendable {
    let database: ConnectionPool
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    let starter: SessionStart

    func addRoutes(to router: inout Router) {
        router.get("/teach") { request in try teach(request) }
        router.post("/teach/classes") { request in try createClass(request) }
        router.get("/teach/classes/:id") { request in try classPage(request) }
        router.get("/teach/classes/:id/export.csv") { request in try export(request) }
        router.post("/teach/classes/:id/members/:user/remove") { request in try remove(request) }
        router.post("/teach/links") { request in try createLink(request) }
        router.post("/teach/links/:id/revoke") { request in try revoke(request) }
        router.get("/join") { request in
            // The "I have a code" form: to the class's page.
            let code = (request.query["code"] ?? "").trimmingCharacters(in: .whitespaces).uppercased()
            guard !code.isEmpty, code.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                throw HTTPError(.notFound, message("school.no_class", request))
            }
            return .redirect(to: "/join/\(code)")
        }
        router.get("/join/:code") { request in try joinPage(request) }
        router.post("/join/:code") { request in try join(request) }
        router.get("/me/classes") { request in try myClasses(request) }
        router.post("/me/classes/:id/leave") { request in try leave(request) }
        router.get("/s/:token") { request in try sharePage(request) }
        router.post("/s/:token/start") { request in try startShared(request) }
    }

    // MARK: Shared

    private func message(_ key: String, _ request: Request, _ arguments: [String: String] = [:]) -> String {
        pages.message(key, locale: pages.locale(for: request), arguments)
    }


    private func signIn(_ request: Request) -> Response {
        .redirect(to: LocalPath.signIn(returningTo: request.path))
    }

    /// A teacher or admin, or a 404: the teaching area is not advertised to others.
    private func teacher(_ request: Request) throws -> SessionUser? {
        guard let user = request.user else { return nil }
        guard user.role == "teacher" || user.role == "admin" else { throw HTTPError(.notFound, message("school.not_found", request)) }
        return user
    }

    private func asUser<Value>(_ user: SessionUser, _ body: (PostgresConnection) throws -> Value) throws -> Value {
        try database.withRequestContext(userID: user.userID.uuidString, role: user.role, body)
    }

    private func uuid(_ request: Request, _ name: String) throws -> UUID {
        guard let id = UUID(uuidString: request.parameter(name)) else { throw HTTPError(.notFound, message("school.not_found", request)) }
        return id
    }

    // MARK: Teaching

    func teach(_ request: Request) throws -> Response {
        guard let user = try teacher(request) else { return signIn(request) }
        let value = try asUser(user) { connection in
            TeachPage(
                classes: try SchoolStore().taughtClasses(connection), links: try SchoolStore().shareLinks(classID: nil, connection),
                host: request.headers["Host"] ?? "127.0.0.1", pages: pages, locale: pages.locale(for: request))
        }
        return try pages.privatePage("teach/index", value, request)
    }

    func createClass(_ request: Request) throws -> Response {
        guard let user = try teacher(request) else { return signIn(request) }
        let form = FormFields(body: request.body)
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let school = (form["school"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...120).contains(name.count) else { throw HTTPError(.badRequest, message("school.bad_class_name", request)) }
        guard school.count <= 200 else { throw HTTPError(.badRequest, message("school.bad_school_name", request)) }
        let id = try asUser(user) { connection -> UUID in
            for _ in 0..<10 {
                if let id = try SchoolStore().createClass(name: name, schoolName: school.isEmpty ? nil : school, joinCode: Crypto.code(length: 8), at: clock(), connection) {
                    return id
                }
            }
            throw HTTPError(.serviceUnavailable, message("live.no_code", request))
        }
        return .redirect(to: "/teach/classes/\(id.uuidString.lowercased())")
    }

    func classPage(_ request: Request, created: (token: String, title: String)? = nil) throws -> Response {
        guard let user = try teacher(request) else { return signIn(request) }
        let id = try uuid(request, "id")
        let value = try asUser(user) { connection -> ClassPage in
            let store = SchoolStore()
            guard let summary = try store.taughtClass(id: id, connection) else { throw HTTPError(.notFound, message("school.not_found", request)) }
            let links = try store.shareLinks(classID: id, connection)
            let assignments = try links.map { link in
                ClassPage.Assignment(
                    link: link, attempts: try store.attempts(linkID: link.id, classID: id, connection),
                    missed: try store.mostMissed(linkID: link.id, limit: 5, connection), pages: pages, locale: pages.locale(for: request))
            }
            return ClassPage(
                summary: summary, members: try store.members(classID: id, connection), assignments: assignments,
                progress: try store.progress(classID: id, connection), standings: try store.standings(classID: id, connection),
                host: request.headers["Host"] ?? "127.0.0.1", pages: pages, locale: pages.locale(for: request))
        }
        return try pages.privatePage("teach/class", value, request)
    }

    func remove(_ request: Request) throws -> Response {
        guard let user = try teacher(request) else { return signIn(request) }
        let id = try uuid(request, "id"), student = try uuid(request, "user")
        try asUser(user) { connection in
            guard try SchoolStore().taughtClass(id: id, connection) != nil else { throw HTTPError(.notFound, message("school.not_found", request)) }
            _ = try SchoolStore().leave(classID: id, userID: student, at: clock(), connection)
        }
        return .redirect(to: "/teach/classes/\(id.uuidString.lowercased())")
    }

    func export(_ request: Request) throws -> Response {
        guard let user = try teacher(request) else { return signIn(request) }
        let id = try uuid(request, "id")
        let rows = try asUser(user) { connection -> [[String]] in
            let store = SchoolStore()
            guard try store.taughtClass(id: id, connection) != nil else { throw HTTPError(.notFound, message("school.not_found", request)) }
            var rows = [["Student", "Assignment", "Exam", "Finished (UTC)", "Score %", "Passed", "Minutes"]]
            let iso = ISO8601DateFormatter()
            for link in try store.shareLinks(classID: id, connection) {
                for attempt in try store.attempts(linkID: link.id, classID: id, connection) {
                    rows.append([
                        attempt.displayName, link.title, link.examTitle, attempt.finishedAt.map(iso.string(from:)) ?? "",
                        attempt.scorePercent.map { String(format: "%.2f", $0) } ?? "", attempt.passed.map { $0 ? "yes" : "no" } ?? "",
                        attempt.secondsUsed.map { String(format: "%.1f", Double($0) / 60) } ?? "",
                    ])
                }
            }
            return rows
        }
        var response = Response(status: .ok, headers: ["Content-Type": "text/csv; charset=utf-8"], body: .bytes(CSVWriter.document(rows)))
        response.headers.add("Content-Disposition", "attachment; filename=\"class-results.csv\"")
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    // MARK: Share links

    func createLink(_ request: Request) throws -> Response {
        guard let user = try teacher(request) else { return signIn(request) }
        let form = FormFields(body: request.body)
        let title = (form["title"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...120).contains(title.count) else { throw HTTPError(.badRequest, message("school.bad_link_title", request)) }
        guard let mode = StudyMode(rawValue: form["mode"] ?? ""), mode == .practice || mode == .mock else {
            throw HTTPError(.badRequest, message("sessions.bad_mode", request, ["value": String((form["mode"] ?? "").prefix(20))]))
        }
        guard let from = Int(form["difficulty_from"] ?? "1"), let to = Int(form["difficulty_to"] ?? "5"), (1...5).contains(from), (1...5).contains(to), from <= to else {
            throw HTTPError(.badRequest, message("sessions.bad_range", request))
        }
        guard let count = Int(form["count"] ?? "20"), (1...100).contains(count) else {
            throw HTTPError(.badRequest, message("sessions.bad_count", request, ["max": "100"]))
        }
        let classID: UUID? = (form["class"] ?? "").isEmpty ? nil : UUID(uuidString: form["class"] ?? "")
        if !(form["class"] ?? "").isEmpty && classID == nil { throw HTTPError(.badRequest, message("school.not_found", request)) }
        let zone = TimeZone(identifier: user.timeZone) ?? .gmt
        var dueAt: Date?
        if let text = form["due"], !text.isEmpty {
            guard let day = Self.endOfDay(text, zone: zone) else { throw HTTPError(.badRequest, message("school.bad_due", request)) }
            dueAt = day
        }
        var expiresAt: Date?
        if let text = form["expires_days"], !text.isEmpty {
            guard let days = Int(text), (1...365).contains(days) else { throw HTTPError(.badRequest, message("school.bad_expiry", request)) }
            expiresAt = clock().addingTimeInterval(TimeInterval(days) * 86_400)
        }
        let token = Crypto.token()
        let (region, slug) = (form["region"] ?? "", form["exam"] ?? "")
        try asUser(user) { connection in
            guard let exam = try ExamCatalog().exam(region: region, slug: slug, connection) else {
                throw HTTPError(.notFound, message("error.no_exam", request, ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))]))
            }
            let domains = form.values("domain")
            if let unknown = Set(domains).subtracting(exam.domains.map(\.slug)).first {
                throw HTTPError(.badRequest, message("sessions.bad_domain", request, ["value": String(unknown.prefix(80))]))
            }
            if let classID, try SchoolStore().taughtClass(id: classID, connection) == nil { throw HTTPError(.notFound, message("school.not_found", request)) }
            // Every domain chosen is the same as none: the link keeps "all", which stays true if domains are added.
            let preset = Set(domains).count == exam.domains.count ? [] : domains
            _ = try SchoolStore().createShareLink(NewShareLink(
                tokenHash: Crypto.sha256(Array(token.utf8)), examID: exam.id, classID: classID, title: title, mode: mode, domains: preset,
                difficulty: from...to, questionCount: count, joinsClass: classID != nil && form["joins_class"] == "on", dueAt: dueAt,
                expiresAt: expiresAt), at: clock(), connection)
        }
        // The token is shown this once: only its hash is kept.
        let value = LinkCreatedPage(
            title: title, url: "http://\(request.headers["Host"] ?? "127.0.0.1")/s/\(token)",
            back: classID.map { "/teach/classes/\($0.uuidString.lowercased())" } ?? "/teach")
        return try pages.privatePage("teach/link-created", value, request)
    }

    /// 23:59:59 of a `YYYY-MM-DD` day in `zone`.
    static func endOfDay(_ text: String, zone: TimeZone) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 23, minute: 59, second: 59)
        guard (2000...2100).contains(parts[0]), let date = calendar.date(from: components),
              calendar.component(.day, from: date) == parts[2] else { return nil }
        return date
    }

    func revoke(_ request: Request) throws -> Response {
        guard let user = try teacher(request) else { return signIn(request) }
        let id = try uuid(request, "id")
        let revoked = try asUser(user) { try SchoolStore().revoke(linkID: id, at: clock(), $0) }
        guard revoked else { throw HTTPError(.notFound, message("school.not_found", request)) }
        let back = LocalPath.validated(FormFields(body: request.body)["return_to"]) ?? "/teach"
        return .redirect(to: back)
    }

    private func shared(_ request: Request) throws -> SharedExam {
        let token = request.parameter("token")
        guard SessionSettings.isWellFormed(token), let link = try database.withConnection({ connection in
            try SchoolStore().sharedExam(tokenHash: Crypto.sha256(Array(token.utf8)), now: clock(), connection)
        }) else {
            throw HTTPError(.notFound, message("school.link_gone", request))
        }
        return link
    }

    func sharePage(_ request: Request) throws -> Response {
        let link = try shared(request)
        let value = SharePage(link: link, path: request.path, signedIn: request.user != nil, pages: pages, locale: pages.locale(for: request))
        return try pages.privatePage("teach/share", value, request)
    }

    func startShared(_ request: Request) throws -> Response {
        let link = try shared(request)
        guard let user = request.user else { return .redirect(to: "/login?next=" + request.path.dropLast("/start".count)) }
        let now = clock(), locale = pages.locale(for: request)
        let actor = StudyActor(user: user)
        let id = try actor.transaction(database) { connection -> UUID in
            if link.joinsClass, let classID = link.classID { try SchoolStore().join(classID: classID, at: now, connection) }
            let domains = link.domains.isEmpty
                ? Set(try ExamCatalog().exam(region: link.regionCode, slug: link.examSlug, connection)?.domains.map(\.slug) ?? [])
                : Set(link.domains)
            return try starter.create(
                .init(region: link.regionCode, slug: link.examSlug, mode: link.mode, domains: domains, difficulty: link.difficulty,
                      count: link.questionCount, shareLinkID: link.id),
                actor: actor, now: now, locale: locale, connection)
        }
        return .redirect(to: "/sessions/\(id.uuidString.lowercased())")
    }

    // MARK: Joining

    func joinPage(_ request: Request) throws -> Response {
        let found = try database.withConnection { try SchoolStore().classByCode(request.parameter("code"), $0) }
        guard let found else { throw HTTPError(.notFound, message("school.no_class", request)) }
        let value = JoinPage(code: request.parameter("code").uppercased(), name: found.name, teacher: found.teacher, school: found.school, signedIn: request.user != nil)
        return try pages.privatePage("teach/join", value, request)
    }

    func join(_ request: Request) throws -> Response {
        guard let user = request.user else { return signIn(request) }
        try asUser(user) { connection in
            guard let found = try SchoolStore().classByCode(request.parameter("code"), connection) else {
                throw HTTPError(.notFound, message("school.no_class", request))
            }
            try SchoolStore().join(classID: found.id, at: clock(), connection)
        }
        return .redirect(to: "/me/classes?joined=1")
    }

    func myClasses(_ request: Request) throws -> Response {
        guard let user = request.user else { return signIn(request) }
        let classes = try asUser(user) { try SchoolStore().memberClasses($0) }
        struct Page: Encodable {
            struct Item: Encodable { var id: String; var name: String }
            var classes: [Item]
            var hasClasses: Bool
            var joined: Bool
            var left: Bool
        }
        let query = request.query
        return try pages.privatePage("teach/my-classes", Page(
            classes: classes.map { Page.Item(id: $0.id.uuidString.lowercased(), name: $0.name) }, hasClasses: !classes.isEmpty,
            joined: query["joined"] != nil, left: query["left"] != nil), request)
    }

    func leave(_ request: Request) throws -> Response {
        guard let user = request.user else { return signIn(request) }
        let id = try uuid(request, "id")
        _ = try asUser(user) { try SchoolStore().leave(classID: id, userID: user.userID, at: clock(), $0) }
        return .redirect(to: "/me/classes?left=1")
    }
}
