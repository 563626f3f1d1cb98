import ExamData
import Foundation
import HTTPServer
import Identifiers
import WebToken

/// `POST /lti/launch`: the platform's form post with the `id_token` and the login's `state`.
/// The database decides the launch whole (`lti_sign_in`): the state taken once and bound to the
/// browser that began the login, the token's RS256 signature verified against the platform's
/// key set (kept by `portal auth-agent`) and its claims against the registration and the
/// login's nonce; then it signs the platform's user in (linked by issuer and `sub`), brings the
/// course's class along and opens a session. The app settles beforehand what the launch opens
/// (a preset session, the class, the deep-linking page) and refuses what it cannot open; it never
/// waits for another party: a key set being fetched is answered "a moment" with a page that
/// posts again. Any failure is a page saying what was wrong, with nobody signed in and nothing made.
struct LTILaunch: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let clock: @Sendable () -> Date
    let accounts: AccountPages
    let starter: SessionStart

    /// What a platform posts to the launch address: the signed ID token and the state of the
    /// login that began it (or the error of a platform that will not sign the user in), and
    /// whether the page's script verified the login's state in the browser's storage.
    struct LaunchForm: PostedForm {
        let idToken: String
        let state: String
        let storageVerified: Bool

        init(_ form: FormReader) throws(PageRefusal) {
            let (idToken, state) = (form.text("id_token"), form.text("state"))
            guard !idToken.isEmpty, idToken.utf8.count <= 16_384, !state.isEmpty, state.utf8.count <= 200 else {
                // A platform that will not sign the user in (prompt=none) says why.
                if let error = form.optional("error") {
                    throw PageRefusal(.badRequest, "lti.platform_refused", ["error": String(error.prefix(60)), "description": form.quoted("error_description", length: 300)])
                }
                throw PageRefusal(.badRequest, "lti.launch_incomplete")
            }
            (self.idToken, self.state, storageVerified) = (idToken, state, form.text("storage") == "verified")
        }
    }

    /// What the launch would open, settled first from the token as sent: only refusals are
    /// decided on it; the database verifies the same token before anyone is signed in.
    private func intended(_ idToken: String, _ request: PortalRequest) throws -> (LaunchMessage, LaunchTarget) {
        let message: LaunchMessage
        do {
            message = try LaunchMessage(claims: (try? WebToken.unverifiedClaims(idToken)) ?? [:])
        } catch {
            throw PageRefusal(.unauthorized, "lti." + error.key, error.arguments)
        }
        guard case .resourceLink(_, _, let targetLinkURI) = message.kind else { return (message, LaunchTarget.page("/me")) }
        guard let local = Self.localPath(of: targetLinkURI, site: site, request) else { throw PageRefusal(.badRequest, "lti.foreign_target") }
        return (message, LaunchTarget(path: local.path, query: local.query))
    }

    func launch(_ request: PortalRequest) throws -> Response {
        let form = try request.form(LaunchForm.self)
        let (idToken, state) = (form.idToken, form.state)
        let (message, target) = try intended(idToken, request)

        let sessionToken = Crypto.token()
        let binding = binding(state: state, storageVerified: form.storageVerified, request)
        let outcome = try request.database.run {
            try LTILaunchStore().signIn(
                state: state, idToken: idToken, binding: binding, agent: LTILogin.browserHash(request),
                token: sessionToken, csrfToken: Crypto.token(), userAgent: request.headers["User-Agent"] ?? "", $0)
        }
        let classID: UUID?, platformID: Int
        switch outcome {
        case .signedIn(_, let course, let platform, _):
            (classID, platformID) = (course, platform)
        case .needsStorage(let storageTarget, let authURL):
            return try askStorage(idToken: idToken, state: state, target: storageTarget, origin: LTILogin.origin(of: authURL) ?? "", request)
        case .keysPending:
            return try tryAgain(idToken: idToken, state: state, request)
        case .refused(let reason, let detail):
            throw refusal(reason, detail: detail, request)
        }
        // Bound only by the browser's address and agent (a frame that dropped the login's
        // cookie): another browser behind the same address could be posting, so this answer
        // carries no session; the frame's hand-over page offers it to a window of this browser.
        let boundByAgentAlone = binding == .framed
        var response = Response.redirect(to: "/me")
        if boundByAgentAlone {
            request.database.use(sessionToken: sessionToken)
        } else {
            try accounts.signedIn(token: sessionToken, request, &response)
        }
        response.setCookie(SetCookie.expired(name: LTILogin.cookieName(for: state, secure: isSecure(request))))

        guard let kind = message.kind else { throw HTTPError(.internalServerError, "The launch's message was accepted but not understood.") }
        let location = try destination(
            of: kind, message, target: target, classID: classID, platformID: platformID, sessionToken: sessionToken, request)
        if boundByAgentAlone {
            return try handOver(location: location, title: message.resourceTitle, request)
        }
        if request.headers["Sec-Fetch-Dest"] == "iframe", case .resourceLink = kind {
            return try handOver(location: location, title: message.resourceTitle, request)
        }
        response.headers.set("Location", location)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// Where a launch the database accepted leads: deep linking's choice of what to link; for a
    /// resource link, a teacher's class, a preset's session started now (or its exam's page,
    /// which says why it could not start), or the page the link names.
    private func destination(
        of kind: LaunchMessage.Kind, _ message: LaunchMessage, target: LaunchTarget, classID: UUID?, platformID: Int, sessionToken: String,
        _ request: PortalRequest
    ) throws -> String {
        switch kind {
        case .deepLinking(let returnURL, let data, let acceptsLineItem):
            let choice = Crypto.token()
            try request.database.transaction {
                try LTILaunchStore().saveDeepLink(
                    token: choice, platformID: platformID, deploymentID: message.deploymentID, returnURL: returnURL, data: data,
                    acceptsLineItem: acceptsLineItem, at: clock(), $0)
            }
            return "/lti/deep-link/\(choice)"
        case .resourceLink(let linkID, _, _):
            switch target {
            case _ where message.isTeacher:
                return classID.map { "/teach/classes/\($0.lowercasedText)" } ?? target.path
            case .preset(let preset):
                // Signed in either way: a preset that cannot start now (an exam since removed,
                // nothing at that difficulty) lands on the exam's page, which says why.
                let session = try? startSession(
                    preset, grading: message.lineItemURL.map { (platformID, linkID, $0, message.subject) }, token: sessionToken, request)
                return session.map { "/sessions/\($0.lowercasedText)" } ?? LaunchTarget.exam(region: preset.region, slug: preset.slug).path
            case .exam, .page:
                return target.path
            }
        }
    }

    private func isSecure(_ request: PortalRequest) -> Bool { site.scheme(of: request.head, peer: request.http.remoteAddress) == "https" }

    /// What the portal knows of the browser: the login's cookie when it came back; else the
    /// portal's own page having found the state in the platform's storage (a same-origin post);
    /// else a frame only when the browser says so (`Sec-Fetch-Dest: iframe`). Anything else — a
    /// window, or an older browser that says nothing — is a top-level post without the cookie
    /// that would have come with it, which the database refuses.
    private func binding(state: String, storageVerified: Bool, _ request: PortalRequest) -> LTILaunchStore.Binding {
        if let cookie = request.cookies[LTILogin.cookieName(for: state, secure: isSecure(request))], !cookie.isEmpty {
            return .cookie(Crypto.sha256(Array(cookie.utf8)))
        }
        if storageVerified, request.headers["Sec-Fetch-Site"] == "same-origin",
           let origin = request.headers["Origin"], site.isOwnOrigin(origin, head: request.head) {
            return .storage
        }
        return request.headers["Sec-Fetch-Dest"] == "iframe" ? .framed : .topLevel
    }

    /// The database's refusal as a page (`lti.` + its reason).
    private func refusal(_ reason: String, detail: String?, _ request: PortalRequest) -> PageRefusal {
        func say(_ key: String, _ arguments: [String: String] = [:], _ status: HTTPStatus = .unauthorized) -> PageRefusal {
            PageRefusal(status, "lti." + key, arguments)
        }
        let detail = detail ?? ""
        switch reason {
        case "state_unknown", "state_used", "state_expired": return say(reason, [:], .badRequest)
        case "other_browser": return say("state_other_browser", [:], .badRequest)
        case "keys_unreachable": return say("keys_unreachable", ["reason": detail], .badGateway)
        case "malformed": return say("bad_token", ["reason": TokenRefusal.malformed.description])
        case "algorithm": return say("bad_token", ["reason": TokenRefusal.algorithm(detail).description])
        case "unknown_key": return say("bad_token", ["reason": TokenRefusal.unknownKey(detail).description])
        case "bad_signature": return say("bad_token", ["reason": TokenRefusal.badSignature.description])
        case "expired": return say("bad_token", ["reason": TokenRefusal.expired.description])
        case "not_yet_valid": return say("bad_token", ["reason": TokenRefusal.notYetValid.description])
        case "wrong_issuer": return say("wrong_issuer", ["issuer": detail])
        case "wrong_version": return say("wrong_version", ["version": detail])
        case "unknown_deployment": return say("unknown_deployment", ["deployment": detail], .badRequest)
        case "unknown_message": return say("unknown_message", ["type": detail])
        case "deep_link_teachers": return say(reason, [:], .forbidden)
        case "disabled": return say("account_disabled", [:], .forbidden)
        default: return say(reason)
        }
    }

    /// A framed launch whose browser dropped the login's cookie, on a platform with storage:
    /// the portal's page asks the platform's storage whether this browser began the login, and
    /// posts the launch on (from this site) only when it did.
    private func askStorage(idToken: String, state: String, target: String, origin: String, _ request: PortalRequest) throws -> Response {
        struct Page: Encodable {
            var idToken: String
            var state: String
            var target: String
            var origin: String
            var key: String
        }
        let page = Page(idToken: idToken, state: state, target: target, origin: origin, key: LTILogin.storageKey(state))
        var response = Response.html(try pages.render("lti/storage-launch", page, for: request))
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Content-Security-Policy", LTIDeepLinking.policy(framedBy: nil, postsTo: nil))
        return response
    }

    /// The platform's key set is being fetched: a page that posts the launch again in a moment
    /// (by itself, or with its button), answered at once so no worker waits on the platform.
    private func tryAgain(idToken: String, state: String, _ request: PortalRequest) throws -> Response {
        struct Page: Encodable {
            var idToken: String
            var state: String
        }
        var response = Response.html(try pages.render("lti/launch-pending", Page(idToken: idToken, state: state), for: request), status: .serviceUnavailable)
        response.headers.set("Retry-After", "2")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Content-Security-Policy", LTIDeepLinking.policy(framedBy: nil, postsTo: nil))
        return response
    }

    /// A launch inside the LMS's frame: the frame cannot keep the portal's cookie (it belongs
    /// to another site's page, and some browsers drop such cookies altogether), so the page in
    /// the frame offers the activity in a window of its own, which takes the launch's session
    /// over (`/lti/continue/:token`, once, within five minutes, in this browser).
    private func handOver(location: String, title: String?, _ request: PortalRequest) throws -> Response {
        let handoff = Crypto.token()
        guard try request.database.transaction({
            try LTILaunchStore().offerHandoff(token: handoff, browser: LTILogin.browserHash(request), location: location, $0)
        }) else {
            throw PageRefusal(.badRequest, "lti.state_used")
        }
        struct Page: Encodable {
            var href: String
            var title: String?
        }
        var response = Response.html(try pages.render("lti/framed", Page(href: "/lti/continue/\(handoff)", title: title), for: request))
        response.headers.set("Cache-Control", "no-store")
        // Any page may frame this one: it is only ever the answer to a genuine launch's post
        // (nobody can load it by its address), and its one link opens a window of its own.
        response.headers.set("Content-Security-Policy", LTIDeepLinking.policy(framedBy: nil, postsTo: nil))
        return response
    }

    /// `GET /lti/continue/:token`: the new window takes over the framed launch's session.
    func continueInWindow(_ request: PortalRequest, token handoff: String) throws -> Response {
        let newToken = Crypto.token()
        guard handoff.utf8.count <= 100, let location = try request.database.run({
            try LTILaunchStore().takeHandoff(token: handoff, browser: LTILogin.browserHash(request), newToken: newToken, $0)
        }) else {
            throw PageRefusal(.gone, "lti.handoff_gone")
        }
        var response = Response.redirect(to: location)
        try accounts.signedIn(token: newToken, request, &response)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// The student's session of a preset: the unfinished one from this graded link, if there is
    /// one, else a new one (graded when the link is).
    private func startSession(
        _ preset: LaunchTarget.Preset, grading: (platformID: Int, linkID: String, lineItem: String, subject: String)?, token: String, _ request: PortalRequest
    ) throws -> UUID {
        let settings = accounts.settings
        let locale = pages.locale(for: request)
        return try request.database.transaction { connection in
            let store = LTILaunchStore()
            if let grading, let existing = try store.unfinishedGradedSession(platformID: grading.platformID, resourceLinkID: grading.linkID, subject: grading.subject, connection) {
                return existing
            }
            let now = clock()
            guard let user = try AccountStore().sessionUser(token: token, now: now, idle: settings.idleTimeout, absolute: settings.absoluteLifetime, connection) else {
                throw PageRefusal(.unauthorized, "lti.state_used")
            }
            var domains = Set(preset.domains)
            // A practice link that names no domain covers the whole exam.
            if domains.isEmpty, preset.mode == .practice, let exam = try ExamCatalog().exam(region: preset.region, slug: preset.slug, connection) {
                domains = Set(exam.domains.map(\.slug))
            }
            let wanted = SessionStart.SessionRequest(
                region: preset.region, slug: preset.slug, mode: preset.mode, domains: domains, difficulty: preset.difficulty, count: preset.count, shareLinkID: nil)
            let session = try starter.create(wanted, actor: StudyActor(user: user), now: now, locale: locale, connection)
            if let grading {
                try store.addGradedSession(
                    sessionID: session, platformID: grading.platformID, resourceLinkID: grading.linkID, lineItemURL: grading.lineItem, subject: grading.subject, connection)
            }
            return session
        }
    }

    /// The path and query of `address` when it is on this site (`SiteTarget`); nil otherwise.
    static func localPath(of address: String, site: SiteAddress, _ request: PortalRequest) -> SiteTarget? {
        SiteTarget(address, origin: site.url("", for: request.head, peer: request.http.remoteAddress))
    }
}
