import ExamData
import Foundation
import HTTPClient
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// Single sign-on against the test identity provider (`Tests/Fixtures/lti_platform.py`, its
/// `/idp` half): registering it by discovery, signing in by code + PKCE, accounts linked by
/// (issuer, sub), teachers by a claim, domains kept out, linking and unlinking in settings, and
/// the attacks — a state carried to another browser, a replayed answer, a token another party
/// signed.
@Suite("Single sign-on", .serialized, .onTestThreads)
struct SingleSignOnTests {

    @Test("an admin registers the provider by discovery; students and teachers sign in with it and come back to the same accounts")
    func signInWithTheProvider() throws {
        let setup = try SSOFixtures.Setup()
        let (admin, csrf) = try setup.site.signedInAdmin()
        let plain = try admin.request("POST", "/admin/sso/providers", form: [
            "csrf_token": csrf, "issuer": "http://idp.example.org", "slug": "x", "label": "X", "client_id": "a", "client_secret": "b"])
        #expect(plain.status == 422 && plain.bodyText.contains("must be an https:// address"))
        let elsewhere = try admin.request("POST", "/admin/sso/providers", form: [
            "csrf_token": csrf, "issuer": setup.idp + "/nowhere", "slug": "x", "label": "X", "client_id": "a", "client_secret": "b"])
        #expect(elsewhere.status == 422 && elsewhere.bodyText.contains("discovery document could not be used"))
        let taken = try admin.request("POST", "/admin/sso/providers", form: [
            "csrf_token": csrf, "issuer": "https://other.example", "slug": "school", "label": "X", "client_id": "a", "client_secret": "b"])
        #expect(taken.status == 422 && taken.bodyText.contains("is another provider"))
        let badSlug = try admin.request("POST", "/admin/sso/providers", form: [
            "csrf_token": csrf, "issuer": "https://other.example", "slug": "Our School", "label": "X", "client_id": "a", "client_secret": "b"])
        #expect(badSlug.status == 422 && badSlug.bodyText.contains("lower-case letters"))
        let adminPage = try admin.request("GET", "/admin/sso?saved=1")
        #expect(adminPage.bodyText.contains("School Login") && adminPage.bodyText.contains("/auth/school/callback"))
        #expect(!adminPage.bodyText.contains("sso-secret"), "the secret is never shown again")
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM audit_log WHERE action = 'sso.provider'") == 1)

        let browser = setup.site.browser()
        let login = try browser.request("GET", "/login")
        #expect(login.bodyText.contains("Sign in with School Login"))
        let check = try HTMLChecker.passes([("login", login.body), ("admin sso", adminPage.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        try setup.user(["sub": .string("pupil-1"), "name": .string("Ada Lovelace"), "email": .string("ada@school.example")])
        let signedIn = try setup.signIn(browser)
        #expect(signedIn.status == 303 && signedIn.header("Location") == "/me", "\(signedIn.bodyText.prefix(2000))")
        #expect(try browser.request("GET", "/me").bodyText.contains("Ada Lovelace"))
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM users u JOIN external_identities i ON i.user_id = u.id WHERE i.kind = 'sso' AND i.subject = 'pupil-1' AND u.role = 'student'") == 1)
        // Again, from another browser: the same account.
        #expect(try setup.signIn(setup.site.browser()).status == 303)
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM external_identities WHERE kind = 'sso'") == 1)
        // A teacher by the provider's groups claim; never an admin.
        try setup.user(["sub": .string("staff-1"), "name": .string("Mr Babbage"), "groups": .array([.string("staff")])])
        #expect(try setup.signIn(setup.site.browser()).status == 303)
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM users u JOIN external_identities i ON i.user_id = u.id WHERE i.subject = 'staff-1' AND u.role = 'teacher'") == 1)
        // The same e-mail under another subject is another person: never linked by e-mail.
        try setup.user(["sub": .string("pupil-2"), "name": .string("Someone Else"), "email": .string("ada@school.example")])
        #expect(try setup.signIn(setup.site.browser()).status == 303)
        #expect(try setup.site.count("SELECT count(DISTINCT user_id)::int AS n FROM external_identities WHERE kind = 'sso'") == 3)
    }

    @Test("a provider admitting one domain keeps others out, and nothing is created")
    func domains() throws {
        let setup = try SSOFixtures.Setup(domains: "school.example")
        let before = try setup.lti.created()
        try setup.user(["sub": .string("outsider"), "name": .string("Out Sider"), "email": .string("out@gmail.example")])
        let refused = try setup.signIn(setup.site.browser())
        #expect(refused.status == 403 && refused.bodyText.contains("from gmail.example are not admitted"))
        #expect(try setup.lti.created() == before)
        try setup.user(["sub": .string("insider"), "name": .string("In Sider"), "email": .string("in@school.example")])
        #expect(try setup.signIn(setup.site.browser()).status == 303)
    }

    @Test("a state carried to another browser, a replayed answer and a token the LMS signed are refused with the reason, and nothing is created")
    func attacks() throws {
        let setup = try SSOFixtures.Setup()
        try setup.user(["sub": .string("pupil-1"), "name": .string("Ada Lovelace")])
        let before = try setup.lti.created()
        let victim = setup.site.browser()
        let callback = try setup.begin(setup.site.browser())
        let carried = try victim.request("GET", callback)
        #expect(carried.status == 400 && carried.bodyText.contains("another browser"))
        #expect(try setup.lti.created() == before)

        let browser = setup.site.browser()
        let answer = try setup.begin(browser)
        #expect(try setup.complete(browser, answer).status == 303)
        let afterFirst = try setup.lti.created()
        let replayed = try browser.request("GET", answer)
        #expect(replayed.status == 400 && replayed.bodyText.contains("used already"))

        // The provider hands back an id_token the LMS signed (an LTI token presented to SSO).
        try setup.lti.control("config", ["idp_signer": .string("lms")])
        let crossed = try setup.signIn(setup.site.browser())
        #expect(crossed.status == 401 && crossed.bodyText.contains("is not among the issuer"))
        #expect(try setup.site.browser().request("GET", "/auth/school/callback?state=x").status == 400)
        #expect(try setup.site.browser().request("GET", "/auth/school/callback?error=access_denied&error_description=no").bodyText.contains("access_denied"))
        #expect(try setup.site.browser().request("GET", "/auth/nobody").status == 404)
        #expect(try setup.lti.created() == afterFirst)
    }

    @Test("a signed-in student links the provider in settings, signs in with it to the same account, and unlinks it; the only way in cannot be unlinked")
    func linkAndUnlink() throws {
        let setup = try SSOFixtures.Setup()
        let browser = setup.site.browser()
        #expect(try browser.register("linker").status == 303)
        let settings = try browser.request("GET", "/me/settings")
        #expect(settings.bodyText.contains("Link School Login"))
        try setup.user(["sub": .string("linked-1"), "name": .string("Linked Person")])
        let linked = try setup.complete(browser, try setup.begin(browser, "/auth/school?link=1"))
        #expect(linked.status == 303 && linked.header("Location")?.hasPrefix("/me/settings?linked=1") == true, "\(linked.bodyText.prefix(2000))")
        let after = try browser.request("GET", "/me/settings?linked=1")
        #expect(after.bodyText.contains("Unlink School Login"))
        let check = try HTMLChecker.passes([("settings", after.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // Signing in with the provider now opens the same account.
        let other = setup.site.browser()
        #expect(try setup.signIn(other).status == 303)
        #expect(try other.request("GET", "/me/settings").bodyText.contains("value=\"linker\"") || other.request("GET", "/me/settings").bodyText.contains(">linker<"))
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM users") == 2)  // the admin and the linker
        // Unlinking keeps the password as the way in.
        #expect(try browser.request("POST", "/me/sso/unlink", form: ["csrf_token": browser.csrfToken(from: after), "issuer": setup.idp]).status == 303)
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM external_identities") == 0)
        // An account the provider made has no password: its only link stays.
        try setup.user(["sub": .string("only-1"), "name": .string("Only Way")])
        let only = setup.site.browser()
        #expect(try setup.signIn(only).status == 303)
        let page = try only.request("GET", "/me/settings")
        let refused = try only.request("POST", "/me/sso/unlink", form: ["csrf_token": only.csrfToken(from: page), "issuer": setup.idp])
        #expect(refused.status == 409 && refused.bodyText.contains("only way to sign in"))
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM external_identities WHERE subject = 'only-1'") == 1)
    }

    @Test("with the provider's consent the portal's own key replaces the secret (private_key_jwt): no secret is kept, and the sign-in works")
    func portalsOwnKey() throws {
        let setup = try SSOFixtures.Setup(secret: "")
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM sso_providers WHERE client_secret IS NULL AND client_auth = 'private_key_jwt'") == 1)
        let page = try setup.site.signedInAdmin().0.request("GET", "/admin/sso")
        #expect(page.bodyText.contains("its own key (private_key_jwt)") && page.bodyText.contains("/lti/jwks.json"))
        try setup.user(["sub": .string("keyed-1"), "name": .string("Key Holder")])
        let signedIn = try setup.signIn(setup.site.browser())
        #expect(signedIn.status == 303, "\(signedIn.bodyText.prefix(2000))")
        #expect(try setup.lti.logged("idp_client_auth") == [.string("private_key_jwt")])
    }

    @Test("the server never holds the secret or the token: the code goes to the agent, and while it is away the browser is told to wait, not held")
    func nothingWaits() throws {
        let setup = try SSOFixtures.Setup()
        try setup.user(["sub": .string("patient-1"), "name": .string("Pat Ience")])
        let browser = setup.site.browser()
        let callback = try setup.begin(browser)
        let waiting = try browser.request("GET", callback)
        #expect(waiting.status == 202 && waiting.header("Refresh") == "1; url=/auth/school/finish")
        let check = try HTMLChecker.passes([("sign-in pending", waiting.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // Still waiting for the agent: still a page to come back to, nobody signed in.
        #expect(try browser.request("GET", "/auth/school/finish").status == 202)
        #expect(browser.cookies["portal_session"] == nil)
        // The exchange is the agent's; the id_token lands where portal_app cannot read it.
        setup.lti.agent.runOnce()
        #expect(throws: PostgresError.self) { try setup.site.pool.withConnection { try $0.query("SELECT id_token FROM sso_exchanges") } }
        let finished = try browser.request("GET", "/auth/school/finish")
        #expect(finished.status == 303 && finished.header("Location") == "/me")
        // Finished once: the same browser's next finish finds nothing to finish.
        #expect(try browser.request("GET", "/auth/school/finish").status == 400)
    }

    @Test("an admin's discovery address on this machine or the private network reads the same whether a port is open or closed")
    func discoveryIsNoPortScanner() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let listening = try ScriptServer(script: "outbound_server.py")
        var answers: [String] = []
        for issuer in ["https://127.0.0.1:\(listening.port)", "https://127.0.0.1:1", "https://10.0.0.1", "https://169.254.169.254"] {
            let refused = try admin.request("POST", "/admin/sso/providers", form: [
                "csrf_token": csrf, "issuer": issuer, "slug": "probe", "label": "Probe", "client_id": "a", "client_secret": "b"])
            #expect(refused.status == 422)
            let text = refused.bodyText
            guard let range = text.range(of: "could not reach ") else { Issue.record("\(issuer): \(text.prefix(1500))"); continue }
            let host = issuer.dropFirst("https://".count).split(separator: ":").first.map(String.init) ?? ""
            answers.append(String(text[range.lowerBound...].prefix { $0 != "<" }).replacingOccurrences(of: host, with: "HOST"))
        }
        #expect(Set(answers).count == 1 && answers.count == 4, "every address reads the same: \(answers)")
        #expect(try site.count("SELECT count(*)::int AS n FROM sso_providers") == 0)
    }
}
