import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Reminders on the installed site through a push service on loopback that checks each
/// message's VAPID signature and opens it with the subscriber's own key.
@Suite("Reminders by Web Push", .onTestThreads)
struct PushReminderTests {
    static func subscription(_ endpoint: String, _ keys: TestPushService.Subscription) -> String {
        #"{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(keys.p256dh)","auth":"\#(keys.auth)"}}"#
    }

    @Test("a subscribed device gets one reminder at the study time, signed and encrypted for it alone; a gone subscription is forgotten; bad subscriptions are refused")
    func reminder() throws {
        let service = try TestPushService()
        let site = try PortalSite(environment: ["OUTBOUND_ALLOW_LOOPBACK_HTTP": "1"], agent: true)
        // A morning: the study time set below (an hour on) is later the same day.
        site.clock.advance(toHour: 9)
        try service.follow(clock: site.clock.read())
        let (ana, user, csrf) = try site.account("ana", role: "student")
        let csrfHeader = "X-CSRF-Token: \(csrf)\r\n"
        #expect(try ana.request("GET", "/api/push/key").status == 503, "no key before the agent made one")
        #expect(site.agent!.sendPushes() == 0)
        let key = try ana.request("GET", "/api/push/key")
        #expect(key.status == 200 && key.bodyText.hasPrefix(#"{"publicKey":"B"#))

        let keys = try service.subscription
        for (body, why) in [
            (Self.subscription("ftp://127.0.0.1/push/x", keys), "not https"),
            (Self.subscription("http://push.example.net/x", keys), "plain http to another machine"),
            (Self.subscription(service.endpoint("ana"), .init(p256dh: "BAAA", auth: keys.auth)), "not a point"),
            (Self.subscription(service.endpoint("ana"), .init(p256dh: keys.p256dh, auth: "AAAA")), "a short secret"),
            ("{not json", "not JSON"),
        ] {
            #expect(try ana.request("POST", "/api/push/subscriptions", json: body, extraHeaders: csrfHeader).status == 422, "\(why)")
        }
        #expect(try ana.request("POST", "/api/push/subscriptions", json: Self.subscription(service.endpoint("ana"), keys)).status == 403,
                "no form token, no subscription")
        let made = try ana.request("POST", "/api/push/subscriptions", json: Self.subscription(service.endpoint("ana"), keys), extraHeaders: csrfHeader)
        #expect(made.status == 201 && made.bodyText == #"{"devices":1}"#)
        _ = try ana.request("POST", "/api/push/subscriptions", json: Self.subscription(service.endpoint("old-phone", gone: true), keys), extraHeaders: csrfHeader)
        #expect(try ana.request("GET", "/me/rhythm").bodyText.contains("Notifications are on for 2 devices."))

        // Five reviews due; the study time an hour away, then come.
        try site.admin { connection in
            try connection.execute("""
                INSERT INTO review_cards (user_id, question_id, state, step, stability, difficulty, due, last_review, first_review, reviews, lapses)
                SELECT \(user), q.id, 'review', NULL, 3, 5, (SELECT app_now()) - interval '1 hour', (SELECT app_now()) - interval '3 days',
                       (SELECT app_now()) - interval '3 days', 1, 0
                FROM questions q ORDER BY q.id LIMIT 5
                """)
            let hour = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: site.clock.read().addingTimeInterval(3_600)).hour!
            try connection.execute("UPDATE users SET study_time = \(String(format: "%02d:00", hour))::time WHERE id = \(user)")
        }
        #expect(site.agent!.sendPushes() == 0, "not before the study time")
        site.clock.advance(3_600)
        #expect(site.agent!.sendPushes() == 1, "the phone that is still there")
        #expect(site.agent!.sendPushes() == 0, "one a day")
        let received = service.messages()
        #expect(received.count == 1)
        let message = try #require(received.first)
        #expect(message.vapid == .verified, "\(message.vapid)")
        #expect(message.error == nil, "\(message.error ?? "")")
        #expect(message.message?["title"] == "5 questions to review" && message.message?["url"] == "/me")
        #expect(message.headers["content-encoding"] == "aes128gcm" && message.headers["ttl"] != nil)
        #expect(try site.count("SELECT count(*) AS n FROM push_subscriptions") == 1, "the gone subscription is forgotten")

        // The app role reads neither the devices' endpoints and keys nor the signing key.
        let account = try site.database.makeAccount("mallory", role: "student")
        let reads = try site.pool.asCaller(account) { connection -> [Bool] in
            ["SELECT endpoint FROM push_subscriptions", "SELECT push_signing_key()", "SELECT * FROM push_reminders_take(10)", "SELECT * FROM push_keys"].map { statement in
                (try? connection.withSavepoint { try connection.query(SQL(stringLiteral: statement)) }) != nil
            }
        }
        #expect(reads == [false, false, false, false], "\(reads)")
        #expect(try ana.request("POST", "/me/push/end", form: ["csrf_token": csrf]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM push_subscriptions") == 0)
    }
}
