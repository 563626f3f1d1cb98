import ExamData
import Foundation
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// Row-level security and grants for LTI and single sign-on, against a `portal_app` connection
/// that tries to talk its way around the portal: it cannot read an identity provider's secret,
/// a login's states, the framed launches' handoffs or another account's links, cannot sign
/// anyone in or take a session over without a login it began, cannot attach a line item to
/// someone else's session, and cannot link a provider for another account.
@Suite("LTI and SSO at the database", .serialized)
struct ExternalSignInPolicyTests {
    @Test("a portal_app connection cannot read secrets, states or others' links, nor sign in, grade or link on anyone's behalf")
    func talkingAround() throws {
        let setup = try SingleSignOnTests.Setup()
        let site = setup.site
        try setup.user(["sub": .string("pupil-1"), "name": .string("Ada Lovelace")])
        let ada = site.browser()
        #expect(try setup.signIn(ada).status == 303)
        let (mallory, _, _) = try SchoolTests.account(site, "mallory", role: "student")
        func asMallory<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
            try site.pool.withTransaction(settings: ["app.session_token": mallory.cookies["portal_session"] ?? ""], body)
        }
        func refused(_ statement: SQL) throws {
            #expect(throws: PostgresError.self) { try asMallory { try $0.query(statement) } }
        }
        // Secrets and states are out of reach; others' links are invisible.
        try refused("SELECT client_secret FROM sso_providers")
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

        // Signing in as Ada's provider account without a login the portal began: nothing.
        let before = try setup.lti.created()
        let forgedSSO = try asMallory { try SSOStore().signIn(state: "made-up", subject: "pupil-1", name: "x", isTeacher: true, token: String(repeating: "a", count: 43), csrfToken: "c", userAgent: "", $0) }
        #expect(forgedSSO == .noState)
        let forgedLTI = try asMallory {
            try LTILaunchStore().signIn(
                state: "made-up", .init(deploymentID: "deployment-1", subject: "student-1", name: "x", isTeacher: true, contextID: nil, contextTitle: nil, membershipsURL: nil),
                token: String(repeating: "b", count: 43), csrfToken: "c", userAgent: "", $0)
        }
        #expect(forgedLTI == .noState)
        // Linking Ada's provider identity to Mallory without a link Mallory began: nothing.
        #expect(try asMallory { try SSOStore().link(state: "made-up", subject: "pupil-1", $0) } == "no_state")
        #expect(try setup.lti.created() == before)

        // A line item on someone else's session, or under another platform user's name: refused.
        let platformID = try site.admin { try $0.query("SELECT id FROM lti_platforms").single().decode("id", as: Int.self) }
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
