import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode
import TemplateEngine

/// Share links: made from an exam page, opened at `/s/{token}`, started from, and revoked.
extension SchoolPages {
    func createLink(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(ShareLinkForm.self)
        var dueAt: Date?
        if let due = form.due {
            guard let day = Self.endOfDay(due, zone: TimeZone(identifier: user.timeZone) ?? .gmt) else { throw PageRefusal(.badRequest, "school.bad_due") }
            // Due by a day already over: nobody could hand it in on time.
            guard day > clock() else { throw PageRefusal(.unprocessableContent, "school.due_past") }
            dueAt = day
        }
        let expiresAt = form.expiresDays.map { clock().addingTimeInterval(TimeInterval($0) * 86_400) }
        let token = Crypto.token()
        let (region, slug, classID, title) = (form.region, form.slug, form.classID, form.title)
        // The share form is on the exam page (one copy for many showings): the same form sent
        // again within ten minutes is the same link, leading to the list it is in (its address
        // was shown once: only its hash is kept).
        let sent = try SentOnce.sendByContent(request, form: form.fields, freshFor: 600) { connection -> String in
            guard let exam = try ExamCatalog().exam(region: region, slug: slug, connection) else {
                throw PageRefusal.noExam(region: region, slug: slug)
            }
            let domains = form.domains
            if let unknown = Set(domains).subtracting(exam.domains.map(\.slug)).first {
                throw PageRefusal(.badRequest, "sessions.bad_domain", ["value": String(unknown.prefix(80))])
            }
            if let classID, try SchoolStore().taughtClass(id: classID, connection) == nil { throw PageRefusal(.notFound, "school.not_found") }
            // Every domain chosen is the same as none: the link keeps "all", which stays true if domains are added.
            var preset = Set(domains).count == exam.domains.count ? [] : domains
            var (difficulty, count) = (form.difficulty, form.count)
            if let quizID = form.quizID {
                // A quiz gives its own questions: as many as it has published, whatever their level.
                guard let quiz = try QuizStore().quiz(quizID, connection), quiz.examID == exam.id else { throw PageRefusal(.notFound, "school.quiz_unknown") }
                guard quiz.liveCount > 0 else { throw PageRefusal(.unprocessableContent, "school.quiz_empty") }
                (preset, difficulty, count) = ([], 1...5, quiz.liveCount)
            }
            _ = try SchoolStore().createShareLink(NewShareLink(
                tokenHash: Crypto.sha256(Array(token.utf8)), examID: exam.id, classID: classID, title: title, mode: form.mode, domains: preset,
                difficulty: difficulty, questionCount: count, joinsClass: form.joinsClass, dueAt: dueAt,
                expiresAt: expiresAt, attempts: form.attempts, quizID: form.quizID,
                timeLimitMinutes: form.timeLimitMinutes), at: clock(), connection)
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
            throw PageRefusal(.notFound, "school.not_found")
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
        guard try request.form(Confirmation.self).confirmed else { return .redirect(to: "/teach/links/\(id.lowercasedText)/revoke") }
        let classID = try request.database.transaction { connection -> UUID? in
            guard let found = try SchoolStore().ownShareLink(id: id, connection) else {
                throw PageRefusal(.notFound, "school.not_found")
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
            throw PageRefusal(.notFound, "school.link_gone")
        }
        return link
    }

    /// An assignment of one of the pupil's classes, by its id: the same page and start as its
    /// link's, for a pupil who no longer has the link.
    private func assignment(_ request: PortalRequest, _ id: UUID) throws -> SharedExam {
        guard let link = try request.database.run({ try SchoolStore().sharedExam(assignment: id, now: clock(), $0) }) else {
            throw PageRefusal(.notFound, "school.assignment_gone")
        }
        return link
    }

    func sharePage(_ request: PortalRequest, token: String) throws -> Response {
        try sharePage(request, try shared(request, token))
    }

    /// `GET /me/assignments/{id}`.
    func assignmentPage(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        try sharePage(request, try assignment(request, id))
    }

    private func sharePage(_ request: PortalRequest, _ link: SharedExam) throws -> Response {
        let titles = link.domains.isEmpty ? [:] : try request.database.run { try StudyStore().domainTitles(examID: link.examID, $0) }
        let attempts = request.user == nil ? (nil, 0) : try request.database.run { try SchoolStore().attempts(linkID: link.id, $0) }
        let value = SharePage(
            link: link, domainTitles: titles, path: request.path, signedIn: request.user != nil, attempts: attempts, pages: pages,
            locale: pages.locale(for: request))
        return try pages.privatePage("teach/share", value, request)
    }

    func startShared(_ request: PortalRequest, _ user: SessionUser, token: String) throws -> Response {
        try start(request, user, try shared(request, token))
    }

    /// `POST /me/assignments/{id}/start`.
    func startAssignment(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        try start(request, user, try assignment(request, id))
    }

    private func start(_ request: PortalRequest, _ user: SessionUser, _ link: SharedExam) throws -> Response {
        let now = clock(), locale = pages.locale(for: request)
        let actor = StudyActor(user: user)
        let form = try request.form(StartForm.self)
        let location: String?
        do { location = try SentOnce.send(request, form: form.fields) { connection -> String in
            // Said plainly before anything is chosen; the database counts again as it admits the session.
            let attempts = try SchoolStore().attempts(linkID: link.id, connection)
            if let allowed = attempts.allowed, attempts.used >= allowed {
                throw PageRefusal(.conflict, "school.attempts_used_up", ["count": String(allowed)], count: Double(allowed))
            }
            if link.joinsClass { try SchoolStore().join(linkID: link.id, connection) }
            // A quiz's questions, in its order, those still published.
            let fixed = try link.quizID.map { _ in try SchoolStore().quizQuestions(linkID: link.id, connection) }
            if fixed?.isEmpty == true { throw PageRefusal(.unprocessableContent, "school.quiz_empty_now") }
            let domains = link.domains.isEmpty
                ? Set(try ExamCatalog().exam(region: link.regionCode, slug: link.examSlug, connection)?.domains.map(\.slug) ?? [])
                : Set(link.domains)
            var wanted = SessionStart.SessionRequest(
                region: link.regionCode, slug: link.examSlug, mode: link.mode, domains: domains, difficulty: link.difficulty,
                count: link.questionCount, shareLinkID: link.id)
            wanted.endRunning = form.endRunning
            wanted.fixedQuestions = fixed
            return "/sessions/" + (try starter.create(wanted, actor: actor, now: now, locale: locale, connection)).lowercasedText
        }?.location } catch let running as SessionStart.MockRunning {
            return try starter.askFirst(running, region: link.regionCode, slug: link.examSlug, action: request.path, form: form.fields, now: now, request)
        }
        // A form without its one-time token (shown before tokens, or made elsewhere): shown again.
        guard let location else { return .redirect(to: request.path.replacingOccurrences(of: "/start", with: "", options: .backwards)) }
        return .redirect(to: location)
    }
}
