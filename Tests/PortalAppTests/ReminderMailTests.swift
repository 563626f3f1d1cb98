import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Reminders by e-mail through a real mail server on loopback: chosen on the study rhythm page,
/// sent at the study time only when reviews are due, once a day, with a link (and the one-click
/// headers of RFC 8058) that stops them without signing in.
@Suite("Reminders by e-mail", .onTestThreads)
struct ReminderMailTests {
    @Test("a daily reminder arrives at the study time with what is due and a link to start; one click in the mail client stops the next")
    func dailyReminder() throws {
        let server = try TestMailServer()
        let site = try MailJourney.site(server)
        // A morning: the study time set below (an hour on) is later the same day.
        site.clock.advance(toHour: 9)
        let ana = site.browser()
        try ana.register("ana")
        _ = try MailJourney.prove("ana@pupils.example", ana, site, server, expecting: 1)
        let user = try site.admin { try $0.query("SELECT id FROM users WHERE username = 'ana'").single().decode("id", as: UUID.self) }
        // Reviews due today, written as history would leave them.
        try site.admin { connection in
            try connection.execute("""
                INSERT INTO review_cards (user_id, question_id, state, step, stability, difficulty, due, last_review, first_review, reviews, lapses)
                SELECT \(user), q.id, 'review', NULL, 3, 5, (SELECT app_now()) - interval '1 hour', (SELECT app_now()) - interval '3 days',
                       (SELECT app_now()) - interval '3 days', 1, 0
                FROM questions q ORDER BY q.id LIMIT 5
                """)
        }
        let page = try ana.request("GET", "/me/rhythm").bodyText
        #expect(page.contains(#"<h2 id="reminders">Reminders by e-mail</h2>"#))
        #expect(try ana.submit("/me/rhythm", to: "/me/reminders", ["digest": "weekly-ish"]).status == 422)
        #expect(try ana.submit("/me/rhythm", to: "/me/reminders", ["digest": "daily"]).status == 303)

        // Before the study time nothing goes; at it, one reminder, and not a second that day.
        let now = site.clock.read()
        let studyTime = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: now.addingTimeInterval(3_600))
        try site.admin { try $0.execute("UPDATE users SET study_time = \(String(format: "%02d:00", studyTime.hour!))::time WHERE id = \(user)") }
        #expect(site.agent!.queueDigests() == 0, "not yet: the study time is an hour away")
        site.clock.advance(3_600)
        #expect(site.agent!.queueDigests() == 1)
        #expect(site.agent!.queueDigests() == 0, "one a day")
        site.agent!.sendMail()
        let message = try #require(server.waitForMessages(2).last)
        #expect(message.to == ["ana@pupils.example"] && message.header("Subject") == "5 questions to review today")
        #expect(message.part("text/plain")?.contains("5 of your questions are due today.") == true)
        #expect(message.part("text/html")?.contains(#"href="http://127.0.0.1:\#(site.server.port)/me""#) == true, "one link starts the review")
        let unsubscribe = try #require(message.header("List-Unsubscribe"))
        #expect(message.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
        #expect(unsubscribe.hasPrefix("<http://127.0.0.1:\(site.server.port)/unsubscribe/") && unsubscribe.hasSuffix(">"))
        let path = String(unsubscribe.dropFirst("<http://127.0.0.1:\(site.server.port)".count).dropLast())
        #expect(try site.count("SELECT count(*) AS n FROM mail_unsubscribes WHERE token_hash = sha256(convert_to(\(String(path.dropFirst("/unsubscribe/".count))), 'UTF8'))") == 1,
                "the token is kept hashed")

        // A mail scanner's fetch changes nothing; the client's one-click POST (no cookie, no form token) does.
        let opened = try site.browser().request("GET", path)
        #expect(opened.status == 200 && opened.bodyText.contains("Stop the reminders"))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE digest = 'daily'") == 1)
        let clicked = try site.browser().request("POST", path, form: ["List-Unsubscribe": "One-Click"])
        #expect(clicked.status == 200 && clicked.bodyText.contains("you will get no more reminders by e-mail"))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE digest = 'off'") >= 1)
        #expect(try site.browser().request("POST", "/unsubscribe/" + String(repeating: "0", count: 64), form: [:]).status == 404)
        site.clock.advance(86_400)
        #expect(site.agent!.queueDigests() == 0, "stopped")
    }

    @Test("nothing due, a day off or a holiday: no reminder")
    func quietDays() throws {
        let server = try TestMailServer()
        let site = try MailJourney.site(server)
        let ana = site.browser()
        try ana.register("ana")
        _ = try MailJourney.prove("ana@pupils.example", ana, site, server, expecting: 1)
        #expect(try ana.submit("/me/rhythm", to: "/me/reminders", ["digest": "daily"]).status == 303)
        try site.admin { try $0.execute("UPDATE users SET study_time = '00:00' WHERE username = 'ana'") }
        #expect(site.agent!.queueDigests() == 0, "nothing is due")
        #expect(try site.count("SELECT count(*) AS n FROM mail_outbox WHERE purpose = 'digest'") == 0)
        // Due now, but today is made a day off.
        try site.admin { connection in
            try connection.execute("""
                INSERT INTO review_cards (user_id, question_id, state, step, stability, difficulty, due, last_review, first_review, reviews, lapses)
                SELECT u.id, q.id, 'review', NULL, 3, 5, (SELECT app_now()) - interval '1 hour', (SELECT app_now()) - interval '3 days',
                       (SELECT app_now()) - interval '3 days', 1, 0
                FROM users u, questions q WHERE u.username = 'ana' ORDER BY q.id LIMIT 3
                """)
            try connection.execute("""
                UPDATE users SET digest_sent_on = NULL,
                       easy_days = overlay('nnnnnnn' PLACING 'x' FROM extract(isodow FROM ((SELECT app_now()) AT TIME ZONE time_zone)::date)::int FOR 1)
                WHERE username = 'ana'
                """)
        }
        #expect(site.agent!.queueDigests() == 0, "a day off")
        try site.admin { connection in
            try connection.execute("UPDATE users SET digest_sent_on = NULL, easy_days = 'nnnnnnn' WHERE username = 'ana'")
            try connection.execute("""
                INSERT INTO study_holidays (user_id, starts_on, ends_on)
                SELECT id, ((SELECT app_now()) AT TIME ZONE time_zone)::date, ((SELECT app_now()) AT TIME ZONE time_zone)::date + 3 FROM users WHERE username = 'ana'
                """)
        }
        #expect(site.agent!.queueDigests() == 0, "a holiday")
    }
}
