import ExamData
import Foundation
import HTTPClient
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// LTI 1.3 launches from a test LMS (`Tests/Fixtures/lti_platform.py`, signing with its own RSA
/// key through PyJWT) into a real portal: accounts linked by (issuer, sub), the course's class,
/// preset sessions whose scores go back exactly once (later, when the platform was down), deep
/// linking's signed answer, and every forged or replayed launch refused with its reason and
/// nothing created.
@Suite("LTI launches", .serialized, .onTestThreads)
struct LTILaunchTests {
    static let instructor = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]

    static func preset(_ mode: String, graded: Bool, lms: String) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            LTIFixtures.lti + "resource_link": .object(["id": .string("link-\(mode)"), "title": .string("Mock exam")]),
        ]
        if graded {
            claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = .object([
                "scope": .array([.string("https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"), .string("https://purl.imsglobal.org/spec/lti-ags/scope/score")]),
                "lineitem": .string(lms + "/lineitems/7/lineitem"),
            ])
        }
        return claims
    }

    @Test("a student's launch makes their account and opens the preset session; the instructor's makes the class with them in it; a second launch finds the same account")
    func fullLaunch() throws {
        let setup = try LTIFixtures.Setup()
        let target = "/exams/\(MiniExam.region)/\(MiniExam.exam)?mode=practice&count=3&from=1&to=5"
        var learner = Self.preset("practice", graded: false, lms: setup.lms)
        learner["sub"] = .string("student-1")
        learner["name"] = .string("Grace Hopper")
        learner[LTIFixtures.lti + "target_link_uri"] = .string(setup.tool + target)
        try setup.scenario("learner", learner, target: target)
        let student = setup.site.browser()
        let launched = try setup.launch("learner", user: "student-1", browser: student)
        #expect(launched.status == 303, "\(launched.bodyText)")
        let session = try #require(launched.header("Location"))
        #expect(session.hasPrefix("/sessions/"))
        let page = try student.request("GET", session)
        #expect(page.status == 200)
        #expect(page.bodyText.contains("Grace Hopper"))
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM users u JOIN external_identities i ON i.user_id = u.id WHERE i.subject = 'student-1' AND u.role = 'student' AND u.password_hash IS NULL") == 1)
        #expect(try setup.site.count("SELECT cardinality(question_ids) AS n FROM study_sessions") == 3)
        // No class yet: the course waits for its instructor.
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM classes") == 0)

        var teacher = Self.preset("practice", graded: false, lms: setup.lms)
        teacher["sub"] = .string("teacher-1")
        teacher["name"] = .string("Ms Lovelace")
        teacher[LTIFixtures.lti + "roles"] = .array(Self.instructor.map { .string($0) })
        teacher[LTIFixtures.lti + "target_link_uri"] = .string(setup.tool + target)
        teacher["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"] = .object([
            "context_memberships_url": .string(setup.lms + "/memberships/course-1"), "service_versions": .array([.string("2.0")]),
        ])
        try setup.scenario("teacher", teacher, target: target)
        let learnerRole = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
        try setup.control("config", ["members": .array([
            .object(["user_id": .string("student-1"), "name": .string("Grace Hopper"), "roles": .array([.string(learnerRole)]), "status": .string("Active")]),
            .object(["user_id": .string("student-2"), "name": .string("Alan Turing"), "roles": .array([.string(learnerRole)]), "status": .string("Active")]),
            .object(["user_id": .string("teacher-1"), "name": .string("Ms Lovelace"), "roles": .array(Self.instructor.map { .string($0) })]),
        ])])
        let instructor = setup.site.browser()
        let taught = try setup.launch("teacher", user: "teacher-1", browser: instructor)
        #expect(taught.status == 303)
        let classPage = try #require(taught.header("Location"))
        #expect(classPage.hasPrefix("/teach/classes/"))
        let roster = try instructor.request("GET", classPage)
        #expect(roster.status == 200)
        #expect(roster.bodyText.contains("Networking 101"))
        #expect(roster.bodyText.contains("Grace Hopper"))
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM users WHERE role = 'teacher'") == 1)
        // The course's roster from the platform (Names and Role Provisioning Services).
        #expect(roster.bodyText.contains("\(classPage)/roster"))
        let names = try instructor.request("GET", classPage + "/roster")
        #expect(names.status == 200, "\(names.bodyText.prefix(2000))")
        let text = names.bodyText
        #expect(text.contains("Grace Hopper</th><td data-label=\"Role\">Student</td><td data-label=\"In the class\">in the class"))
        #expect(text.contains("Alan Turing</th><td data-label=\"Role\">Student</td><td data-label=\"In the class\">not opened the portal from the course yet"))
        // The class's own teacher opened the portal from the course too.
        #expect(text.contains("Ms Lovelace</th><td data-label=\"Role\">Teacher</td><td data-label=\"In the class\">in the class"))
        let check = try HTMLChecker.passes([("roster", names.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        #expect(try setup.site.browser().request("GET", classPage + "/roster").status != 200)

        // The same student again: the same account, now a member already.
        let again = try setup.launch("learner", user: "student-1", browser: setup.site.browser())
        #expect(again.status == 303, "\(again.bodyText.prefix(3000))")
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM users") == 2)
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM class_members WHERE left_at IS NULL") == 1)

        // A preset that cannot start (its exam is gone) still signs the student in and lands on
        // the exam's address, which says what is wrong.
        let gone = "/exams/\(MiniExam.region)/no-such-exam?mode=mock"
        var stale = learner
        stale[LTIFixtures.lti + "target_link_uri"] = .string(setup.tool + gone)
        try setup.scenario("stale", stale, target: gone)
        let landed = try setup.launch("stale", user: "student-1", browser: student)
        #expect(landed.status == 303 && landed.header("Location") == "/exams/\(MiniExam.region)/no-such-exam")
        #expect(try student.request("GET", "/exams/\(MiniExam.region)/no-such-exam").status == 404)
    }

    @Test("a graded session's score reaches the platform's line item once, and later when the platform was down")
    func gradedScores() throws {
        let setup = try LTIFixtures.Setup()
        let target = "/exams/\(MiniExam.region)/\(MiniExam.exam)?mode=mock"
        var claims = Self.preset("mock", graded: true, lms: setup.lms)
        claims["sub"] = .string("student-9")
        claims[LTIFixtures.lti + "target_link_uri"] = .string(setup.tool + target)
        try setup.scenario("graded", claims, target: target)
        let student = setup.site.browser()

        func takeAndFinish() throws -> String {
            let launched = try setup.launch("graded", user: "student-9", browser: student)
            let path = try #require(launched.header("Location"))
            let confirm = try student.request("GET", path + "/finish")
            #expect(try student.request("POST", path + "/finish", form: ["csrf_token": student.csrfToken(from: confirm)]).status == 303)
            return String(path.dropFirst("/sessions/".count))
        }
        let first = try takeAndFinish()
        #expect(setup.site.application.sendDueScores().sent == 1)
        #expect(setup.site.application.sendDueScores().sent == 0)
        let scores = try setup.logged("scores")
        #expect(scores.count == 1)
        guard case .object(let entry)? = scores.first, case .object(let score)? = entry["score"] else { Issue.record("no score"); return }
        #expect(entry["lineitem"] == .string("/lms/lineitems/7/lineitem"))
        #expect(score["userId"] == .string("student-9"))
        #expect(score["scoreMaximum"] == .number(100))
        #expect(score["activityProgress"] == .string("Completed"))
        #expect(score["gradingProgress"] == .string("FullyGraded"))
        let percent = try setup.site.admin { try $0.query("SELECT score_percent::float8 AS p FROM study_sessions WHERE id = \(UUID(uuidString: first)!)").single().decode("p", as: Double.self) }
        #expect(score["scoreGiven"] == .number(percent))
        // The token was asked for with the grade services' scopes, by a signed client assertion.
        #expect(try setup.logged("token_requests").count == 1)

        // The platform is down: the score waits, then arrives once when it is back.
        try setup.control("down", ["down": .bool(true)])
        _ = try takeAndFinish()
        #expect(setup.site.application.sendDueScores() == (sent: 0, failed: 1))
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM lti_score_outbox WHERE sent_at IS NULL AND last_error LIKE '%503%'") == 1)
        try setup.control("down", ["down": .bool(false)])
        #expect(setup.site.application.sendDueScores().sent == 0, "a failed score waits before the next try")
        setup.site.clock.advance(60)
        #expect(setup.site.application.sendDueScores().sent == 1)
        setup.site.clock.advance(3600)
        #expect(setup.site.application.sendDueScores().sent == 0)
        #expect(try setup.logged("scores").count == 2)
    }

    @Test("a launch inside the LMS's frame hands its session to a window of its own, once, in the same browser")
    func framedLaunch() throws {
        let setup = try LTIFixtures.Setup()
        let target = "/exams/\(MiniExam.region)/\(MiniExam.exam)?mode=practice&count=2"
        var claims = Self.preset("practice", graded: false, lms: setup.lms)
        claims["sub"] = .string("student-7")
        claims["name"] = .string("Mary Jackson")
        claims[LTIFixtures.lti + "target_link_uri"] = .string(setup.tool + target)
        try setup.scenario("framed", claims, target: target)
        let browser = setup.site.browser()

        func framedLaunch() throws -> String {
            let (idToken, state) = try setup.beginLaunch("framed", user: "student-7", browser: browser)
            let framed = try browser.request("POST", "/lti/launch", form: ["id_token": idToken, "state": state], extraHeaders: "Sec-Fetch-Dest: iframe\r\n")
            #expect(framed.status == 200, "\(framed.bodyText.prefix(2000))")
            #expect(!framed.headers.contains { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("portal_session=") }, "the frame gets no cookie it could not keep")
            #expect(framed.header("Content-Security-Policy")?.contains("frame-ancestors") == false)
            #expect(framed.bodyText.contains("target=\"_blank\""))
            let check = try HTMLChecker.passes([("framed launch", framed.body)])
            #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
            return try #require(framed.bodyText.range(of: "/lti/continue/[A-Za-z0-9_-]{43}", options: .regularExpression).map { String(framed.bodyText[$0]) })
        }
        let handoff = try framedLaunch()
        let opened = try browser.request("GET", handoff)
        #expect(opened.status == 303 && opened.header("Location")?.hasPrefix("/sessions/") == true, "\(opened.bodyText.prefix(2000))")
        #expect(try browser.request("GET", try #require(opened.header("Location"))).bodyText.contains("Mary Jackson"))
        // The launch's session itself moved to the window: one session, not two.
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM auth_sessions s JOIN external_identities i ON i.user_id = s.user_id WHERE i.subject = 'student-7'") == 1)
        #expect(try browser.request("GET", handoff).status == 410, "a handoff is taken once")
        // Another browser cannot take it (and spends it trying).
        let second = try framedLaunch()
        let elsewhere = setup.site.browser()
        elsewhere.userAgent = "another-browser"
        let stolen = try elsewhere.request("GET", second)
        #expect(stolen.status == 410 && stolen.bodyText.contains("another browser"))
        #expect(elsewhere.cookies["portal_session"] == nil)
        #expect(try browser.request("GET", second).status == 410)
    }

    @Test("with the background jobs running, finishing a graded session sends its score without anyone asking")
    func scoresGoByThemselves() throws {
        let setup = try LTIFixtures.Setup(listening: true)
        let target = "/exams/\(MiniExam.region)/\(MiniExam.exam)?mode=mock"
        var claims = Self.preset("mock", graded: true, lms: setup.lms)
        claims["sub"] = .string("student-5")
        claims[LTIFixtures.lti + "target_link_uri"] = .string(setup.tool + target)
        try setup.scenario("graded", claims, target: target)
        let student = setup.site.browser()
        let path = try #require(try setup.launch("graded", user: "student-5", browser: student).header("Location"))
        let confirm = try student.request("GET", path + "/finish")
        #expect(try student.request("POST", path + "/finish", form: ["csrf_token": student.csrfToken(from: confirm)]).status == 303)
        // Waits for the platform to have it (the sender is woken by the finish; it also looks every 15 s).
        let deadline = Date().addingTimeInterval(40)
        while try setup.logged("scores").isEmpty && Date() < deadline { usleep(100_000) }
        #expect(try setup.logged("scores").count == 1)
        #expect(try setup.site.count("SELECT count(*)::int AS n FROM lti_score_outbox WHERE sent_at IS NOT NULL") == 1)
    }

    @Test("deep linking: an instructor picks a graded mock exam and the platform receives a signed response with the link and its line item")
    func deepLinking() throws {
        let setup = try LTIFixtures.Setup()
        let returnURL = setup.lms + "/deep-link-return"
        try setup.scenario("choose", [
            "sub": .string("teacher-2"), LTIFixtures.lti + "roles": .array(Self.instructor.map { .string($0) }),
            LTIFixtures.lti + "message_type": .string("LtiDeepLinkingRequest"), LTIFixtures.lti + "resource_link": .null,
            "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": .object([
                "deep_link_return_url": .string(returnURL), "accept_types": .array([.string("ltiResourceLink")]),
                "accept_presentation_document_targets": .array([.string("iframe"), .string("window")]),
                "data": .object(["course": .string("NET101"), "week": .number(3), "tags": .array([.string("mock"), .bool(true), .null])]),
            ]),
        ])
        let browser = setup.site.browser()
        let launched = try setup.launch("choose", user: "teacher-2", browser: browser)
        #expect(launched.status == 303)
        let choice = try #require(launched.header("Location"))
        #expect(choice.hasPrefix("/lti/deep-link/"))
        // The choice works inside the platform's frame, where the portal's cookie may not arrive.
        let framed = setup.site.browser()
        let page = try framed.request("GET", choice)
        #expect(page.status == 200)
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'self' http://127.0.0.1:\(setup.platform.port)") == true)
        let check = try HTMLChecker.passes([("deep-link choice", page.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        let bad = try framed.request("POST", choice, form: ["exam": "\(MiniExam.region)/\(MiniExam.exam)", "opens": "mock", "count": "0"])
        #expect(bad.status == 422)
        #expect(bad.bodyText.contains("1 to 100"))
        let answer = try framed.request("POST", choice, form: [
            "exam": "\(MiniExam.region)/\(MiniExam.exam)", "opens": "mock", "count": "5", "from": "1", "to": "5", "title": "Week 3 mock", "graded": "on",
        ])
        #expect(answer.status == 200)
        #expect(answer.header("Content-Security-Policy")?.contains("form-action 'self' http://127.0.0.1:\(setup.platform.port)") == true)
        let returnPage = try HTMLChecker.passes([("deep-link answer", answer.body), ("refused choice", bad.body)])
        #expect(returnPage.passed, "the Nu Html Checker found errors; run it on \(returnPage.folder) to see them")
        let jwt = try #require(LTIFixtures.Setup.field("JWT", in: answer.bodyText))
        #expect(answer.bodyText.contains("action=\"\(returnURL)\""))
        // The platform checks the signature against the tool's published keys.
        let returned = try setup.client.send("POST", returnURL, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("JWT=\(jwt)".utf8))
        #expect(returned.status == 200, "\(String(decoding: returned.body, as: UTF8.self))")
        guard case .object(let claims)? = try setup.logged("deep_links").first,
              case .array(let items)? = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"], case .object(let item)? = items.first else {
            Issue.record("the platform has no content item")
            return
        }
        // The platform's data comes back exactly as it came, an object as much as a string.
        #expect(claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == .object(["course": .string("NET101"), "week": .number(3), "tags": .array([.string("mock"), .bool(true), .null])]))
        #expect(claims[LTIFixtures.lti + "deployment_id"] == .string("deployment-1"))
        #expect(item["type"] == .string("ltiResourceLink"))
        #expect(item["title"] == .string("Week 3 mock"))
        #expect(item["url"] == .string(setup.tool + "/exams/\(MiniExam.region)/\(MiniExam.exam)?mode=mock&count=5&from=1&to=5"))
        guard case .object(let lineItem)? = item["lineItem"] else { Issue.record("no line item"); return }
        #expect(lineItem["scoreMaximum"] == .number(100))
        // Answered once: the same choice again is gone.
        #expect(try framed.request("POST", choice, form: ["exam": "\(MiniExam.region)/\(MiniExam.exam)", "opens": "page"]).status == 410)
    }

    @Test("forged, stale and replayed launches are refused with the reason, and nothing is created")
    func attacks() throws {
        let setup = try LTIFixtures.Setup()
        try setup.scenario("plain", ["sub": .string("student-1"), LTIFixtures.lti + "target_link_uri": .string(setup.tool + "/")])
        let nothing = try setup.created()

        func refused(_ scenario: String, _ claims: [String: JSONValue], signWith: String = "lms", kid: String? = nil, _ reason: String) throws {
            var all = claims
            all[LTIFixtures.lti + "target_link_uri"] = all[LTIFixtures.lti + "target_link_uri"] ?? .string(setup.tool + "/")
            try setup.scenario(scenario, all, signWith: signWith, kid: kid)
            let answer = try setup.launch(scenario, user: "student-1", browser: setup.site.browser())
            #expect((400..<500).contains(answer.status), "\(scenario): \(answer.status)")
            #expect(answer.bodyText.contains(reason), "\(scenario): \(answer.bodyText.prefix(2000))")
            #expect(try setup.created() == nothing, "\(scenario) created something")
        }
        // The platform's key id on a stranger's signature; a key id the platform never published.
        let jwks = try setup.client.send("GET", setup.lms + "/jwks")
        guard case .object(let set) = try JSONDecoder().decode(JSONValue.self, from: Data(jwks.body)), case .array(let keys)? = set["keys"],
              case .object(let key)? = keys.first, case .string(let kid)? = key["kid"] else { Issue.record("no platform key"); return }
        try refused("forged", [:], signWith: "stranger", kid: kid, "signature does not match")
        try refused("unknown-kid", [:], signWith: "stranger", "is not among the issuer")
        let past = Date().timeIntervalSince1970 - 3600
        try refused("expired", ["iat": .number(past - 300), "exp": .number(past)], "expired")
        try refused("audience", ["aud": .string("another-tool")], "audience")
        try refused("audiences", ["aud": .array([.string("portal-tool"), .string("another-tool")])], "audience")
        try refused("deployment", [LTIFixtures.lti + "deployment_id": .string("deployment-9")], "deployment-9")
        try refused("version", [LTIFixtures.lti + "version": .string("1.1")], "1.1")
        try refused("no-sub", ["sub": .null], "did not say who you are")
        try refused("foreign", [LTIFixtures.lti + "target_link_uri": .string("https://elsewhere.example/")], "another site")

        // Replays: the same post again, and the same token with a fresh state.
        let browser = setup.site.browser()
        let (idToken, state) = try setup.beginLaunch("plain", user: "student-1", browser: browser)
        let first = try setup.post(["id_token": idToken, "state": state], browser: browser)
        #expect(first.status == 303)
        let afterFirst = try setup.created()
        let replayed = try browser.request("POST", "/lti/launch", form: ["id_token": idToken, "state": state])
        #expect(replayed.status == 400)
        #expect(replayed.bodyText.contains("used already"))
        let (_, freshState) = try setup.beginLaunch("plain", user: "student-1", browser: browser)
        let otherNonce = try setup.post(["id_token": idToken, "state": freshState], browser: browser)
        #expect(otherNonce.status == 401)
        #expect(otherNonce.bodyText.contains("nonce"))
        #expect(try setup.created() == afterFirst)

        // A state carried to another browser.
        let (token2, state2) = try setup.beginLaunch("plain", user: "student-1", browser: browser)
        let elsewhere = setup.site.browser()
        elsewhere.userAgent = "another-browser"
        let stolen = try elsewhere.request("POST", "/lti/launch", form: ["id_token": token2, "state": state2])
        #expect(stolen.status == 400)
        #expect(stolen.bodyText.contains("another browser"))
        #expect(try setup.created() == afterFirst)

        // The identity provider's id_token (single sign-on's) presented as a launch.
        let idpToken = try Self.identityProviderToken(setup)
        let (_, state3) = try setup.beginLaunch("plain", user: "student-1", browser: browser)
        let crossed = try setup.post(["id_token": idpToken, "state": state3], browser: browser)
        #expect(crossed.status == 401)
        #expect(crossed.bodyText.contains("is not among the issuer"))
        // Nonsense and nothing.
        #expect(try browser.request("POST", "/lti/launch", form: ["id_token": "not.a.token", "state": "nope"]).status == 400)
        #expect(try browser.request("POST", "/lti/launch", form: [:]).status == 400)
        #expect(try setup.created() == afterFirst)
    }

    /// An id_token the test identity provider issues for its user (authorisation code with PKCE).
    static func identityProviderToken(_ setup: LTIFixtures.Setup) throws -> String {
        // The verifier and its S256 challenge (base64url of its SHA-256), worked out beforehand.
        let verifier = "a-verifier-of-more-than-forty-three-characters-0123456789", challenge = "KqzFVVoj1xIeRMaYoKBsIWuO4_VBBpZdnQDgP3WuG_k"
        let redirect = setup.tool + "/auth/school/callback"
        let authorize = try setup.client.send("GET", setup.idp + "/authorize?response_type=code&client_id=portal-sso&scope=openid&state=s&nonce=n"
            + "&code_challenge=\(challenge)&code_challenge_method=S256&redirect_uri=" + (redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        let location = try #require(authorize.header("Location"))
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        let form = "grant_type=authorization_code&code=\(code)&client_id=portal-sso&client_secret=sso-secret&code_verifier=\(verifier)&redirect_uri="
            + (redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let token = try setup.client.send("POST", setup.idp + "/token", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(form.utf8))
        guard case .object(let fields) = try JSONDecoder().decode(JSONValue.self, from: Data(token.body)), case .string(let idToken)? = fields["id_token"] else {
            throw TestEnvironmentError("the identity provider gave no id_token")
        }
        return idToken
    }
}
