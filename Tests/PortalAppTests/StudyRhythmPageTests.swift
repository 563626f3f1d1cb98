import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// `/me/rhythm`: easy days, holidays, the cost of each retention and the calendar feed, as a
/// student uses them.
@Suite("Study rhythm pages", .onTestThreads)
struct StudyRhythmPageTests {
    /// A student with 80 questions learned over the last six weeks and reviewed whenever due
    /// (answers written straight into the tables, their cards then made from that history).
    static func student(_ site: PortalSite, _ name: String = "ada", questions: Int = 80) throws -> (Browser, UUID, String) {
        let account = try site.account(name, role: "student")
        let now = site.clock.read(), scheduler = FSRSScheduler()
        try site.admin { owner in
            try owner.withTransaction { connection in
                try connection.execute("SET LOCAL session_replication_role = replica")
                let first = MiniExam.items[0]
                let exam = try connection.query("SELECT id FROM exams WHERE slug = \(MiniExam.exam)").single().decode("id", as: Int.self)
                for index in 0..<questions {
                    let question = UUID()
                    try connection.execute("""
                        INSERT INTO questions (id, domain_id, exam_id, type, stem, options, correct, explanation, difficulty, status)
                        SELECT \(question), domain_id, exam_id, type, stem || \(" \(index)")::text, options, correct, explanation, difficulty, status
                        FROM questions WHERE id = \(first.id)
                        """)
                    var at = now.addingTimeInterval(-Double(3 + index % 40) * 86_400 - 3_600)
                    var card = FSRSCard(due: at)
                    while at < now {
                        let session = UUID()
                        try connection.execute("""
                            INSERT INTO study_sessions (id, user_id, exam_id, mode, question_ids, started_at, finished_at, score_correct, score_percent, passed)
                            VALUES (\(session), \(account.1), \(exam), 'practice', ARRAY[\(question)]::uuid[], \(at), \(at.addingTimeInterval(60)), 1, 100, true)
                            """)
                        try connection.execute("""
                            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms,
                                                 answered_at, received_at, difficulty)
                            VALUES (\(UUID()), \(session), \(account.1), \(question), 1, '[0]', true, 1, 3, 12000, \(at), \(at), \(first.difficulty))
                            """)
                        card = scheduler.review(card, rating: .good, at: at)
                        while card.state != .review { card = scheduler.review(card, rating: .good, at: card.due) }
                        at = card.due
                    }
                }
            }
            _ = try ReviewCardStore().rebuild(for: account.1, owner)
        }
        return account
    }

    /// How many of the student's cards fall due on each local weekday (1 Monday … 7 Sunday) from today on.
    static func dueByWeekday(_ site: PortalSite, _ student: UUID) throws -> [Int: Int] {
        try site.admin { connection in
            var counts: [Int: Int] = [:]
            for row in try connection.query("""
                SELECT extract(isodow FROM c.due AT TIME ZONE u.time_zone)::int AS day, count(*)::int AS n
                FROM review_cards c JOIN users u ON u.id = c.user_id
                WHERE c.user_id = \(student) AND c.state = 'review' AND c.due > (SELECT app_now()) GROUP BY 1
                """).rows {
                counts[try row.decode("day", as: Int.self)] = try row.decode("n", as: Int.self)
            }
            return counts
        }
    }

    @Test("Sundays off empties every Sunday at once and says so; a week with no day left, or a time that is no time, is refused on the form and changes nothing")
    func easyDays() throws {
        let site = try PortalSite()
        let (browser, ada, csrf) = try Self.student(site)
        #expect((try Self.dueByWeekday(site, ada)[7] ?? 0) > 0, "a plain schedule has reviews on Sundays")
        var week = ["csrf_token": csrf, "balance": "on", "study_time": "07:45"]
        for day in 1...7 { week["day\(day)"] = day == 7 ? "x" : day == 6 ? "r" : "n" }
        let saved = try browser.request("POST", "/me/rhythm", form: week)
        #expect(saved.status == 303 && redirectLocation(saved) == "/me/rhythm?saved=week#week")
        #expect(try Self.dueByWeekday(site, ada)[7] == nil, "no review falls on a Sunday")
        let page = try browser.request("GET", "/me/rhythm?saved=week").bodyText
        #expect(page.contains("Your reviews have been rescheduled to fit your week."))
        #expect(page.contains(#"<option value="x" selected>Day off</option>"#) && page.contains(#"value="07:45""#))
        // The estimate says what the week does, beside a week without easy days.
        #expect(site.application.estimateWorkloads() == 1)
        let estimated = try browser.request("GET", "/me/rhythm").bodyText
        #expect(estimated.contains("on a normal day") && estimated.contains("With no lighter days or days off it would be about"))

        var allOff = week
        for day in 1...7 { allOff["day\(day)"] = "x" }
        let refused = try browser.request("POST", "/me/rhythm", form: allOff)
        #expect(refused.status == 422 && refused.bodyText.contains("Leave at least one day of the week for reviews."))
        var badTime = week
        badTime["study_time"] = "25:99"
        let late = try browser.request("POST", "/me/rhythm", form: badTime)
        #expect(late.status == 422 && late.bodyText.contains("Enter a time of day such as 18:30."))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE easy_days = 'nnnnnrx' AND study_time = '07:45'") == 1, "the refusals changed nothing")
        // Every scheduling path agrees with a rebuild from the history, calendar and all.
        #expect(try site.admin { try ReviewCardStore().rebuild(for: ada, $0).differing } == 0)
    }

    @Test("a two-week holiday is empty, the page says how many reviews it moved before and after, and those are the reviews that moved; bad holidays are refused beside their field")
    func holiday() throws {
        let site = try PortalSite()
        let (browser, ada, csrf) = try Self.student(site)
        let today = try site.admin { try $0.query("SELECT ((SELECT app_now()) AT TIME ZONE 'UTC')::date::text AS d").single().decode("d", as: String.self) }
        func day(_ offset: Int) -> String {
            let date = ISO8601DateFormatter().date(from: today + "T00:00:00Z")!.addingTimeInterval(Double(offset) * 86_400)
            return String(ISO8601DateFormatter().string(from: date).prefix(10))
        }
        func due(from: Int, through: Int) throws -> Int {
            try site.count("""
                SELECT count(*) AS n FROM review_cards WHERE user_id = \(ada)
                AND (due AT TIME ZONE 'UTC')::date BETWEEN \(day(from))::date AND \(day(through))::date
                """)
        }
        let inside = try due(from: 10, through: 23), before = try due(from: 3, through: 9), after = try due(from: 24, through: 30)
        #expect(inside > 0, "the holiday has reviews to move")
        let saved = try browser.request("POST", "/me/holidays", form: ["csrf_token": csrf, "starts_on": day(10), "ends_on": day(23)])
        #expect(saved.status == 303)
        #expect(try due(from: 10, through: 23) == 0, "nothing is due in the holiday")
        let moved = try site.admin { try $0.query("SELECT moved_before, moved_after FROM study_holidays WHERE user_id = \(ada)").single() }
        let movedBefore = try moved.decode("moved_before", as: Int.self), movedAfter = try moved.decode("moved_after", as: Int.self)
        #expect(try due(from: 3, through: 9) - before == movedBefore && (try due(from: 24, through: 30)) - after == movedAfter,
                "the page's figures are the reviews that moved")
        #expect(movedBefore + movedAfter > 0)
        let page = try browser.request("GET", "/me/rhythm").bodyText
        #expect(page.contains("\(movedBefore) review") && page.contains("moved into the week before") && page.contains("\(movedAfter) review"))

        for (form, field, message) in [
            (["starts_on": day(30), "ends_on": day(29)], "ends_on", "A holiday starts today or later"),
            (["starts_on": day(-3), "ends_on": day(2)], "ends_on", "A holiday starts today or later"),
            (["starts_on": day(40), "ends_on": day(140)], "ends_on", "A holiday lasts at most 62 days."),
            (["starts_on": day(20), "ends_on": day(26)], "starts_on", "You already have a holiday on some of these days."),
            (["starts_on": "2026-02-30", "ends_on": day(50)], "starts_on", "Enter a date such as 2026-12-24."),
            (["starts_on": day(50), "ends_on": "tomorrow"], "ends_on", "Enter a date such as 2026-12-24."),
        ] {
            let refused = try browser.request("POST", "/me/holidays", form: form.merging(["csrf_token": csrf]) { a, _ in a })
            #expect(refused.status == 422 && refused.bodyText.contains(message), "\(form)")
            #expect(refused.bodyText.contains(#"aria-describedby="holiday-\#(field == "starts_on" ? "start" : "end")-error""#), "\(form): the reason is beside its field")
        }
        #expect(try site.count("SELECT count(*) AS n FROM study_holidays") == 1)
        // Cancelled, the reviews are back where a rebuild without it puts them.
        let id = try site.admin { try $0.query("SELECT id FROM study_holidays").single().decode("id", as: UUID.self) }
        #expect(try browser.request("POST", "/me/holidays/\(id)/remove", form: ["csrf_token": csrf]).status == 303)
        #expect(try due(from: 10, through: 23) > 0)
        let (other, _, otherCSRF) = try site.account("bob", role: "student")
        #expect(try other.request("POST", "/me/holidays/\(id)/remove", form: ["csrf_token": otherCSRF]).status == 404)
    }

    @Test("each retention's cost is worked out in the background from the student's own cards: minutes grow with retention, one choice is suggested with its reason, and the chart has a text alternative")
    func estimates() throws {
        let site = try PortalSite()
        let (browser, _, _) = try Self.student(site)
        let first = try browser.request("GET", "/me/rhythm").bodyText
        #expect(first.contains("Your estimates are being worked out from your cards."), "nothing is simulated in the request")
        #expect(site.application.estimateWorkloads() == 1)
        let page = try browser.request("GET", "/me/rhythm").bodyText
        #expect(site.application.estimateWorkloads() == 0, "the same cards, the same day: the kept estimate")
        #expect(page.contains("Suggested: ") && page.contains("suggested</span>"))
        #expect(page.contains("Over the next 90 days at your retention: about "))
        #expect(page.contains(#"role="img" aria-labelledby="workload-chart-title workload-chart-desc""#))
        #expect(page.contains("<title id=\"workload-chart-title\">Minutes a day over the next 90 days, for each retention</title>"))
        // The table's 90-day minutes, in the order of the choices, never fall as retention rises.
        let rows = page.components(separatedBy: "<th scope=\"row\">").dropFirst()
        #expect(rows.count == AccountStore.retentionChoices.count)
        let minutes = rows.map { row -> Double in
            let cells = row.components(separatedBy: "<td>").dropFirst().map { $0.components(separatedBy: "</td>")[0] }
            return Double(cells[1].components(separatedBy: " · ")[1].replacingOccurrences(of: " min", with: "")) ?? -1
        }
        #expect(minutes.allSatisfy { $0 >= 0 }, "\(minutes)")
        #expect(zip(minutes, minutes.dropFirst()).allSatisfy { $0 <= $1 }, "minutes a day by retention: \(minutes)")
        let check = try HTMLChecker.passes([("rhythm", try browser.request("GET", "/me/rhythm").body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("with few cards the estimates suggest nothing yet and never say '0 minutes' for a few seconds a day")
    func fewCards() throws {
        let site = try PortalSite()
        let (browser, _, _) = try Self.student(site, questions: 10)
        _ = try browser.request("GET", "/me/rhythm")
        #expect(site.application.estimateWorkloads() == 1)
        let page = try browser.request("GET", "/me/rhythm").bodyText
        #expect(page.contains("A recommendation comes once you have studied 50 or more questions"), "\(page)")
        #expect(!page.contains("Suggested: ") && !page.contains("suggested</span>"))
        #expect(page.contains("&lt;0.1") || !page.contains(">0<"), "a few seconds a day reads as under a tenth of a minute")
        #expect(!page.contains(" · 0 min"), "no '0 min' in the table")
    }

    @Test("the calendar feed is reached by its secret token alone: stored hashed, unreadable to the app role, a guess finds nothing, a new address ends the old; a class deadline is in it")
    func calendarFeed() throws {
        let site = try PortalSite()
        let (browser, ada, csrf) = try Self.student(site)
        let (teacher, _, teacherCSRF) = try site.account("tess", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: teacherCSRF)
        #expect(try browser.request("POST", "/join/\(code)", form: ["csrf_token": csrf]).status == 303)
        let dueDay = String(ISO8601DateFormatter().string(from: site.clock.read().addingTimeInterval(10 * 86_400)).prefix(10))
        _ = try makeLink(teacher, csrf: teacherCSRF, classID: classID, extra: [("due", dueDay)])

        let made = try browser.submit("/me/rhythm", to: "/me/calendar", [:])
        #expect(made.status == 200 && made.header("Cache-Control")?.contains("no-store") == true, "the address is shown once and not kept")
        let page = made.bodyText
        guard let start = page.range(of: "/calendar/"), let end = page[start.upperBound...].range(of: ".ics") else {
            Issue.record("no calendar address on the page")
            return
        }
        let token = String(page[start.upperBound..<end.lowerBound])
        #expect(token.count == 43)
        let feed = try site.browser().request("GET", "/calendar/\(token).ics")
        #expect(feed.status == 200 && feed.header("Content-Type") == "text/calendar; charset=utf-8")
        let text = feed.bodyText
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(text.contains("SUMMARY:Due: Alpha warm-up (Year 10 networking)"))
        #expect(text.contains("SUMMARY:Review "))
        #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines are folded at 75 octets")

        // Stored hashed; the app role cannot read even the hash, and a guess finds nothing.
        #expect(try site.count("SELECT count(*) AS n FROM calendar_feeds WHERE token_hash = sha256(convert_to(\(token), 'UTF8'))") == 1)
        let account = try site.database.makeAccount("mallory", role: "student")
        let attempts = try site.pool.asCaller(account) { connection -> (hash: Bool, guess: Bool) in
            let hash = (try? connection.withSavepoint { try connection.query("SELECT token_hash FROM calendar_feeds") }) != nil
            let guess = try StudyRhythmStore().calendarFacts(token: String(repeating: "A", count: 43), connection) != nil
            return (hash, guess)
        }
        #expect(!attempts.hash && !attempts.guess)
        for path in ["/calendar/\(String(repeating: "A", count: 43)).ics", "/calendar/short.ics", "/calendar/\(token).json", "/calendar/\(token)"] {
            #expect(try site.browser().request("GET", path).status == 404, "\(path)")
        }
        // A new address ends the old one; stopping the feed ends the new one.
        _ = try browser.submit("/me/rhythm", to: "/me/calendar", [:])
        #expect(try site.browser().request("GET", "/calendar/\(token).ics").status == 404)
        #expect(try browser.request("POST", "/me/calendar/end", form: ["csrf_token": csrf]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM calendar_feeds WHERE user_id = \(ada)") == 0)
    }
}
