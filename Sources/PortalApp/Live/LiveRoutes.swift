import HTTPServer

/// Live events: taking part (anyone with the code) and hosting (teachers and admins); each
/// page that needs Redis says so in words when it is out of reach.
struct LiveRoutes {
    let live: LivePages

    var routes: [PortalRoute] {
        let live = self.live
        return [
            PortalRoute("livePlay", "GET /live/:code", .visitors) { request, p in try live.explained(request) { try live.play(request, code: p["code"]) } },
            PortalRoute("liveJoin", "POST /live/:code/join", .visitors) { request, p in try live.explained(request) { try live.join(request, code: p["code"]) } },
            PortalRoute("liveAnswer", "POST /live/:code/answers", .visitors) { request, p in
                try live.explained(request) { try live.answer(request, code: p["code"]) }
            },
            PortalRoute("liveEvents", "GET /live/:code/events", .visitors) { request, p in
                try live.explained(request) { try live.events(request, code: p["code"]) }
            },
            PortalRoute("newLiveEvent", "GET /live/new", .teachers) { request, _ in try live.newEventForm(request, request.member()) },
            PortalRoute("createLiveEvent", "POST /live", .teachers) { request, _ in try live.create(request, request.member()) },
            PortalRoute("hostLive", "GET /live/:code/host", .teachers) { request, p in try live.host(request, request.member(), code: p["code"]) },
            PortalRoute("startLive", "POST /live/:code/start", .teachers) { request, p in
                try live.explained(request) { try live.start(request, request.member(), code: p["code"]) }
            },
            PortalRoute("liveScreen", "GET /live/:code/screen", .teachers) { request, p in
                try live.explained(request) { try live.screen(request, request.member(), code: p["code"]) }
            },
        ]
    }
}
