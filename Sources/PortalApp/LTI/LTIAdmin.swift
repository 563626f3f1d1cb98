import ExamData
import Foundation
import HTTPServer

/// `/admin/lti`: the tool's addresses to copy into an LMS, the platforms registered to launch it
/// (with a form to register another, or more deployments of one, audited like the command
/// line's `portal lti add-platform`), and how the scores on their way back stand.
struct LTIAdmin: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let clock: @Sendable () -> Date

    struct Page: Encodable {
        struct Endpoint: Encodable {
            var name: String
            var url: String
        }
        struct Platform: Encodable {
            var issuer: String
            var clientID: String
            var deployments: String
            var authURL: String
            var tokenURL: String
            var jwksURL: String
        }
        var endpoints: [Endpoint]
        var platforms: [Platform]
        var hasPlatforms: Bool
        var waiting: Int
        var sent: Int
        var lastError: String?
        var problem: String?
        var added: Bool
        var form: FormValues
    }

    /// What the form showed, given back with a refusal.
    struct FormValues: Encodable {
        var issuer = "", client_id = "", deployments = "", auth_url = "", token_url = "", jwks_url = ""

        init(_ values: [String: String] = [:]) {
            issuer = values["issuer"] ?? ""
            client_id = values["client_id"] ?? ""
            deployments = values["deployments"] ?? ""
            auth_url = values["auth_url"] ?? ""
            token_url = values["token_url"] ?? ""
            jwks_url = values["jwks_url"] ?? ""
        }
    }

    func page(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try show(request, problem: nil, form: [:], status: .ok)
    }

    /// `POST /admin/lti/platforms`.
    func addPlatform(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = FormReader(fields: request.formFields)
        var values: [String: String] = [:]
        for name in ["issuer", "client_id", "deployments", "auth_url", "token_url", "jwks_url"] { values[name] = form.trimmed(name) }
        let deployments = (values["deployments"] ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let registration = PlatformRegistration(
            issuer: values["issuer"] ?? "", clientID: values["client_id"] ?? "", deploymentIDs: deployments, authURL: values["auth_url"] ?? "",
            tokenURL: values["token_url"] ?? "", jwksURL: values["jwks_url"] ?? "")
        if let problem = registration.problem {
            return try show(request, problem: pages.message("lti.admin_" + problem.key, for: request, problem.arguments), form: values, status: .unprocessableContent)
        }
        try request.database.transaction { connection in
            let saved = try LTIStore().addPlatform(
                issuer: registration.issuer, clientID: registration.clientID, authURL: registration.authURL, tokenURL: registration.tokenURL,
                jwksURL: registration.jwksURL, deploymentIDs: registration.deploymentIDs, connection)
            // The same registration sent again changes nothing, and is not audited again.
            guard saved.changed else { return }
            try AdminStore().audit(
                actorName: user.displayName, action: "lti.platform", target: registration.issuer,
                details: ["client_id": registration.clientID, "deployments": registration.deploymentIDs.joined(separator: ","), "new": String(saved.added)],
                at: clock(), connection)
        }
        return .redirect(to: "/admin/lti?added=1")
    }

    private func show(_ request: PortalRequest, problem: String?, form: [String: String], status: HTTPStatus) throws -> Response {
        let (platforms, outbox) = try request.database.transaction { connection in
            (try LTILaunchStore().platforms(connection), try LTIScoreOutbox().summary(connection))
        }
        func url(_ path: String) -> String { site.url(path, for: request.head, peer: request.http.remoteAddress) }
        let page = Page(
            endpoints: [
                .init(name: pages.message("lti.admin_login_url", for: request), url: url("/lti/login")),
                .init(name: pages.message("lti.admin_launch_url", for: request), url: url("/lti/launch")),
                .init(name: pages.message("lti.admin_deep_link_url", for: request), url: url("/lti/launch")),
                .init(name: pages.message("lti.admin_jwks_url", for: request), url: url("/lti/jwks.json")),
            ],
            platforms: platforms.map {
                .init(issuer: $0.platform.issuer, clientID: $0.platform.clientID, deployments: $0.deployments.joined(separator: ", "),
                      authURL: $0.platform.authURL, tokenURL: $0.platform.tokenURL, jwksURL: $0.platform.jwksURL)
            },
            hasPlatforms: !platforms.isEmpty, waiting: outbox.waiting, sent: outbox.sent, lastError: outbox.lastError, problem: problem,
            added: request.query["added"] != nil, form: FormValues(form))
        return try pages.privatePage("admin/lti", page, request, status: status)
    }
}
