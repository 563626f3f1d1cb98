import ExamData
import Foundation
import PortalApp
import PostgresClient
import QuestionEngine
import TestSupport
import Testing
import WebToken

/// Row-level security and grants for LTI and single sign-on, against a `portal_app` connection
/// that tries to talk its way around the portal: it cannot read an identity provider's secret
/// by any path, a login's states, the framed launches' handoffs or another account's links;
/// cannot sign anyone in — not even with a login it began — without a token the database
/// verifies against a key set it cannot write; cannot take a session over without the handoff
/// a launch offered, attach a line item to someone else's session, or link a provider for
/// another account.
@Suite("LTI and SSO at the database", .serialized, .onTestThreads)
struct ExternalSignInPolicyTests {
    @Test("a portal_app connection cannot read secrets, states or others' links, nor sign in, grade or link on anyone's behalf")
    func talkingAround() throws {
        let setup = try SSOFixtures.Setup()
        let site = setup.site
        try setup.user(["sub": .string("pupil-1"), "name": .string("Ada Lovelace")])
        let ada = site.browser()
        #expect(try setup.signIn(ada).status == 303)
        let (mallory, _, _) = try site.account("mallory", role: "student")
        func asMallory<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
            try site.pool.withTransaction(settings: ["app.session_token": mallory.cookies["portal_session"] ?? ""], body)
        }
        func refused(_ statement: SQL) throws {
            #expect(throws: PostgresError.self) { try asMallory { try $0.query(statement) } }
        }
        // Secrets and states are out of reach by any path; others' links are invisible.
        try refused("SELECT client_secret FROM sso_providers")
        try refused("SELECT * FROM sso_providers")
        try refused("SELECT sso_client_secret(1)")
        let readable = try asMallory {
            try $0.query("""
                SELECT count(*)::int AS n FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                WHERE n.nspname = 'public' AND has_function_privilege(p.oid, 'EXECUTE') AND p.prosrc LIKE '%client_secret%'
                """).single().decode("n", as: Int.self)
        }
        #expect(readable == 0, "no function portal_app may call reads a client secret")
        try refused("SELECT * FROM sso_states")
        try refused("SELECT * FROM lti_states")
        try refused("SELECT * FROM lti_deep_links")
        try refused("SELECT * FROM lti_tool_keys")
        try refused("SELECT * FROM lti_handoffs")
        try refused("INSERT INTO lti_handoffs (token_hash, session_hash, browser_hash, location, created_at) VALUES (sha256('a'), sha256('b'), sha256('c'), '/', now())")
        // A window cannot take over a session without the handoff the launch offered.
        #expect(try asMallory { try LTILaunchStore().takeHandoff(token: "made-up", browser: Array(repeating: 0, count: 32), newToken: String(repeating: "c", count: 43), $0) } == nil)
        #expect(try asMallory { try $0.query("SELECT count(*)::int AS n FROM external_identities").single().decode("n", as: Int.self) } == 0)
        #expect(try asMallory { try $0.query("SELECT label FROM sso_providers").rows.count } == 1, "the providers' labels are for everyone")

        // Signing in without a proof the database checks: a state cannot be written by hand, and
        // a begun login with a made-up token (unsigned, or signed by a key nobody published) signs
        // nobody in; the roles, the subject and the platform come from the token alone.
        let before = try setup.lti.created()
        try refused("INSERT INTO lti_states (state_hash, nonce, platform_id, target_link_uri, browser_hash, created_at) VALUES (sha256('s'), 'nnnnnnnnnnnnnnnnnnnn', 1, '/', sha256('b'), now())")
        try refused("INSERT INTO sso_states (state_hash, provider_id, nonce, verifier, browser_hash, created_at) VALUES (sha256('s'), 1, 'nnnnnnnnnnnnnnnnnnnn', repeat('v', 43), sha256('b'), now())")
        let platformID = try site.admin { try $0.query("SELECT id FROM lti_platforms").single().decode("id", as: Int.self) }
        let agentHash = Array(repeating: UInt8(7), count: 32)
        func forgedLaunch(_ header: String, _ claims: [String: JSONValue], signature: String) throws -> LTILaunchStore.SignIn {
            let state = "forged-state-" + UUID().uuidString
            let hash = try site.admin { try $0.query("SELECT sha256(convert_to(\(state), 'UTF8')) AS h").single().decode("h", as: PostgresBytes.self).bytes }
            #expect(try asMallory {
                try LTIStore().beginLogin(
                    hash: hash, nonce: "nonce-of-the-forgery-1", platformID: platformID, targetLinkURI: setup.lti.tool + "/",
                    cookie: Array(repeating: 1, count: 32), agent: agentHash, storageTarget: nil, client: "198.51.100.7", $0)
            } == 0)
            let payload = Base64URL.encode(Array(try JSONEncoder().encode(JSONValue.object(claims))))
            return try asMallory {
                try LTILaunchStore().signIn(
                    state: state, idToken: Base64URL.encode(Array(header.utf8)) + "." + payload + "." + signature, binding: .framed, agent: agentHash,
                    token: String(repeating: "b", count: 43), csrfToken: "c", userAgent: "", $0)
            }
        }
        let lti = "https://purl.imsglobal.org/spec/lti/claim/"
        let claims: [String: JSONValue] = [
            "iss": .string(setup.lti.lms), "aud": .string("portal-tool"), "sub": .string("student-1"), "nonce": .string("nonce-of-the-forgery-1"),
            "exp": .number(Date().timeIntervalSince1970 + 300), lti + "version": .string("1.3.0"), lti + "deployment_id": .string("deployment-1"),
            lti + "message_type": .string("LtiResourceLinkRequest"), lti + "roles": .array([.string("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor")]),
        ]
        #expect(try forgedLaunch(#"{"alg":"none"}"#, claims, signature: "") == .refused(reason: "algorithm", detail: "none"))
        let platformKid = try site.admin { try $0.query("SELECT kid FROM key_set_keys LIMIT 1").single().decode("kid", as: String.self) }
        let forgedSignature = Base64URL.encode(Array(repeating: 0x5A, count: 256))
        #expect(try forgedLaunch(#"{"alg":"RS256","kid":"\#(platformKid)"}"#, claims, signature: forgedSignature) == .refused(reason: "bad_signature", detail: nil))
        // Nor can it plant a key the tokens would then be checked against, or a token for the
        // code exchange, or read what the agent received.
        try refused("INSERT INTO key_set_keys (jwks_uri, kid, modulus, exponent, octets) VALUES ('\(setup.lti.lms)/jwks', 'mine', 3233, 17, 256)")
        try refused("UPDATE key_set_keys SET modulus = 3233")
        try refused("DELETE FROM key_set_keys")
        try refused("SELECT key_set_store('\(setup.lti.lms)/jwks', '{\"keys\": []}')")
        try refused("SELECT * FROM sso_exchanges")
        try refused("UPDATE sso_exchanges SET id_token = 'x'")
        try refused("SELECT sso_exchange_answered(sha256('x'), 'x', NULL)")
        try refused("SELECT * FROM sso_exchanges_due(10)")
        try refused("SELECT * FROM jwt_verified('a.b.c', 'x')")
        // Finishing a single sign-on nobody began: nothing to finish.
        let finish = try asMallory {
            try SSOStore().finish(browser: Array(repeating: 3, count: 32), providerID: 1, token: String(repeating: "d", count: 43), csrfToken: "c", userAgent: "", $0)
        }
        #expect(finish == .refused(reason: "no_exchange", detail: nil))
        #expect(try setup.lti.created() == before)

        // A line item on someone else's session, or under another platform user's name: refused.
        let adaSession = try site.admin { connection -> UUID in
            let user = try connection.query("SELECT user_id FROM external_identities WHERE subject = 'pupil-1'").single().decode("user_id", as: UUID.self)
            return try connection.query("""
                INSERT INTO study_sessions (user_id, exam_id, mode, question_ids, started_at)
                SELECT \(user), id, 'practice', ARRAY[(SELECT id FROM questions LIMIT 1)], now() FROM exams LIMIT 1 RETURNING id
                """).single().decode("id", as: UUID.self)
        }
        #expect(throws: PostgresError.self) {
            try asMallory { try LTILaunchStore().addGradedSession(sessionID: adaSession, platformID: platformID, resourceLinkID: "l", lineItemURL: "https://lms.example/li", subject: "pupil-1", $0) }
        }
        #expect(try site.count("SELECT count(*)::int AS n FROM lti_graded_sessions") == 0)
        // The outbox is written by finishing a graded session only.
        try refused("INSERT INTO lti_score_outbox (session_id, platform_id, lineitem_url, subject, score_given, score_maximum, finished_at, next_attempt_at) VALUES (gen_random_uuid(), 1, 'x', 'y', 100, 100, now(), now())")
    }
}
