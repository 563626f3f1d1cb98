import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing
import WebToken

/// The tool's LTI key pair: made on first use, published as a JWK set, its private half out of
/// reach of the app's queries, rotated with the old key still published.
@Suite("LTI keys", .onTestThreads)
struct LTIKeysTests {
    struct KeySet: Decodable {
        struct Key: Decodable {
            var kty: String, use: String, alg: String, kid: String, n: String, e: String
        }
        var keys: [Key]
    }

    func keySet(_ site: PortalSite) throws -> KeySet {
        let response = try site.browser().request("GET", "/lti/jwks.json")
        #expect(response.status == 200 && response.header("Content-Type")?.hasPrefix("application/json") == true)
        return try JSONDecoder().decode(KeySet.self, from: Data(response.body))
    }

    @Test("the first request makes the key; the set publishes it as RS256 and a token signed with it verifies against what is published")
    func publishedKey() throws {
        let site = try PortalSite()
        #expect(try site.count("SELECT count(*) AS n FROM lti_tool_keys") == 0)
        let first = try keySet(site)
        #expect(first.keys.count == 1 && first.keys[0].kty == "RSA" && first.keys[0].alg == "RS256" && first.keys[0].use == "sig")
        #expect(try keySet(site).keys.map(\.kid) == first.keys.map(\.kid), "the same key again, not a new one")
        let signing = try #require(try site.admin { try LTIStore().signingKey($0) })
        #expect(signing.kid == first.keys[0].kid)
        let token = try WebToken.sign(["iss": .string("tool"), "exp": .number(Date().timeIntervalSince1970 + 60)], key: try RSAKey.privateKey(pem: signing.pem), kid: signing.kid)
        let published = try RSAKey.publicKey(modulus: first.keys[0].n, exponent: first.keys[0].e)
        #expect(try WebToken.verify(token, now: Date()) { $0 == first.keys[0].kid ? published : nil }.string("iss") == "tool")
    }

    @Test("the app's role cannot read the private keys, even as an admin, nor rotate them; a second first key is refused")
    func privateKeysOutOfReach() throws {
        let site = try PortalSite()
        _ = try keySet(site)
        let admin = try site.database.makeAccount("keeper", role: "admin")
        let pool = site.database.appPool()
        #expect(throws: PostgresError.self) { try pool.asCaller(admin) { try $0.query("SELECT private_pem FROM lti_tool_keys").rows } }
        #expect(throws: PostgresError.self) { try pool.asCaller(admin) { try $0.execute("SELECT lti_rotate_key('abcdefgh', 'x', 'y', 'z')") } }
        #expect(throws: PostgresError.self) { try pool.asCaller(admin) { try $0.execute("UPDATE lti_tool_keys SET retired_at = now()") } }
        let key = try RSAKey.generate()
        let added = try pool.asCaller(admin) {
            try LTIStore().addFirstKey(kid: "another-key", pem: key.pem, modulus: key.publicComponents.modulus, exponent: key.publicComponents.exponent, $0)
        }
        #expect(!added, "one current key at a time")
        #expect(try site.count("SELECT count(*) AS n FROM lti_tool_keys") == 1)
    }

    @Test("a rotation publishes the new key first and keeps the old one a week; the new one signs")
    func rotation() throws {
        let site = try PortalSite()
        let before = try keySet(site).keys
        let key = try RSAKey.generate()
        try site.admin { try LTIStore().rotate(kid: "rotated-key-1", pem: key.pem, modulus: key.publicComponents.modulus, exponent: key.publicComponents.exponent, $0) }
        let after = try keySet(site).keys
        #expect(after.map(\.kid) == ["rotated-key-1"] + before.map(\.kid))
        #expect(try site.admin { try LTIStore().signingKey($0) }?.kid == "rotated-key-1")
        try site.admin { try $0.execute("UPDATE lti_tool_keys SET retired_at = now() - interval '8 days' WHERE retired_at IS NOT NULL") }
        #expect(try keySet(site).keys.map(\.kid) == ["rotated-key-1"], "a week after, the old key is no longer published")
    }
}

/// LTI's login initiation: the redirect to the platform with a fresh state and nonce kept on
/// the server, and the refusals.
@Suite("LTI login initiation", .onTestThreads)
struct LTILoginTests {
    @Test("a registered platform's login, by GET or a cross-site POST, is sent to its authorisation endpoint with state and nonce kept hashed; unknown platforms and foreign targets are refused")
    func initiation() throws {
        let site = try PortalSite()
        _ = try site.admin {
            try LTIStore().addPlatform(
                issuer: "https://lms.example.org", clientID: "portal-1", authURL: "https://lms.example.org/auth?tenant=7", tokenURL: "https://lms.example.org/token",
                jwksURL: "https://lms.example.org/jwks", deploymentIDs: ["d1"], $0)
        }
        let browser = site.browser()
        let origin = "http://127.0.0.1:\(browser.port)"
        let hint = "user 1+2"
        let posted = try browser.request("POST", "/lti/login", form: [
            "iss": "https://lms.example.org", "login_hint": hint, "target_link_uri": origin + "/exams/\(MiniExam.region)/\(MiniExam.exam)",
            "lti_message_hint": "resource-9", "client_id": "portal-1",
        ], extraHeaders: "Origin: https://lms.example.org\r\nSec-Fetch-Site: cross-site\r\n")
        #expect(posted.status == 302, "a cross-site POST from the LMS is the protocol, not a forgery")
        let location = try #require(posted.header("Location").flatMap(URLComponents.init(string:)))
        #expect(location.host == "lms.example.org" && location.path == "/auth")
        let query = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["tenant"] == "7" && query["scope"] == "openid" && query["response_type"] == "id_token" && query["response_mode"] == "form_post")
        #expect(query["prompt"] == "none" && query["client_id"] == "portal-1" && query["redirect_uri"] == origin + "/lti/launch")
        #expect(query["login_hint"] == hint && query["lti_message_hint"] == "resource-9", "the hints go back as given, a plus included")
        let state = try #require(query["state"]), nonce = try #require(query["nonce"])
        #expect(state.count >= 40 && nonce.count >= 30 && state != nonce)
        // Kept by its hash, with the nonce and the target.
        #expect(try site.count("""
            SELECT count(*) AS n FROM lti_states WHERE state_hash = sha256(convert_to(\(state), 'UTF8')) AND nonce = \(nonce)
              AND target_link_uri = \(origin + "/exams/\(MiniExam.region)/\(MiniExam.exam)")
            """) == 1)
        // A GET works the same; each login its own state.
        let again = try browser.request("GET", "/lti/login?iss=https%3A%2F%2Flms.example.org&login_hint=u&target_link_uri=\(origin)%2F")
        #expect(again.status == 302 && !(again.header("Location") ?? "").contains(state))
        #expect(try site.count("SELECT count(*) AS n FROM lti_states") == 2)
        // Refused, with the reason and nothing kept.
        let unknown = try browser.request("GET", "/lti/login?iss=https%3A%2F%2Fother.example.org&login_hint=u&target_link_uri=\(origin)%2F")
        #expect(unknown.status == 400 && unknown.bodyText.contains("The LMS https://other.example.org is not registered with this portal"))
        let wrongClient = try browser.request("GET", "/lti/login?iss=https%3A%2F%2Flms.example.org&client_id=nope&login_hint=u&target_link_uri=\(origin)%2F")
        #expect(wrongClient.status == 400)
        let foreign = try browser.request("GET", "/lti/login?iss=https%3A%2F%2Flms.example.org&login_hint=u&target_link_uri=https%3A%2F%2Fevil.example.com%2F")
        #expect(foreign.status == 400 && foreign.bodyText.contains("a launch lands only on this portal"))
        let incomplete = try browser.request("GET", "/lti/login?iss=https%3A%2F%2Flms.example.org")
        #expect(incomplete.status == 400 && incomplete.bodyText.contains("lacks iss, login_hint or target_link_uri"))
        #expect(try site.count("SELECT count(*) AS n FROM lti_states") == 2)
    }
}

/// The admin's LTI page: the tool's addresses to copy, registering a platform (refused with the
/// reason for a plain-HTTP address elsewhere, audited when accepted), the outbox's state.
@Suite("LTI administration", .onTestThreads)
struct LTIAdminTests {
    @Test("an admin sees the tool's endpoints, registers a platform once the addresses are HTTPS, and the registration is audited; others get a 404")
    func registerOnThePage() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let page = try admin.request("GET", "/admin/lti")
        #expect(page.status == 200)
        #expect(page.bodyText.contains("http://127.0.0.1:\(site.server.port)/lti/login"))
        #expect(page.bodyText.contains("http://127.0.0.1:\(site.server.port)/lti/jwks.json"))
        var form = [
            "csrf_token": csrf, "issuer": "https://lms.example.edu", "client_id": "abc123", "deployments": "1\n2\n",
            "auth_url": "https://lms.example.edu/auth", "token_url": "http://lms.example.edu/token", "jwks_url": "https://lms.example.edu/jwks",
        ]
        let refused = try admin.request("POST", "/admin/lti/platforms", form: form)
        #expect(refused.status == 422)
        #expect(refused.bodyText.contains("token_url must be an https:// address"))
        #expect(refused.bodyText.contains("value=\"abc123\""))
        #expect(try site.count("SELECT count(*)::int AS n FROM lti_platforms") == 0)
        form["token_url"] = "https://lms.example.edu/token"
        #expect(try admin.request("POST", "/admin/lti/platforms", form: form).status == 303)
        let listed = try admin.request("GET", "/admin/lti?added=1")
        #expect(listed.bodyText.contains("https://lms.example.edu"))
        #expect(listed.bodyText.contains("1, 2"))
        #expect(try site.count("SELECT count(*)::int AS n FROM lti_deployments") == 2)
        #expect(try site.count("SELECT count(*)::int AS n FROM audit_log WHERE action = 'lti.platform' AND target = 'https://lms.example.edu'") == 1)
        let check = try HTMLChecker.passes([("lti admin", listed.body), ("refused", refused.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        let (student, _, _) = try site.account("pupil", role: "student")
        #expect(try student.request("GET", "/admin/lti").status == 404)
    }
}
