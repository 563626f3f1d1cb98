import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode
import TemplateEngine

/// Schools: `/teach` (a teacher's classes), `/teach/classes/{id}` (members, assignments and
/// progress), share links `/s/{token}`, joining a class `/join/{code}`, `/me/classes`.
struct SchoolPages: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    let starter: SessionStart
    let site: SiteAddress
    /// Kept class pages.
    let keeper: PageKeeper

    /// Unknown join codes tried per client address in ten minutes.
    static let codeMissesPerTenMinutes = 20

    // MARK: Shared

    private func codeLimit() -> CodeGuessLimit {
        CodeGuessLimit(bucket: "join-code", limit: Self.codeMissesPerTenMinutes, pages: pages)
    }

    // MARK: Teaching

    func teach(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try pages.privatePage("teach/index", try teachPage(request), request)
    }

    private func teachPage(_ request: PortalRequest) throws -> TeachPage {
        try request.database.transaction { connection in
            TeachPage(
                classes: try SchoolStore().taughtClasses(connection), links: try SchoolStore().shareLinks(classID: nil, connection),
                pages: pages, locale: pages.locale(for: request))
        }
    }

    /// `POST /teach/classes`: the class is made once per showing of the form (a second send
    /// leads to the same class); a refused name comes back beside its field with what was typed.
    func createClass(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = FormFields(body: request.body)
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let school = (form["school"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        func again(_ edit: (inout TeachPage) -> Void) throws -> Response {
            var page = try teachPage(request)
            (page.className, page.schoolName) = (String((form["name"] ?? "").prefix(200)), String((form["school"] ?? "").prefix(300)))
            edit(&page)
            return try pages.privatePage("teach/index", page, request, status: .unprocessableContent)
        }
        guard (1...120).contains(name.count) else { return try again { $0.nameError = pages.message("school.bad_class_name", for: request) } }
        guard school.count <= 200 else { return try again { $0.schoolError = pages.message("school.bad_school_name", for: request) } }
        let location = try SentOnce.send(request, form: form) { connection -> String in
            for _ in 0..<10 {
                if let id = try SchoolStore().createClass(name: name, schoolName: school.isEmpty ? nil : school, joinCode: Crypto.code(length: 8), at: clock(), connection) {
                    return "/teach/classes/\(id.lowercasedText)"
                }
            }
            throw HTTPError(.serviceUnavailable, pages.message("live.no_code", for: request))
        }?.location
        if let location { return .redirect(to: location) }
        return try again { $0.nameError = pages.message("error.form_resent", for: request) }
    }

    /// A class's page is one fragment, kept for the teacher's session by the class's version
    /// (its members' data versions and its links) for up to a minute: coming back to it costs
    /// one small read until a student answers.
    func classPage(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let joinBase = Self.joinBase(site, request.http)
        // A class the reader may see is kept whole by its version; any other is refused afresh.
        return try keeper.respond(request, Self.cachedClass(id, joinBase: joinBase)) { versions, viewer in
            let version = versions.schoolClass ?? ""
            // Keyed by the session (the fragment carries its form token); kept a minute at most.
            let page = Fragment(key: "\(user.sessionID)|\(id)|\(version)|\(joinBase)") { () -> ClassPage in
                try request.database.transaction { connection in
                    let store = SchoolStore(), collation = Collation.of(locale: locale)
                    guard let summary = try store.taughtClass(id: id, connection) else { throw HTTPError(.notFound, pages.message("school.not_found", for: request)) }
                    let links = try store.shareLinks(classID: id, connection)
                    let assignments = try links.map { link in
                        ClassPage.Assignment(
                            link: link, attempts: try store.attempts(linkID: link.id, classID: id, collation: collation, connection),
                            missed: try store.mostMissed(linkID: link.id, limit: 5, connection), pages: pages, locale: locale)
                    }
                    var page = ClassPage(
                        summary: summary, members: try store.members(classID: id, collation: collation, connection), assignments: assignments,
                        progress: try store.progress(classID: id, collation: collation, connection),
                        standings: try store.standings(classID: id, collation: collation, connection),
                        joinBase: joinBase, csrfToken: user.csrfToken, pages: pages, locale: locale)
                    page.hasCourseRoster = try LTILaunchStore().courseRoster(classID: id, connection) != nil
                    page.publicBoards = try ClassAccountStore().publicBoards(classID: id, connection) ?? false
                    return page
                }
            }
            return try pages.render("teach/class", FragmentsOnly(), locale: locale, viewer: viewer, fragments: ["class": page])
        }
    }

    /// How a class's page is kept: for its teacher's sign-in, by the class's version (its
    /// members' data versions and its links) and the join link's base (the address the page
    /// was asked by). Only teachers see it.
    static func cachedClass(_ id: UUID, joinBase: String) -> CachedPage {
        CachedPage(name: "class|\(id.lowercasedText)|\(joinBase)", dependsOn: [.schoolClass(id)], visitors: .builtEachTime)
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
            guard let summary = try store.taughtClass(id: id, connection) else { throw HTTPError(.notFound, pages.message("school.not_found", for: request)) }
            guard let member = try store.members(classID: id, connection).first(where: { $0.userID == student }) else {
                throw HTTPError(.notFound, pages.message("school.not_a_member", for: request))
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
        guard FormFields(body: request.body)["confirm"] == "1" else {
            return .redirect(to: "/teach/classes/\(id.lowercasedText)/members/\(student.lowercasedText)/remove")
        }
        try request.database.transaction { connection in
            guard try SchoolStore().taughtClass(id: id, connection) != nil else { throw HTTPError(.notFound, pages.message("school.not_found", for: request)) }
            _ = try SchoolStore().leave(classID: id, userID: student, at: clock(), connection)
        }
        return .redirect(to: "/teach/classes/\(id.lowercasedText)")
    }

    /// Sets a member's extra time from the class page's form: a current member of a class the
    /// reader teaches; the database checks that too, and records the change.
    func setAccommodation(_ request: PortalRequest, _ user: SessionUser, class id: UUID, student: UUID) throws -> Response {
        guard let accommodation = Accommodation(form: FormFields(body: request.body)) else {
            throw HTTPError(.unprocessableContent, pages.message("school.bad_accommodation", for: request))
        }
        try request.database.transaction { connection in
            let store = SchoolStore()
            guard try store.taughtClass(id: id, connection) != nil else { throw HTTPError(.notFound, pages.message("school.not_found", for: request)) }
            guard try store.members(classID: id, connection).contains(where: { $0.userID == student }) else {
                throw HTTPError(.notFound, pages.message("school.not_a_member", for: request))
            }
            _ = try store.setAccommodation(student: student, accommodation, connection)
        }
        return .redirect(to: "/teach/classes/\(id.lowercasedText)#accommodations-heading")
    }

    func export(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let rows = try request.database.transaction { connection -> [[String]] in
            let store = SchoolStore()
            guard try store.taughtClass(id: id, connection) != nil else { throw HTTPError(.notFound, pages.message("school.not_found", for: request)) }
            // Headers and yes/no in the teacher's language; numbers and times as data (UTC, ISO 8601).
            let locale = pages.locale(for: request)
            var rows = [["student", "assignment", "exam", "finished", "score", "passed", "minutes", "started"].map {
                pages.message("school.csv." + $0, locale: locale)
            }]
            let yes = pages.message("school.yes", locale: locale), no = pages.message("school.no", locale: locale)
            let iso = ISO8601DateFormatter()
            for link in try store.shareLinks(classID: id, connection) {
                for attempt in try store.attempts(linkID: link.id, classID: id, connection) {
                    rows.append([
                        attempt.displayName, link.title, link.examTitle, attempt.finishedAt.map(iso.string(from:)) ?? "",
                        attempt.scorePercent.map { String(format: "%.2f", $0) } ?? "", attempt.passed.map { $0 ? yes : no } ?? "",
                        attempt.secondsUsed.map { String(format: "%.1f", Double($0) / 60) } ?? "", String(attempt.started),
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

    func createLink(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = FormFields(body: request.body)
        let title = (form["title"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...120).contains(title.count) else { throw HTTPError(.badRequest, pages.message("school.bad_link_title", for: request)) }
        guard let mode = StudyMode(rawValue: form["mode"] ?? ""), mode == .practice || mode == .mock else {
            throw HTTPError(.badRequest, pages.message("sessions.bad_mode", for: request, ["value": String((form["mode"] ?? "").prefix(20))]))
        }
        guard let from = Int(form["difficulty_from"] ?? "1"), let to = Int(form["difficulty_to"] ?? "5"), (1...5).contains(from), (1...5).contains(to), from <= to else {
            throw HTTPError(.badRequest, pages.message("sessions.bad_range", for: request))
        }
        guard let count = Int(form["count"] ?? "20"), (1...100).contains(count) else {
            throw HTTPError(.badRequest, pages.message("sessions.bad_count", for: request, ["max": "100"]))
        }
        var attempts: Int?
        if let text = form["attempts"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let limit = Int(text), (1...20).contains(limit) else { throw HTTPError(.badRequest, pages.message("school.bad_attempts", for: request)) }
            attempts = limit
        }
        let classID: UUID? = (form["class"] ?? "").isEmpty ? nil : UUID(uuidString: form["class"] ?? "")
        if !(form["class"] ?? "").isEmpty && classID == nil { throw HTTPError(.badRequest, pages.message("school.not_found", for: request)) }
        let zone = TimeZone(identifier: user.timeZone) ?? .gmt
        var dueAt: Date?
        if let text = form["due"], !text.isEmpty {
            guard let day = Self.endOfDay(text, zone: zone) else { throw HTTPError(.badRequest, pages.message("school.bad_due", for: request)) }
            dueAt = day
        }
        var expiresAt: Date?
        if let text = form["expires_days"], !text.isEmpty {
            guard let days = Int(text), (1...365).contains(days) else { throw HTTPError(.badRequest, pages.message("school.bad_expiry", for: request)) }
            expiresAt = clock().addingTimeInterval(TimeInterval(days) * 86_400)
        }
        let token = Crypto.token()
        let (region, slug) = (form["region"] ?? "", form["exam"] ?? "")
        // The share form is on the exam page (one copy for many showings): the same form sent
        // again within ten minutes is the same link, leading to the list it is in (its address
        // was shown once: only its hash is kept).
        let sent = try SentOnce.sendByContent(request, form: form, freshFor: 600) { connection -> String in
            guard let exam = try ExamCatalog().exam(region: region, slug: slug, connection) else {
                throw HTTPError(.notFound, pages.message("error.no_exam", for: request, ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))]))
            }
            let domains = form.values("domain")
            if let unknown = Set(domains).subtracting(exam.domains.map(\.slug)).first {
                throw HTTPError(.badRequest, pages.message("sessions.bad_domain", for: request, ["value": String(unknown.prefix(80))]))
            }
            if let classID, try SchoolStore().taughtClass(id: classID, connection) == nil { throw HTTPError(.notFound, pages.message("school.not_found", for: request)) }
            // Every domain chosen is the same as none: the link keeps "all", which stays true if domains are added.
            let preset = Set(domains).count == exam.domains.count ? [] : domains
            _ = try SchoolStore().createShareLink(NewShareLink(
                tokenHash: Crypto.sha256(Array(token.utf8)), examID: exam.id, classID: classID, title: title, mode: mode, domains: preset,
                difficulty: from...to, questionCount: count, joinsClass: classID != nil && form["joins_class"] == "on", dueAt: dueAt,
                expiresAt: expiresAt, attempts: attempts), at: clock(), connection)
            return classID.map { "/teach/classes/\($0.lowercasedText)#assignments-heading" } ?? "/teach#links-heading"
        }
        guard let sent, sent.madeNow else { return .redirect(to: sent?.location ?? "/teach") }
        // The token is shown this once: only its hash is kept.
        let url = site.url("/s/\(token)", for: request.head, peer: request.http.remoteAddress)
        let value = LinkCreatedPage(
            title: title, url: url, back: classID.map { "/teach/classes/\($0.lowercasedText)" } ?? "/teach", examKey: "\(region)/\(slug)",
            qrCode: QRCode(text: url)?.svg(label: pages.message("school.qr_alt", for: request, ["title": title])) ?? "")
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

    /// `GET /teach/links/{id}/revoke`: the teacher is asked before a link stops working.
    func confirmRevoke(_ request: PortalRequest, _ user: SessionUser, link id: UUID) throws -> Response {
        guard let found = try request.database.run({ try SchoolStore().ownShareLink(id: id, $0) }) else {
            throw HTTPError(.notFound, pages.message("school.not_found", for: request))
        }
        let back = found.classID.map { "/teach/classes/\($0.lowercasedText)" } ?? "/teach"
        // A link revoked already has nothing to ask: back to where it is listed.
        guard found.link.revokedAt == nil else { return .redirect(to: back) }
        let page = RevocationPage(
            title: found.link.title, examTitle: found.link.examTitle, className: found.className, backHref: back,
            action: "/teach/links/\(id.lowercasedText)/revoke", csrfToken: user.csrfToken)
        return try pages.privatePage("teach/revoke", page, request)
    }

    func revoke(_ request: PortalRequest, _ user: SessionUser, link id: UUID) throws -> Response {
        // Only from the page that asked first (an older form, or one made elsewhere, is sent there).
        guard FormFields(body: request.body)["confirm"] == "1" else { return .redirect(to: "/teach/links/\(id.lowercasedText)/revoke") }
        let classID = try request.database.transaction { connection -> UUID? in
            guard let found = try SchoolStore().ownShareLink(id: id, connection) else {
                throw HTTPError(.notFound, pages.message("school.not_found", for: request))
            }
            _ = try SchoolStore().revoke(linkID: id, at: clock(), connection)
            return found.classID
        }
        return .redirect(to: classID.map { "/teach/classes/\($0.lowercasedText)" } ?? "/teach")
    }

    private func shared(_ request: PortalRequest, _ token: String) throws -> SharedExam {
        guard SessionSettings.isWellFormed(token), let link = try request.database.run({ connection in
            try SchoolStore().sharedExam(tokenHash: Crypto.sha256(Array(token.utf8)), now: clock(), connection)
        }) else {
            throw HTTPError(.notFound, pages.message("school.link_gone", for: request))
        }
        return link
    }

    func sharePage(_ request: PortalRequest, token: String) throws -> Response {
        let link = try shared(request, token)
        let titles = link.domains.isEmpty ? [:] : try request.database.run { try StudyStore().domainTitles(examID: link.examID, $0) }
        let attempts = request.user == nil ? (nil, 0) : try request.database.run { try SchoolStore().attempts(linkID: link.id, $0) }
        let value = SharePage(
            link: link, domainTitles: titles, path: request.path, signedIn: request.user != nil, attempts: attempts, pages: pages,
            locale: pages.locale(for: request))
        return try pages.privatePage("teach/share", value, request)
    }

    func startShared(_ request: PortalRequest, _ user: SessionUser, token: String) throws -> Response {
        let link = try shared(request, token)
        let now = clock(), locale = pages.locale(for: request)
        let actor = StudyActor(user: user)
        let form = FormFields(body: request.body)
        let location: String?
        do { location = try SentOnce.send(request, form: form) { connection -> String in
            // Said plainly before anything is chosen; the database counts again as it admits the session.
            let attempts = try SchoolStore().attempts(linkID: link.id, connection)
            if let allowed = attempts.allowed, attempts.used >= allowed {
                throw HTTPError(.conflict, pages.message("school.attempts_used_up", locale: locale, ["count": String(allowed)], count: Double(allowed)))
            }
            if link.joinsClass { try SchoolStore().join(linkID: link.id, connection) }
            let domains = link.domains.isEmpty
                ? Set(try ExamCatalog().exam(region: link.regionCode, slug: link.examSlug, connection)?.domains.map(\.slug) ?? [])
                : Set(link.domains)
            var wanted = SessionStart.SessionRequest(
                region: link.regionCode, slug: link.examSlug, mode: link.mode, domains: domains, difficulty: link.difficulty,
                count: link.questionCount, shareLinkID: link.id)
            wanted.endRunning = form[RunningMockPage.endField].flatMap(UUID.init(text:))
            return "/sessions/" + (try starter.create(wanted, actor: actor, now: now, locale: locale, connection)).lowercasedText
        }?.location } catch let running as SessionStart.MockRunning {
            return try starter.askFirst(running, region: link.regionCode, slug: link.examSlug, action: request.path, form: form, now: now, request)
        }
        // A form without its one-time token (shown before tokens, or made elsewhere): shown again.
        guard let location else { return .redirect(to: request.path.replacingOccurrences(of: "/start", with: "", options: .backwards)) }
        return .redirect(to: location)
    }

    // MARK: Joining

    /// The "I have a code" form; a code typed there goes to its class's page. A code that is
    /// not one comes back on the form, as typed, with the reason beside it.
    func enterCode(_ request: PortalRequest) throws -> Response {
        guard let typed = request.query["code"] else { return try codeForm(request) }
        let code = typed.trimmingCharacters(in: .whitespaces).uppercased()
        guard !code.isEmpty, code.count <= 12, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return try codeForm(request, typed: String(typed.prefix(40)), error: "school.code_format", status: .unprocessableContent)
        }
        return .redirect(to: "/join/\(code)")
    }

    private func codeForm(_ request: PortalRequest, typed: String = "", error: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        struct Page: Encodable {
            var code: String
            var codeError: String?
        }
        return try pages.privatePage("teach/enter-code", Page(code: typed, codeError: error.map { pages.message($0, for: request) }), request, status: status)
    }

    func joinPage(_ request: PortalRequest, code: String) throws -> Response {
        let limit = codeLimit()
        try limit.check(request)
        let found = try request.database.run { try SchoolStore().classByCode(code, $0) }
        guard let found else {
            try limit.miss(request)
            return try codeForm(request, typed: String(code.prefix(40)), error: "school.no_class", status: .notFound)
        }
        let value = JoinPage(code: code.uppercased(), name: found.name, teacher: found.teacher, school: found.school, signedIn: request.user != nil)
        return try pages.privatePage("teach/join", value, request)
    }

    func join(_ request: PortalRequest, _ user: SessionUser, code: String) throws -> Response {
        let limit = codeLimit()
        try limit.check(request)
        guard try request.database.transaction({ try SchoolStore().join(code: code, $0) }) != nil else {
            try limit.miss(request)
            return try codeForm(request, typed: String(code.prefix(40)), error: "school.no_class", status: .notFound)
        }
        return .redirect(to: "/me/classes?joined=1")
    }

    func myClasses(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let classes = try request.database.transaction { try SchoolStore().memberClasses($0) }
        struct Page: Encodable {
            struct Item: Encodable { var id: String; var name: String }
            var classes: [Item]
            var hasClasses: Bool
            var joined: Bool
            var left: Bool
        }
        let query = request.query
        return try pages.privatePage("teach/my-classes", Page(
            classes: classes.map { Page.Item(id: $0.id.lowercasedText, name: $0.name) }, hasClasses: !classes.isEmpty,
            joined: query["joined"] != nil, left: query["left"] != nil), request)
    }

    func leave(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        _ = try request.database.transaction { try SchoolStore().leave(classID: id, userID: user.userID, at: clock(), $0) }
        return .redirect(to: "/me/classes?left=1")
    }
}
