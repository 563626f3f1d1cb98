import ExamData
import Foundation
import HTTPServer
import QuestionEngine
import WebToken

/// Deep linking: an instructor adding the portal to a course chooses what the link opens — an
/// exam's page, or a practice or mock session with a preset — and the choice goes back to the
/// platform as an `LtiDeepLinkingResponse` signed with the tool's key (an `ltiResourceLink`,
/// with a line item when it is graded). Platforms show this in a frame of their own page, where
/// the portal's cookie may not arrive: the request's token in the address admits the
/// instructor, and the pages may be framed by that platform only.
struct LTIDeepLinking: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let clock: @Sendable () -> Date

    struct Page: Encodable {
        struct Region: Encodable {
            var name: String
            var exams: [Exam]
        }
        struct Exam: Encodable {
            var value: String
            var title: String
            var selected: Bool
        }
        var token: String
        var regions: [Region]
        var graded: Bool
        var problem: String?
        var title: String
    }

    /// `GET /lti/deep-link/:token`: the choice.
    func choose(_ request: PortalRequest, token: String) throws -> Response {
        let (link, platform) = try pending(token, use: false, request)
        return try page(token: token, link: link, framedBy: [platform.issuer, link.returnURL], problem: nil, request)
    }

    /// The teacher's choice on the deep-linking page: the exam (`region/slug`), what the link
    /// opens (the exam's page, or a practice or mock preset: its count and difficulty), its
    /// title and whether it is graded. What it cannot take is said on the page again.
    struct ChoiceForm: PostedForm {
        let exam: String
        let opens: String
        /// nil when not a number.
        let count: Int?
        /// nil when not a range of levels from 1 to 5.
        let difficulty: ClosedRange<Int>?
        let title: String
        let graded: Bool

        init(_ form: FormReader) throws(PageRefusal) {
            (exam, opens) = (form.text("exam"), form.optional("opens") ?? "page")
            (count, difficulty) = (form.int("count", absent: 20), form.levels("from", "to"))
            (title, graded) = (form.trimmed("title"), form.isOn("graded"))
        }
    }

    /// `POST /lti/deep-link/:token`: the signed answer, in a form the browser posts back to the
    /// platform.
    func answer(_ request: PortalRequest, token: String) throws -> Response {
        let form = try request.form(ChoiceForm.self)
        let (link, platform) = try pending(token, use: false, request)
        func again(_ key: String) throws -> Response {
            try page(token: token, link: link, framedBy: [platform.issuer, link.returnURL], problem: pages.message(key, for: request), request, status: .unprocessableContent)
        }
        let exam = form.exam.split(separator: "/", maxSplits: 1).map(String.init)
        guard exam.count == 2, let detail = try request.database.run({ try ExamCatalog().exam(region: exam[0], slug: exam[1], $0) }) else {
            return try again("lti.deep_link_no_exam")
        }
        let target: LaunchTarget
        switch form.opens {
        case "page": target = .exam(region: detail.regionCode, slug: detail.slug)
        case let opens:
            guard let mode = StudyMode(rawValue: opens), mode == .practice || mode == .mock else { return try again("lti.deep_link_bad_choice") }
            guard let count = form.count, (1...SessionStart.maximumCount).contains(count), let difficulty = form.difficulty else {
                return try again("lti.deep_link_bad_choice")
            }
            target = .preset(LaunchTarget.Preset(region: detail.regionCode, slug: detail.slug, mode: mode, count: count, difficulty: difficulty, domains: []))
        }
        var title = form.title
        if title.isEmpty { title = detail.title }
        guard title.count <= 120 else { return try again("lti.deep_link_bad_choice") }
        // Used now: a second answer to the same request finds nothing.
        guard try request.database.run({ try LTILaunchStore().deepLink(token: token, use: true, $0) }) != nil else {
            throw PageRefusal(.gone, "lti.deep_link_gone")
        }
        var item: [String: JSONValue] = [
            "type": .string("ltiResourceLink"), "title": .string(title),
            "url": .string(site.url(target.path, for: request.head, peer: request.http.remoteAddress)),
        ]
        if case .preset = target, link.acceptsLineItem, form.graded {
            item["lineItem"] = .object(["scoreMaximum": .number(100), "label": .string(title)])
        }
        let now = clock().timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(platform.clientID), "aud": .string(platform.issuer), "iat": .number(now), "exp": .number(now + 600),
            "nonce": .string(Base64URL.encode(Crypto.randomBytes(16))),
            LaunchMessage.lti + "message_type": .string("LtiDeepLinkingResponse"), LaunchMessage.lti + "version": .string("1.3.0"),
            LaunchMessage.lti + "deployment_id": .string(link.deploymentID),
            Self.deepLinking + "content_items": .array([.object(item)]),
        ]
        // The platform's data goes back exactly as it came, whatever JSON value it is.
        if let data = link.data, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(data.utf8)) { claims[Self.deepLinking + "data"] = value }
        let signing = try request.database.run { try LTIKeys.signingKey($0) }
        let jwt = try WebToken.sign(claims, key: signing.key, kid: signing.kid)
        struct Answer: Encodable {
            var returnURL: String
            var jwt: String
            var title: String
        }
        var response = Response.html(try pages.render("lti/deep-link-return", Answer(returnURL: link.returnURL, jwt: jwt, title: title), for: request))
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Content-Security-Policy", Self.policy(framedBy: [platform.issuer, link.returnURL], postsTo: link.returnURL))
        return response
    }

    static let deepLinking = "https://purl.imsglobal.org/spec/lti-dl/claim/"

    private func pending(_ token: String, use: Bool, _ request: PortalRequest) throws -> (LTILaunchStore.DeepLink, LTILaunchStore.PlatformEndpoints) {
        let store = LTILaunchStore()
        guard token.utf8.count <= 100, let link = try request.database.run({ try store.deepLink(token: token, use: use, $0) }),
              let platform = try request.database.run({ try store.platform(id: link.platformID, $0) }) else {
            throw PageRefusal(.gone, "lti.deep_link_gone")
        }
        return (link, platform)
    }

    private func page(
        token: String, link: LTILaunchStore.DeepLink, framedBy ancestors: [String], problem: String?, _ request: PortalRequest, status: HTTPStatus = .ok
    ) throws -> Response {
        // A choice refused is shown again with what was chosen.
        let form = try request.form(ChoiceForm.self)
        let regions = try request.database.run { try ExamCatalog().regions($0) }
        let page = Page(
            token: token,
            regions: regions.map { region in
                Page.Region(name: region.name, exams: region.exams.map {
                    let value = "\(region.code)/\($0.slug)"
                    return Page.Exam(value: value, title: $0.title, selected: form.exam == value)
                })
            },
            graded: link.acceptsLineItem, problem: problem, title: form.title)
        var response = Response.html(try pages.render("lti/deep-link", page, for: request), status: status)
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Content-Security-Policy", Self.policy(framedBy: ancestors, postsTo: nil))
        return response
    }

    /// The site's policy, but framed by the platform's pages — its issuer's origin, or that of
    /// the address its answer goes back to (an LMS whose issuer names its vendor serves the
    /// course from the school's own host) — or, given nil, by any page; and posting to its
    /// return address.
    static func policy(framedBy ancestors: [String]?, postsTo returnURL: String?) -> String {
        func origin(_ address: String) -> String? {
            guard let url = URL(string: address), let scheme = url.scheme, let host = url.host else { return nil }
            return scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
        }
        var framing: [String] = []
        for ancestor in (ancestors ?? []).compactMap(origin) where !framing.contains(ancestor) { framing.append(ancestor) }
        return "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
            + (ancestors == nil ? "" : "frame-ancestors 'self' \(framing.joined(separator: " ")); ")
            + "form-action 'self'" + (returnURL.flatMap(origin).map { " " + $0 } ?? "")
    }
}
