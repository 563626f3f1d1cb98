import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// Each student's schedule fitted to their own memory, and an exam day to aim at.
@Suite("A schedule fitted to the student, aimed at their exam day", .onTestThreads)
struct FittedScheduleTests {
    /// Writes a simulated student's practice history of the mini exam straight into the tables
    /// (as `portal gen-data` does): each question every second day over `days`, remembered when
    /// a memory that forgets faster than FSRS's defaults says so.
    static func writeHistory(_ site: PortalSite, student: UUID, days: Range<Int>, start: Date) throws {
        var memoryWeights = FSRSParameters.defaultWeights
        memoryWeights[20] = 0.5  // a steeper forgetting curve than the default 0.1542
        memoryWeights[8] = 1.2
        let memory = FSRSScheduler(parameters: FSRSParameters(weights: memoryWeights))
        var random = SplitMix64(seed: 11)
        var cards: [UUID: FSRSCard] = [:]
        try site.admin { owner in
            try owner.withTransaction { connection in
                // History being written: the triggers that admit live answers stand aside.
                try connection.execute("SET LOCAL session_replication_role = replica")
                for day in days {
                    let at = start.addingTimeInterval(Double(day) * 86_400 + 9 * 3_600)
                    let items = MiniExam.items.enumerated().filter { (index, _) in (day + index) % 2 == 0 }.map(\.element)
                    guard !items.isEmpty else { continue }
                    let sessionID = UUID()
                    try connection.execute("""
                        INSERT INTO study_sessions (id, user_id, exam_id, mode, question_ids, started_at, finished_at, score_correct, score_percent, passed)
                        SELECT \(sessionID), \(student), e.id, 'practice', \(items.map(\.id))::uuid[], \(at), \(at.addingTimeInterval(600)), 0, 0, false
                        FROM exams e WHERE e.slug = \(MiniExam.exam)
                        """)
                    for (offset, item) in items.enumerated() {
                        let answeredAt = at.addingTimeInterval(Double(offset * 30))
                        let card = cards[item.id] ?? FSRSCard(due: answeredAt)
                        let recall = card.lastReview == nil ? 0.6 : memory.retrievability(of: card, at: answeredAt)
                        let remembered = Double(random.next() % 10_000) / 10_000 < recall
                        let rating: FSRSRating = remembered ? .good : .again
                        cards[item.id] = memory.review(card, rating: rating, at: answeredAt)
                        try connection.execute("""
                            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms,
                                                 answered_at, received_at, difficulty)
                            VALUES (\(UUID()), \(sessionID), \(student), \(item.id), 1, '[0]', \(remembered), \(remembered ? 1.0 : 0.0), \(rating.rawValue),
                                    20000, \(answeredAt), \(answeredAt), \(item.difficulty))
                            """)
                    }
                }
            }
        }
        // The cards the history implies, as the server would have kept them.
        _ = try ReviewCardStore().rebuildAll(try site.database.adminConnection())
    }

    @Test("after 400 spaced reviews the student's weights are fitted in the background, predict their reviews better, and schedule their cards")
    func fitsTheStudentsWeights() throws {
        let site = try PortalSite()
        let (browser, ada, _) = try site.account("ada", role: "student")
        let start = site.clock.read().addingTimeInterval(-130 * 86_400)
        // 60 days: about 210 spaced reviews, too few to fit.
        try Self.writeHistory(site, student: ada, days: 0..<60, start: start)
        var dashboard = try browser.request("GET", "/me").bodyText
        #expect(dashboard.contains("Your review schedule starts from how most people forget. Once you have made 400 reviews"))
        #expect(site.application.fitWaitingSchedules() == 0)
        #expect(try site.count("SELECT count(*) AS n FROM fsrs_weights WHERE weights IS NOT NULL") == 0)
        // Asking again without new reviews reads nothing and fits nothing.
        _ = try browser.request("GET", "/me")
        #expect(site.application.fitWaitingSchedules() == 0)

        try Self.writeHistory(site, student: ada, days: 60..<130, start: start)
        _ = try browser.request("GET", "/me")
        #expect(site.application.fitWaitingSchedules() == 1)
        let fitted = try site.admin { connection -> PostgresRow in
            try connection.query("""
                SELECT to_jsonb(weights) AS weights, reviews, log_loss_before, log_loss_after FROM fsrs_weights WHERE user_id = \(ada)
                """).single()
        }
        let weights = try fitted.decodeJSON("weights", as: [Double].self)
        #expect(weights.count == 21)
        #expect(zip(weights, FSRSOptimizer.bounds).allSatisfy { $1.contains($0) })
        #expect(weights != FSRSParameters.defaultWeights)
        #expect(try fitted.decode("reviews", as: Int.self) >= 400)
        #expect(try fitted.decode("log_loss_after", as: Double.self) < (try fitted.decode("log_loss_before", as: Double.self)))

        // The dashboard says so, and the cards follow the fitted weights (a rebuild by them changes nothing).
        dashboard = try browser.request("GET", "/me").bodyText
        #expect(dashboard.contains("Your review schedule has learned how you remember from \(try fitted.decode("reviews", as: Int.self)) of your reviews"), "\(dashboard)")
        #expect(try ReviewCardStore().rebuildAll(try site.database.adminConnection()).differing == 0)
        let stability = try site.admin { try $0.query("SELECT stability FROM review_cards WHERE user_id = \(ada) AND question_id = \(MiniExam.items[0].id)").single().decode("stability", as: Double.self) }
        let byDefaults = try site.admin { connection -> Double in
            let history = try ReviewCardStore().reviewHistory(for: ada, connection).filter { $0.questionID == MiniExam.items[0].id }
            var card = FSRSCard(due: history[0].at)
            for review in history { card = FSRSScheduler().review(card, rating: review.rating, at: review.at) }
            return card.stability ?? 0
        }
        #expect(abs(stability - byDefaults) > 0.01, "fitted \(stability), defaults \(byDefaults)")
        // No new reviews: the next look fits nothing.
        _ = try browser.request("GET", "/me")
        #expect(site.application.fitWaitingSchedules() == 0)
    }

    @Test("a student's weights are theirs alone: nobody reads or writes another's, and none leave the optimizer's bounds")
    func weightsAreOwnAndBounded() throws {
        let site = try PortalSite()
        let (_, ada, _) = try site.account("ada", role: "student")
        let bob = try site.database.makeAccount("bobby", role: "student", displayName: "Bobby", csrf: "c")
        let weights = "{" + FSRSParameters.defaultWeights.map { "\($0)" }.joined(separator: ",") + "}"
        _ = try site.admin { try $0.execute("""
            INSERT INTO fsrs_weights (user_id, weights, reviews, log_loss_before, log_loss_after, history_reviews, fitted_at, checked_at)
            VALUES (\(ada), \(weights)::float8[], 500, 0.4, 0.3, 600, now(), now())
            """) }
        let pool = site.database.appPool(maxConnections: 1)
        try pool.withTransaction(settings: ["app.session_token": bob.token, "app.guest_token": ""]) { connection throws in
            let visible = try connection.query("SELECT count(*) AS n FROM fsrs_weights").single().decode("n", as: Int.self)
            #expect(visible == 0)
            let changed = try connection.execute("UPDATE fsrs_weights SET weights[21] = 0.8 WHERE user_id = \(ada)")
            #expect(changed == 0)
            let forged = #expect(throws: PostgresError.self) {
                try connection.execute("""
                    INSERT INTO fsrs_weights (user_id, weights, reviews, history_reviews, checked_at) VALUES (\(ada), NULL, 0, 0, now())
                    """)
            }
            #expect(forged?.message.contains("row-level security") == true)
        }
        // Even their own: weights outside the bounds are refused by the table.
        try pool.withTransaction(settings: ["app.session_token": bob.token, "app.guest_token": ""]) { connection in
            var wild = FSRSParameters.defaultWeights
            wild[20] = 5
            let refused = #expect(throws: PostgresError.self) {
                try connection.execute("""
                    INSERT INTO fsrs_weights (user_id, weights, reviews, log_loss_before, log_loss_after, history_reviews, fitted_at, checked_at)
                    VALUES ((SELECT app_user_id()), \("{" + wild.map { "\($0)" }.joined(separator: ",") + "}")::float8[], 500, 0.4, 0.3, 600, now(), now())
                    """)
            }
            #expect(refused?.isCheckViolation == true)
        }
        #expect(try site.count("SELECT count(*) AS n FROM fsrs_weights WHERE user_id = \(ada) AND weights[21] = 0.1542") == 1)
        // Exam dates likewise: nobody reads, moves or sets another student's.
        _ = try site.admin { try $0.execute("""
            INSERT INTO exam_dates (user_id, exam_id, sits_on, set_at) SELECT \(ada), id, current_date + 30, now() FROM exams WHERE slug = \(MiniExam.exam)
            """) }
        try pool.withTransaction(settings: ["app.session_token": bob.token, "app.guest_token": ""]) { connection throws in
            let visible = try connection.query("SELECT count(*) AS n FROM exam_dates").single().decode("n", as: Int.self)
            #expect(visible == 0)
            let moved = try connection.execute("UPDATE exam_dates SET sits_on = current_date + 1 WHERE user_id = \(ada)")
            #expect(moved == 0)
            let forged = #expect(throws: PostgresError.self) {
                try connection.execute("INSERT INTO exam_dates (user_id, exam_id, sits_on, set_at) SELECT \(ada), id, current_date, now() FROM exams")
            }
            #expect(forged?.message.contains("row-level security") == true)
        }
        #expect(try site.count("SELECT count(*) AS n FROM exam_dates WHERE sits_on = current_date + 30") == 1)
    }

    @Test("a student sets the day they sit an exam: refused when it is not a day ahead, and then their cards and dashboard aim at it")
    func examDate() throws {
        let site = try PortalSite()
        let browser = site.browser()
        _ = try browser.register("ada")
        // Three of the seven questions studied.
        let (_, path) = try startSession(browser, count: "3")
        while case let page = try browser.request("GET", path), page.status == 200 {
            let form = try QuestionForm(page)
            try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        }
        let examPath = "/exams/\(MiniExam.region)/\(MiniExam.exam)"
        let examPage = try browser.request("GET", examPath)
        #expect(examPage.bodyText.contains("Your exam date") && examPage.bodyText.contains(#"name="sits_on" type="date""#))
        let check = try HTMLChecker.passes([("exam page", examPage.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        let token = browser.csrfToken(from: examPage)
        let today = try site.admin { try $0.query("SELECT (now() + (SELECT offset_seconds FROM server_clock) * interval '1 second')::date AS d").single().decode("d", as: String.self) }
        func day(_ offset: Int) throws -> String {
            try site.admin { try $0.query("SELECT (\(today)::date + \(offset)::int)::text AS d").single().decode("d", as: String.self) }
        }
        for (bad, says) in [("2026-02-30", "is not a date"), ("next week", "is not a date"), ("", "is not a date"), (try day(-1), "already passed"),
                            (try day(1200), "more than three years ahead")] {
            let refused = try browser.request("POST", examPath + "/date", form: ["csrf_token": token, "sits_on": bad])
            #expect(refused.status == 422, "\(bad): \(refused.status)")
            #expect(refused.bodyText.contains(says), "\(bad)")
            // No dead end: the exam page itself comes back, the reason beside the field and
            // what was typed still in it, the field offering only the days it takes.
            #expect(refused.bodyText.contains(#"aria-describedby="sits-on-error""#) && refused.bodyText.contains(#"id="sits-on-error""#), "\(bad)")
            #expect(refused.bodyText.contains(#"min="\#(today)""#) && refused.bodyText.contains("Practise"), "\(bad)")
            if bad == (try day(-1)) { #expect(refused.bodyText.contains(#"value="\#(bad)""#)) }
            if bad == "next week" {
                let refusedCheck = try HTMLChecker.passes([("exam page with a refused date", refused.body)])
                #expect(refusedCheck.passed, "the Nu Html Checker found errors; run it on \(refusedCheck.folder) to see them")
            }
        }
        // The refusal was shown once: the page read afterwards has no error in it.
        #expect(!(try browser.request("GET", examPath)).bodyText.contains("sits-on-error"))
        #expect(try site.count("SELECT count(*) AS n FROM exam_dates") == 0)

        let examDay = try day(9)
        let saved = try browser.request("POST", examPath + "/date", form: ["csrf_token": token, "sits_on": examDay])
        #expect(saved.status == 303)
        #expect(try browser.request("GET", examPath).bodyText.contains("You sit this exam on"))
        let dashboardPage = try browser.request("GET", "/me")
        let dashboard = dashboardPage.bodyText
        #expect(dashboard.contains("in 9 days: predicted score that day"), "\(dashboard)")
        let dashboardCheck = try HTMLChecker.passes([("dashboard", dashboardPage.body)])
        #expect(dashboardCheck.passed, "the Nu Html Checker found errors; run it on \(dashboardCheck.folder) to see them")
        // Every card that would fall short by the end of the exam day is due the day before at the latest.
        let late = try site.count("""
            SELECT count(*) AS n FROM review_cards c, exam_dates x JOIN users u ON u.id = x.user_id
            WHERE c.user_id = x.user_id AND c.due > (x.sits_on::timestamp AT TIME ZONE u.time_zone) - interval '1 day'
              AND fsrs_retrievability(c.stability, c.last_review, (x.sits_on::timestamp AT TIME ZONE u.time_zone) + interval '1 day') < 0.9
              AND c.last_review < (x.sits_on::timestamp AT TIME ZONE u.time_zone) - interval '1 day'
            """)
        #expect(late == 0)
        #expect(try site.count("SELECT count(*) AS n FROM review_cards") == 3)
        #expect(try ReviewCardStore().rebuildAll(try site.database.adminConnection()).differing == 0)

        // Two days before: review takes only what was studied, however many new ones are allowed.
        site.clock.advance(7 * 86_400)
        let review = try browser.request("POST", "/sessions", form: [
            "csrf_token": token, "region": MiniExam.region, "exam": MiniExam.exam, "mode": "review", "count": "20",
        ])
        #expect(review.status == 303)
        // Only studied questions: none of the four new ones the daily allowance would otherwise bring.
        #expect(try site.count("""
            SELECT count(*) AS n FROM study_sessions s, unnest(s.question_ids) AS q(id)
            WHERE s.mode = 'review' AND q.id NOT IN (SELECT question_id FROM review_cards)
            """) == 0)
        #expect(try site.count("SELECT cardinality(question_ids) AS n FROM study_sessions WHERE mode = 'review'") == 3)
        #expect(try browser.request("GET", "/me").bodyText.contains("The last days before your exam"))
        // Removing the date returns the usual schedule.
        let cleared = try browser.request("POST", examPath + "/date", form: ["csrf_token": token, "clear": "1"])
        #expect(cleared.status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM exam_dates") == 0)
        #expect(try ReviewCardStore().rebuildAll(try site.database.adminConnection()).differing == 0)
    }
}
