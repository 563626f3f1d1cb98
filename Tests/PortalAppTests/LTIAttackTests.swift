import ExamData
import Foundation
import HTTPClient
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// What an attacker does with LTI's anonymous doors, each against the test LMS and a real
/// portal: a classmate's own launch posted into someone else's browser, targets that lead off
/// the site, floods of logins, and a platform whose key set never answers.
@Suite("LTI attacks", .serialized, .onTestThreads)
struct LTIAttackTests {
    static let lti = LTIFixtures.lti

    @Test("a classmate's own launch posted into a victim's browser (same school address, same browser) is refused whenever the login's cookie or the platform's storage could tell them apart")
    func loginForgery() throws {
        let setup = try LTIFixtures.Setup()
        try setup.scenario("mine", ["sub": .string("classmate"), Self.lti + "target_link_uri": .string(setup.tool + "/")])
        let nothing = try setup.created()
        // Both browsers are the same image behind the same school address: the user agent and
        // address cannot tell them apart.
        let classmate = setup.site.browser(), victim = setup.site.browser()

        // Posted from another site as a top-level form: the login's cookie would have come.
        let (token, state) = try setup.beginLaunch("mine", user: "classmate", browser: classmate)
        let topLevel = try victim.request(
            "POST", "/lti/launch", form: ["id_token": token, "state": state], extraHeaders: "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Dest: document\r\n")
        #expect(topLevel.status == 400 && topLevel.bodyText.contains("another browser"), "\(topLevel.bodyText.prefix(1500))")
        #expect(victim.cookies["portal_session"] == nil)
        #expect(try setup.created() == nothing)

        // Inside a frame, on a platform that offers its storage: the portal's page asks the
        // platform's storage in the victim's browser, which never held the classmate's state;
        // posting "it was there" from another site is not the portal's page asking.
        let (framedToken, framedState) = try setup.beginLaunch("mine", user: "classmate", browser: classmate, storage: "lti-storage")
        let framed = try victim.request(
            "POST", "/lti/launch", form: ["id_token": framedToken, "state": framedState], extraHeaders: "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Dest: iframe\r\n")
        #expect(framed.status == 200 && framed.bodyText.contains(#"data-lti-storage="get""#) && framed.bodyText.contains(#"data-target="lti-storage""#))
        #expect(framed.bodyText.contains(#"data-origin="http://127.0.0.1:\#(setup.platform.port)""#))
        #expect(victim.cookies["portal_session"] == nil)
        victim.origin = "https://attacker.example"
        let claimed = try victim.request(
            "POST", "/lti/launch", form: ["id_token": framedToken, "state": framedState, "storage": "verified"],
            extraHeaders: "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Dest: iframe\r\n")
        #expect(claimed.status == 200 && claimed.bodyText.contains(#"data-lti-storage="get""#), "still only the storage's own answer would do")
        #expect(victim.cookies["portal_session"] == nil)
        #expect(try setup.created() == nothing)
        let check = try HTMLChecker.passes([("storage check", framed.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        // The classmate's own browser, which holds the login's cookie, is signed in either way.
        let own = try setup.post(["id_token": framedToken, "state": framedState], browser: classmate, extraHeaders: "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Dest: iframe\r\n")
        #expect(own.status == 200 && own.bodyText.contains("/lti/continue/"), "\(own.bodyText.prefix(1500))")
        // Its page, having found the state in the platform's storage, posts from this site.
        let (storedToken, storedState) = try setup.beginLaunch("mine", user: "classmate", browser: classmate, storage: "lti-storage")
        classmate.cookies = classmate.cookies.filter { !$0.key.hasPrefix("portal_lti_") }  // a browser that drops the frame's cookie
        classmate.origin = setup.tool
        let verified = try setup.post(
            ["id_token": storedToken, "state": storedState, "storage": "verified"], browser: classmate, extraHeaders: "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Dest: iframe\r\n")
        #expect(verified.status == 200 && verified.bodyText.contains("/lti/continue/"), "\(verified.bodyText.prefix(1500))")
    }

    @Test("a classmate's launch posted from another site by an older browser (no Fetch Metadata, no login cookie) signs nobody in; only a browser that says it is framed falls back to its address and agent, and then gets the hand-over page, never a session")
    func launchWithoutFetchMetadata() throws {
        let setup = try LTIFixtures.Setup()
        try setup.scenario("mine", ["sub": .string("classmate"), Self.lti + "target_link_uri": .string(setup.tool + "/")])
        let nothing = try setup.created()
        let classmate = setup.site.browser(), victim = setup.site.browser()
        victim.origin = "https://attacker.example"

        // The attacker's page posts the classmate's launch as a top-level form; the victim's
        // browser is too old to say where the request goes (no Sec-Fetch-Dest).
        let (token, state) = try setup.beginLaunch("mine", user: "classmate", browser: classmate)
        let forged = try setup.post(["id_token": token, "state": state], browser: victim, extraHeaders: "")
        #expect(forged.status == 400 && forged.bodyText.contains("Open the activity from your course"), "\(forged.status) \(forged.bodyText.prefix(1500))")
        #expect(!forged.headers.contains { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("portal_session=") })
        #expect(victim.cookies["portal_session"] == nil)
        #expect(try setup.created() == nothing, "nobody signed in, nothing made")
        // The state is spent: the classmate's own browser starts again from the course.
        #expect(try setup.post(["id_token": token, "state": state], browser: classmate).status == 400)

        // A destination that is neither a window nor a frame is no frame either.
        let (objectToken, objectState) = try setup.beginLaunch("mine", user: "classmate", browser: classmate)
        let embedded = try setup.post(["id_token": objectToken, "state": objectState], browser: victim, extraHeaders: "Sec-Fetch-Dest: object\r\n")
        #expect(embedded.status == 400 && victim.cookies["portal_session"] == nil)
        #expect(try setup.created() == nothing)

        // Said to be framed (no storage on this platform): the address and agent match, so the
        // launch is accepted, but the frame's answer carries no session; only the hand-over link.
        let (framedToken, framedState) = try setup.beginLaunch("mine", user: "classmate", browser: classmate)
        let framed = try setup.post(["id_token": framedToken, "state": framedState], browser: victim, extraHeaders: "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Dest: iframe\r\n")
        #expect(framed.status == 200 && framed.bodyText.contains("/lti/continue/"), "\(framed.status) \(framed.bodyText.prefix(1500))")
        #expect(!framed.headers.contains { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("portal_session=") })
        #expect(victim.cookies["portal_session"] == nil)
    }

    @Test("a launch goes to this site only: the target is parsed, and the redirect is written from its path", arguments: [
        "http://127.0.0.1:PORT//evil.example/x", "http://127.0.0.1:PORT/\\evil.example", "http://127.0.0.1:PORT/\t/evil.example/x",
        "http://127.0.0.1:PORT/x\n/y", "http://evil.example@127.0.0.1:PORT/", "http://127.0.0.1:PORT@evil.example/", "http://127.0.0.1:1/",
        "https://127.0.0.1:PORT/", "//evil.example/", "/\\evil.example", "http://127.0.0.1:PORT\\@evil.example/", "http://127.0.0.1%2F%2Fevil.example/",
    ])
    func foreignTargets(_ template: String) throws {
        let setup = try LTIFixtures.Setup()
        let target = template.replacingOccurrences(of: "PORT", with: String(setup.site.server.port))
        try setup.scenario("away", ["sub": .string("student-1"), Self.lti + "target_link_uri": .string(target)])
        let nothing = try setup.created()
        let answer = try setup.launch("away", user: "student-1", browser: setup.site.browser())
        #expect(answer.status == 400 && answer.bodyText.contains("another site"), "\(target.debugDescription): \(answer.status) \(answer.header("Location") ?? "")")
        #expect(try setup.created() == nothing)
        // The login refuses the same address as its target.
        let login = try setup.site.browser().request(
            "GET", "/lti/login?iss=\(Self.escaped(setup.lms))&login_hint=x&client_id=portal-tool&target_link_uri=\(Self.escaped(target))")
        #expect(login.status == 400 && login.bodyText.contains("another site"), "login: \(target.debugDescription)")
    }

    @Test("an encoded // stays a path of this site")
    func encodedSlashes() throws {
        let setup = try LTIFixtures.Setup()
        try setup.scenario("encoded", ["sub": .string("student-1"), Self.lti + "target_link_uri": .string(setup.tool + "/%2F%2Fevil.example/x")])
        let answer = try setup.launch("encoded", user: "student-1", browser: setup.site.browser())
        #expect(answer.status == 303 && answer.header("Location") == "/%2F%2Fevil.example/x")
    }

    static func escaped(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }

    @Test("anonymous logins are limited per address (429 with Retry-After) and bounded as a whole; what they leave is pruned by the background job")
    func loginFlood() throws {
        let setup = try LTIFixtures.Setup()
        let path = "/lti/login?iss=\(Self.escaped(setup.lms))&login_hint=x&client_id=portal-tool&target_link_uri=\(Self.escaped(setup.tool + "/"))"
        var statuses: [Int: Int] = [:], retry: String?
        for _ in 0..<200 {
            let answer = try setup.site.browser().request("GET", path)
            statuses[answer.status, default: 0] += 1
            if answer.status == 429 { retry = answer.header("Retry-After") }
        }
        #expect(statuses == [302: 60, 429: 140])
        #expect(retry.flatMap(Int.init).map { (1...60).contains($0) } == true)
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM lti_states") == 60)
        // Ten minutes on, the states are of no use to anyone, and the job removes them.
        setup.site.clock.advance(16 * 60)
        #expect(setup.site.application.pruneAnonymousState() >= 60)
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM lti_states") == 0)
    }

    @Test("single sign-on's door is limited per address the same way, and its states pruned")
    func signOnFlood() throws {
        let setup = try SSOFixtures.Setup()
        var statuses: [Int: Int] = [:]
        for _ in 0..<40 { statuses[try setup.site.browser().request("GET", "/auth/school").status, default: 0] += 1 }
        #expect(statuses == [302: 30, 429: 10])
        setup.site.clock.advance(16 * 60)
        setup.site.application.pruneAnonymousState()
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM sso_states") == 0)
    }

    @Test("with a platform whose key set never answers, twenty launches in flight do not hold the portal: each is answered at once, and so is an ordinary page")
    func silentKeySet() throws {
        let setup = try LTIFixtures.Setup()
        // A second platform whose key set address accepts connections and never answers.
        let silent = try ScriptServer(script: "outbound_server.py")
        let issuer = "http://127.0.0.1:\(silent.port)/lms"
        _ = try LTIStore().addPlatform(
            issuer: issuer, clientID: "portal-tool", authURL: setup.lms + "/auth", tokenURL: setup.lms + "/token", jwksURL: "http://127.0.0.1:\(silent.port)/slow",
            deploymentIDs: ["deployment-1"], try setup.site.database.adminConnection())
        try setup.scenario("silent", ["iss": .string(issuer), "sub": .string("student-1"), Self.lti + "target_link_uri": .string(setup.tool + "/")])
        var posts: [(RawHTTPClient, String)] = []
        for _ in 0..<20 {
            let browser = setup.site.browser()
            var query = URLComponents()
            query.queryItems = [
                URLQueryItem(name: "iss", value: issuer), URLQueryItem(name: "login_hint", value: "student-1"), URLQueryItem(name: "target_link_uri", value: setup.tool + "/"),
                URLQueryItem(name: "lti_message_hint", value: "silent"), URLQueryItem(name: "client_id", value: "portal-tool"),
            ]
            let login = try browser.request("GET", "/lti/login?" + (query.percentEncodedQuery ?? ""))
            let page = String(decoding: try setup.client.send("GET", try #require(login.header("Location"))).body, as: UTF8.self)
            let form = "id_token=\(try #require(LTIFixtures.Setup.field("id_token", in: page)))&state=\(Self.escaped(try #require(LTIFixtures.Setup.field("state", in: page))))"
            let cookie = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            posts.append((try RawHTTPClient(port: setup.site.server.port), "POST /lti/launch HTTP/1.1\r\nHost: 127.0.0.1:\(setup.site.server.port)\r\nUser-Agent: test-browser\r\nCookie: \(cookie)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n" + form))
        }
        // All twenty in flight at once, then an ordinary page behind them.
        for (client, request) in posts { client.send(request) }
        let ordinary = try RawHTTPClient(port: setup.site.server.port)
        ordinary.send("GET /exams/\(MiniExam.region)/\(MiniExam.exam) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(try #require(ordinary.readResponse()).status == 200)
        for (client, _) in posts {
            let answer = try #require(client.readResponse())
            #expect(answer.status == 503 && answer.header("Retry-After") == "2" && answer.bodyText.contains("id=\"try-again\""), "\(answer.status) \(answer.bodyText.prefix(1500))")
        }
        // The portal asked its agent once, and fetched nothing itself.
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM key_sets WHERE jwks_uri LIKE '%/slow' AND wanted_at IS NOT NULL AND fetched_at IS NULL") == 1)
    }
}
