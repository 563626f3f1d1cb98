import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A results page leads somewhere: the score first, then one-tap next steps; practice is not an
/// exam, and "the ones I missed" are the ones answered wrongly.
@Suite("Results that lead somewhere")
struct ResultsNextStepsTests {
    let tests = StudySessionTests()

    @Test("a practice stopped part-way says what was answered and right (no pass or fail); 'Practise the N you missed' starts exactly those; unanswered ones are counted apart")
    func practiseTheMissed() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("noa")
        let (_, path) = try tests.start(browser, count: "5")
        // Two right, one wrong, two never answered.
        var wrong: UUID?
        for answer in ["right", "wrong", "right"] {
            let form = try StudySessionTests.AnswerForm(try browser.request("GET", path))
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
        let newID = try #require(UUID(uuidString: String(tests.location(again).dropFirst("/sessions/".count))))
        let ids = try site.admin { try $0.query("SELECT unnest(question_ids) AS id FROM study_sessions WHERE id = \(newID)").rows.map { try $0.decode("id", as: UUID.self) } }
        #expect(ids == [try #require(wrong)])
        // Another student's session is not theirs to practise from.
        let other = site.browser()
        try other.register("zed")
        let token = other.csrfToken(from: try other.request("GET", StudySessionTests.examPath))
        let refused = try other.request("POST", "/sessions", form: [
            "csrf_token": token, "region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice", "missed_of": session.uuidString.lowercased()])
        #expect(refused.status == 404)
    }

    @Test("every domain row of the exam page is a one-tap practice of that domain (the row's button sends the page's one form with its domain)")
    func practiseADomain() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("dora")
        let page = try browser.request("GET", StudySessionTests.examPath)
        #expect(page.bodyText.contains(#"<button type="submit" form="practise-domain" name="domain" value="beta" aria-label="Practise Beta things">Practise</button>"#))
        let check = try HTMLChecker.passes([("exam page", page.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // What the button sends: the form's fields and its own domain.
        let sent = try browser.request("POST", "/sessions", form: [
            "csrf_token": browser.csrfToken(from: page), "region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice", "count": "20", "domain": "beta"])
        #expect(sent.status == 303)
        let id = try #require(UUID(uuidString: String(tests.location(sent).dropFirst("/sessions/".count))))
        let domains = try site.admin {
            try $0.query("SELECT DISTINCT d.slug FROM study_sessions s, unnest(s.question_ids) q(id) JOIN questions x ON x.id = q.id JOIN domains d ON d.id = x.domain_id WHERE s.id = \(id)")
                .rows.map { try $0.decode("slug", as: String.self) }
        }
        #expect(domains == ["beta"])
    }
}
