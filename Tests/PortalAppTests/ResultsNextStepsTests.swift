import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A results page leads somewhere: the score first, then one-tap next steps; practice is not an
/// exam, and "the ones I missed" are the ones answered wrongly.
@Suite("Results that lead somewhere", .onTestThreads)
struct ResultsNextStepsTests {

    @Test("a practice stopped part-way says what was answered and right (no pass or fail); 'Practise the N you missed' starts exactly those; unanswered ones are counted apart")
    func practiseTheMissed() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("noa")
        let (_, path) = try startSession(browser, count: "5")
        // Two right, one wrong, two never answered.
        var wrong: UUID?
        for answer in ["right", "wrong", "right"] {
            let form = try QuestionForm(try browser.request("GET", path))
            if answer == "wrong" { wrong = form.item.id }
            #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(answer == "right" ? form.item.key : form.item.wrong)).status == 303)
        }
        let confirm = try browser.request("GET", path + "/finish")
        #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": browser.csrfToken(from: confirm)]).status == 303)
        let results = try browser.request("GET", path + "/results")
        let page = results.bodyText
        #expect(page.contains("3 of 5 answered · 2 right"), "\(page.prefix(4000))")
        #expect(page.contains(#"<p class="big-score">67%</p>"#), "two of three answered right, rounded")
        #expect(!page.contains("Not passed yet") && !page.contains("Passed"), "practice is not an exam")
        #expect(page.contains("2 questions were not answered"))
        // The next steps come straight after the score, before the review of each question.
        let steps = try #require(page.range(of: "Practise the 1 you missed"))
        let domains = try #require(page.range(of: #"id="domains-heading""#))
        #expect(steps.lowerBound < domains.lowerBound)
        #expect(page.contains(#"href="/me/review">Review what is due</a>"#))
        let check = try HTMLChecker.passes([("practice results", results.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        // "Only the ones I missed" lists the wrong one, not the unanswered.
        let onlyMissed = try browser.request("GET", path + "/results?show=missed").bodyText
        #expect(onlyMissed.components(separatedBy: #"<li class="review-item"#).count - 1 == 1, "\(onlyMissed.prefix(200))")

        // One tap: a practice of exactly the missed question.
        let session = try #require(UUID(uuidString: String(path.dropFirst("/sessions/".count))))
        let again = try browser.request("POST", "/sessions", form: [
            "csrf_token": browser.csrfToken(from: results), "region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice",
            "missed_of": session.uuidString.lowercased()])
        #expect(again.status == 303)
        let newID = try #require(UUID(uuidString: String(redirectLocation(again).dropFirst("/sessions/".count))))
        let ids = try site.admin { try $0.query("SELECT unnest(question_ids) AS id FROM study_sessions WHERE id = \(newID)").rows.map { try $0.decode("id", as: UUID.self) } }
        #expect(ids == [try #require(wrong)])
        // Another student's session is not theirs to practise from.
        let other = site.browser()
        try other.register("zed")
        let token = other.csrfToken(from: try other.request("GET", MiniExam.path))
        let refused = try other.request("POST", "/sessions", form: [
            "csrf_token": token, "region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice", "missed_of": session.uuidString.lowercased()])
        #expect(refused.status == 404)
    }

    @Test("every domain row of the exam page is a one-tap practice of that domain (the row's button sends the page's one form with its domain)")
    func practiseADomain() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("dora")
        let page = try browser.request("GET", MiniExam.path)
        #expect(page.bodyText.contains(#"<button type="submit" form="practise-domain" name="domain" value="beta" aria-label="Practise Beta things">Practise</button>"#))
        let check = try HTMLChecker.passes([("exam page", page.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // What the button sends: the form's fields and its own domain.
        let sent = try browser.request("POST", "/sessions", form: [
            "csrf_token": browser.csrfToken(from: page), "region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice", "count": "20", "domain": "beta"])
        #expect(sent.status == 303)
        let id = try #require(UUID(uuidString: String(redirectLocation(sent).dropFirst("/sessions/".count))))
        let domains = try site.admin {
            try $0.query("SELECT DISTINCT d.slug FROM study_sessions s, unnest(s.question_ids) q(id) JOIN questions x ON x.id = q.id JOIN domains d ON d.id = x.domain_id WHERE s.id = \(id)")
                .rows.map { try $0.decode("slug", as: String.self) }
        }
        #expect(domains == ["beta"])
    }

    /// The questions of a session, in order.
    func questions(_ site: PortalSite, _ path: String) throws -> [UUID] {
        let id = try #require(UUID(uuidString: String(path.dropFirst("/sessions/".count))))
        return try site.admin { try $0.query("SELECT unnest(question_ids) AS id FROM study_sessions WHERE id = \(id)").rows.map { try $0.decode("id", as: UUID.self) } }
    }

    @Test("a practice the student builds: the missed of their last session, those missed and not yet got right, those not yet seen, those flagged in a mock exam — of chosen kinds; an empty choice says what to change")
    func practiceBuilt() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("bea")
        let exam = try browser.request("GET", MiniExam.path)
        #expect(exam.bodyText.contains(#"<input type="radio" name="pool" value="missed-last"> Missed in my last session</label>"#))
        #expect(exam.bodyText.contains(#"<input type="checkbox" name="kind" value="multi-choice" checked> multiple choice</label>"#))
        let check = try HTMLChecker.passes([("exam page", exam.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        // Nothing studied yet: "missed" has nothing, and says so with what to change.
        let (empty, _) = try startSession(browser, count: "5", extra: [("pool", "missed-last")])
        #expect(empty.status == 422 && empty.bodyText.contains("No question matches “Missed in my last session” with these choices."))

        // A practice of three: one wrong, two right.
        let (_, first) = try startSession(browser, count: "3")
        var wrong: UUID?, right: [UUID] = []
        for answer in ["wrong", "right", "right"] {
            let form = try QuestionForm(try browser.request("GET", first))
            if answer == "wrong" { wrong = form.item.id } else { right.append(form.item.id) }
            #expect(try browser.request("POST", first + "/answers", pairs: form.pairs(answer == "right" ? form.item.key : form.item.wrong)).status == 303)
        }
        let missed = try #require(wrong)
        // What the exam page's script asks as the choices change: how many would be drawn from.
        let counted = MiniExam.path + "/practice-count?pool=missed-last&domain=alpha&domain=beta"
        let count = try browser.request("GET", counted)
        #expect(count.status == 200 && count.bodyText == #"{"count":1}"#, "\(count.bodyText)")
        #expect(count.header("Cache-Control") == "private, no-store")
        #expect(try browser.request("GET", MiniExam.path + "/practice-count?pool=unseen&domain=alpha&domain=beta").bodyText
            == #"{"count":\#(MiniExam.items.count - 3)}"#)
        #expect(try browser.request("GET", MiniExam.path + "/practice-count?pool=everything&domain=alpha").status == 400)
        #expect(try browser.request("GET", "/exams/nowhere/nothing/practice-count?domain=alpha").status == 404)
        #expect(try site.browser().request("GET", counted).bodyText == #"{"count":0}"#, "another visitor has no history")
        let (_, missedLast) = try startSession(browser, count: "20", extra: [("pool", "missed-last")])
        #expect(try questions(site, missedLast) == [missed])
        // Answered right in that practice, it is no longer "missed and not yet got right".
        let form = try QuestionForm(try browser.request("GET", missedLast))
        #expect(try browser.request("POST", missedLast + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        let (stillMissed, _) = try startSession(browser, count: "20", extra: [("pool", "missed")])
        #expect(stillMissed.status == 422, "nothing is missed now")
        // Not yet seen: every practice question but the three answered.
        let (_, unseen) = try startSession(browser, count: "20", extra: [("pool", "unseen")])
        let offered = Set(MiniExam.items.map(\.id))
        let unseenIDs = Set(try questions(site, unseen))
        #expect(!unseenIDs.isEmpty && unseenIDs.isDisjoint(with: right + [missed]) && unseenIDs.isSubset(of: offered))
        // Of a chosen kind only.
        let (_, multi) = try startSession(browser, count: "20", extra: [("kind", "multi-choice")])
        let kinds = Set(try questions(site, multi).compactMap { MiniExam.item($0)?.kind })
        #expect(kinds == ["multi-choice"])
        // Flagged in a mock exam: exactly those.
        let (_, mock) = try startSession(browser, mode: "mock")
        let shown = try browser.request("GET", mock)
        let flaggedID = try QuestionForm(shown).item.id
        #expect(try browser.request("POST", mock + "/flags", form: [
            "csrf_token": browser.csrfToken(from: shown), "question": flaggedID.uuidString.lowercased(), "flagged": "1"]).status == 303)
        let (_, flagged) = try startSession(browser, count: "20", extra: [("pool", "flagged")])
        #expect(try questions(site, flagged) == [flaggedID])
        // A pool that is not one is refused.
        let (odd, _) = try startSession(browser, extra: [("pool", "everything")])
        #expect(odd.status == 400)
    }

    @Test("the dashboard's domain chart has a one-tap practice for each domain, weakest first")
    func practiseFromTheDashboard() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("dan")
        let (_, path) = try startSession(browser, count: "2", domains: ["alpha"])
        let form = try QuestionForm(try browser.request("GET", path))
        #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        let dashboard = try browser.request("GET", "/me")
        let page = dashboard.bodyText
        let beta = try #require(page.range(of: #"<button type="submit" name="domain" value="beta""#))
        let alpha = try #require(page.range(of: #"<button type="submit" name="domain" value="alpha""#))
        #expect(beta.lowerBound < alpha.lowerBound, "beta, never studied, is the weaker")
        let check = try HTMLChecker.passes([("dashboard", dashboard.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        let sent = try #require(PageForm.all(in: page, action: "/sessions").first { $0.fields.contains { $0.name == "domain" && $0.value == "beta" } })
        let started = try browser.request("POST", "/sessions", pairs: sent.filled([:]))
        #expect(started.status == 303)
        let domains = Set(try questions(site, redirectLocation(started)).compactMap { MiniExam.item($0)?.domain })
        #expect(domains == ["beta"])
    }
}
