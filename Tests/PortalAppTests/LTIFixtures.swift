import ExamData
import Foundation
import HTTPClient
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// A learning platform registered with the portal, its keys and launches, as the LTI tests use them.
enum LTIFixtures {
    /// The portal, the test platform registered with it, and the platform told where the tool is.
    final class Setup {
        let site: PortalSite
        let platform: ScriptServer
        let client = HTTPClient(configuration: .init(timeout: 10, allowsLoopbackHTTP: true))
        var lms: String { "http://127.0.0.1:\(platform.port)/lms" }
        var idp: String { "http://127.0.0.1:\(platform.port)/idp" }
        var tool: String { "http://127.0.0.1:\(site.server.port)" }

        /// `listening`: with the background jobs running (the score sender among them).
        init(listening: Bool = false) throws {
            site = try PortalSite(listening: listening, environment: ["OUTBOUND_ALLOW_LOOPBACK_HTTP": "1"], agent: true)
            platform = try ScriptServer(script: "lti_platform.py", interpreter: "/usr/bin/python3")
            _ = try LTIStore().addPlatform(
                issuer: lms, clientID: "portal-tool", authURL: lms + "/auth", tokenURL: lms + "/token", jwksURL: lms + "/jwks",
                deploymentIDs: ["deployment-1"], try site.database.adminConnection())
            try control("config", ["tool_jwks_url": .string(tool + "/lti/jwks.json"), "tool_login_url": .string(tool + "/lti/login")])
            // The agent fetches the platform's key set, as it does when a platform is registered.
            #expect(agent.runOnce().keySets == 1)
        }

        var agent: AuthAgent { site.agent! }

        /// Posts a launch as the browser would, posting again as the portal's "one moment" page
        /// does while the agent fetches the platform's keys.
        func post(_ fields: [String: String], browser: Browser, extraHeaders: String = "") throws -> RawHTTPClient.Response {
            var answer = try browser.request("POST", "/lti/launch", form: fields, extraHeaders: extraHeaders)
            var tries = 0
            while answer.status == 503, answer.bodyText.contains("id=\"try-again\""), tries < 5 {
                agent.runOnce()
                answer = try browser.request("POST", "/lti/launch", form: fields, extraHeaders: extraHeaders)
                tries += 1
            }
            return answer
        }

        /// Tells the platform something (`/control/NAME`).
        func control(_ name: String, _ body: [String: JSONValue]) throws {
            let response = try client.send(
                "POST", "http://127.0.0.1:\(platform.port)/control/" + name, headers: [("Content-Type", "application/json")],
                body: Array(try JSONEncoder().encode(JSONValue.object(body))))
            #expect(response.status == 200)
        }

        /// What arrived at the platform.
        func log() throws -> [String: JSONValue] {
            let response = try client.send("GET", "http://127.0.0.1:\(platform.port)/control/log")
            guard case .object(let log) = try JSONDecoder().decode(JSONValue.self, from: Data(response.body)) else { return [:] }
            return log
        }

        func logged(_ name: String) throws -> [JSONValue] {
            if case .array(let entries)? = try log()[name] { return entries }
            return []
        }

        /// A scenario: the claims the platform puts in (or, as null, leaves out of) the id_token.
        func scenario(_ name: String, _ claims: [String: JSONValue], target: String = "/", signWith: String = "lms", kid: String? = nil) throws {
            var body: [String: JSONValue] = ["name": .string(name), "claims": .object(claims), "sign_with": .string(signWith), "login_target": .string(tool + target)]
            if let kid { body["kid"] = .string(kid) }
            try control("scenario", body)
        }

        /// The login at the tool and the platform's answer: the id_token and state its page would post.
        /// `storage`: the platform offers its postMessage storage (`lti_storage_target`).
        func beginLaunch(_ scenario: String, user: String, browser: Browser, target: String = "/", storage: String? = nil) throws -> (idToken: String, state: String) {
            var query = URLComponents()
            query.queryItems = [
                URLQueryItem(name: "iss", value: lms), URLQueryItem(name: "login_hint", value: user), URLQueryItem(name: "target_link_uri", value: tool + target),
                URLQueryItem(name: "lti_message_hint", value: scenario), URLQueryItem(name: "client_id", value: "portal-tool"),
            ] + (storage.map { [URLQueryItem(name: "lti_storage_target", value: $0)] } ?? [])
            let login = try browser.request("GET", "/lti/login?" + (query.percentEncodedQuery ?? ""))
            let location: String
            if storage != nil {
                // The page puts the state into the platform's storage, then goes on.
                #expect(login.status == 200)
                location = try #require(Self.attribute("data-next", in: login.bodyText))
            } else {
                #expect(login.status == 302)
                location = try #require(login.header("Location"))
            }
            let page = try client.send("GET", location)
            let text = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200, "the platform refused the tool's request: \(text)")
            return (try #require(Self.field("id_token", in: text)), try #require(Self.field("state", in: text)))
        }

        /// A whole launch as a browser makes it; the tool's answer to the post.
        func launch(_ scenario: String, user: String, browser: Browser) throws -> RawHTTPClient.Response {
            let (idToken, state) = try beginLaunch(scenario, user: user, browser: browser)
            return try post(["id_token": idToken, "state": state], browser: browser)
        }

        static func field(_ name: String, in page: String) -> String? {
            guard let range = page.range(of: "name=\"\(name)\" value=\"") else { return nil }
            return String(page[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        }

        static func attribute(_ name: String, in page: String) -> String? {
            guard let range = page.range(of: "\(name)=\"") else { return nil }
            return String(page[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        }

        /// What a launch might create: accounts, links, sessions, classes, graded sessions.
        func created() throws -> [Int] {
            try ["users", "external_identities", "auth_sessions", "classes", "lti_graded_sessions", "study_sessions"].map {
                try site.count("SELECT count(*)::int AS n FROM \(identifier: PostgresIdentifier($0)!)")
            }
        }
    }

    static let lti = "https://purl.imsglobal.org/spec/lti/claim/"
}
