import HTTPServer

/// LTI 1.3: the tool's key set, login initiation, the launch and its continuation in a window
/// of its own, deep linking (posted from an LMS's page), a class's roster from the platform's
/// services, and the admin page of platforms.
struct LTIRoutes {
    let pages: PageRenderer
    let login: LTILogin
    let launch: LTILaunch
    let deepLinking: LTIDeepLinking
    /// Rosters come from an LMS's services; without them there is no roster to show (404).
    let roster: LTIRoster?
    let admin: LTIAdmin

    var routes: [PortalRoute] {
        let roster = self.roster
        return [
            PortalRoute("ltiKeys", "GET /lti/jwks.json", .sameForEveryone) { request, _ in try LTIKeys().jwks(request) },
            PortalRoute("ltiLogin", "GET /lti/login", .fromOtherSites) { request, _ in try login.initiate(request) },
            PortalRoute("ltiLoginPosted", "POST /lti/login", .fromOtherSites) { request, _ in try login.initiate(request) },
            PortalRoute("ltiLaunch", "POST /lti/launch", .fromOtherSites) { request, _ in try launch.launch(request) },
            PortalRoute("ltiContinue", "GET /lti/continue/:token", .fromOtherSites) { request, p in
                try launch.continueInWindow(request, token: p["token"])
            },
            PortalRoute("deepLink", "GET /lti/deep-link/:token", .fromOtherSites) { request, p in try deepLinking.choose(request, token: p["token"]) },
            PortalRoute("deepLinkChosen", "POST /lti/deep-link/:token", .fromOtherSites) { request, p in
                try deepLinking.answer(request, token: p["token"])
            },
            PortalRoute("roster", "GET /teach/classes/:id(uuid)/roster", .teachers) { request, p in
                guard let roster else { throw PageRefusal(.notFound, "error.nothing_here") }
                return try roster.roster(request, request.member(), class: p.uuid("id"))
            },
            PortalRoute("ltiAdmin", "GET /admin/lti", .admins) { request, _ in try admin.page(request, request.member()) },
            PortalRoute("addPlatform", "POST /admin/lti/platforms", .admins) { request, _ in try admin.addPlatform(request, request.member()) },
        ]
    }
}
