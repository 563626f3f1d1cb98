import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// `POST /lti/launch`: the platform's form post with the `id_token` and the login's `state`.
/// The state is taken once (bound to the browser that began the login); the token's signature
/// is checked against the platform's key set and its claims against the registration and the
/// login's nonce; then the database signs the platform's user in (linked by issuer and `sub`),
/// brings the course's class along, and the launch opens its target — a preset session for a
/// student (graded when the link is), the class for its teacher, the deep-linking page for an
/// instructor choosing what to link. Any failure is a page saying what was wrong, with nobody
/// signed in and nothing made.
struct LTILaunch: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let clock: @Sendable () -> Date
    let keySets: KeySetCache
    let accounts: AccountPages
    let starter: SessionStart

    func launch(_ request: PortalRequest) throws -> Response {
        func refuse(_ key: String, _ arguments: [String: String] = [:], status: HTTPStatus = .badRequest) -> HTTPError {
            HTTPError(status, pages.message("lti." + key, for: request, arguments))
        }
        let form = FormFields(body: request.body)
        guard let idToken = form["id_token"], !idToken.isEmpty, let state = form["state"], !state.isEmpty, state.utf8.count <= 200 else {
            // A platform that will not sign the user in (prompt=none) says why.
            if let error = form["error"] {
                throw refuse("platform_refused", ["error": String(error.prefix(60)), "description": String((form["error_description"] ?? "").prefix(300))])
            }
            throw refuse("launch_incomplete")
        }
        let store = LTILaunchStore()
        let taken = try request.database.run { try store.takeState(state, browser: LTILogin.browserHash(request), $0) }
        let platformID: Int, nonce: String
        switch taken {
        case .taken(let id, let loginNonce, _): (platformID, nonce) = (id, loginNonce)
        case .unknown: throw refuse("state_unknown")
        case .used: throw refuse("state_used")
        case .expired: throw refuse("state_expired")
        case .otherBrowser: throw refuse("state_other_browser")
        }
        guard let platform = try request.database.run({ try store.platform(id: platformID, $0) }) else { throw refuse("state_unknown") }

        let keys = keySets.lookup(platform.jwksURL)
        let token: WebToken
        do {
            token = try WebToken.verify(idToken, now: clock(), keys: keys.key)
        } catch {
            if let problem = keys.problem { throw refuse("keys_unreachable", ["reason": problem], status: .badGateway) }
            throw refuse("bad_token", ["reason": error.description], status: .unauthorized)
        }
        let message: LaunchMessage
        do {
            message = try LaunchMessage(token, issuer: platform.issuer, clientID: platform.clientID, nonce: nonce)
        } catch {
            throw refuse(error.key, error.arguments, status: .unauthorized)
        }
        // What the launch opens is settled before anyone is signed in.
        var target = LaunchTarget.page("/me")
        switch message.kind {
        case .resourceLink(_, _, let targetLinkURI):
            guard let local = Self.localPath(of: targetLinkURI, site: site, request) else { throw refuse("foreign_target") }
            target = LaunchTarget(path: local.path, query: local.query)
        case .deepLinking:
            guard message.isTeacher else { throw refuse("deep_link_teachers", status: .forbidden) }
        }

        let sessionToken = Crypto.token()
        let launcher = LTILaunchStore.Launcher(
            deploymentID: message.deploymentID, subject: message.subject, name: message.name, isTeacher: message.isTeacher,
            contextID: message.context?.id, contextTitle: message.context?.title, membershipsURL: message.membershipsURL)
        let signedIn = try request.database.run {
            try store.signIn(state: state, launcher, token: sessionToken, csrfToken: Crypto.token(), userAgent: request.headers["User-Agent"] ?? "", $0)
        }
        let classID: UUID?
        switch signedIn {
        case .signedIn(_, let course): classID = course
        case .noState: throw refuse("state_used")
        case .unknownDeployment: throw refuse("unknown_deployment", ["deployment": String(message.deploymentID.prefix(200))])
        case .disabled: throw refuse("account_disabled", status: .forbidden)
        }
        var response = Response.redirect(to: "/me")
        try accounts.signedIn(token: sessionToken, request, &response)

        let location: String
        switch message.kind {
        case .deepLinking(let returnURL, let data, let acceptsLineItem):
            let choice = Crypto.token()
            try request.database.transaction {
                try store.saveDeepLink(
                    token: choice, platformID: platform.id, deploymentID: message.deploymentID, returnURL: returnURL, data: data,
                    acceptsLineItem: acceptsLineItem, at: clock(), $0)
            }
            location = "/lti/deep-link/\(choice)"
        case .resourceLink(let linkID, _, _):
            switch target {
            case _ where message.isTeacher:
                location = classID.map { "/teach/classes/\($0.lowercasedText)" } ?? target.path
            case .preset(let preset):
                // Signed in either way: a preset that cannot start now (an exam since removed,
                // nothing at that difficulty) lands on the exam's page, which says why.
                let session = try? startSession(
                    preset, grading: message.lineItemURL.map { (platform.id, linkID, $0, message.subject) }, token: sessionToken, request)
                location = session.map { "/sessions/\($0.lowercasedText)" } ?? LaunchTarget.exam(region: preset.region, slug: preset.slug).path
            case .exam, .page:
                location = target.path
            }
        }
        if request.headers["Sec-Fetch-Dest"] == "iframe", case .resourceLink = message.kind {
            return try handOver(location: location, title: message.resourceTitle, request)
        }
        response.headers.set("Location", location)
        response.headers.set("Cache-Control", "no-store")
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
            throw HTTPError(.badRequest, pages.message("lti.state_used", for: request))
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
    func continueInWindow(_ request: PortalRequest) throws -> Response {
        let handoff = request.parameter("token"), newToken = Crypto.token()
        guard handoff.utf8.count <= 100, let location = try request.database.run({
            try LTILaunchStore().takeHandoff(token: handoff, browser: LTILogin.browserHash(request), newToken: newToken, $0)
        }) else {
            throw HTTPError(.gone, pages.message("lti.handoff_gone", for: request))
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
                throw HTTPError(.unauthorized, pages.message("lti.state_used", locale: locale))
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
