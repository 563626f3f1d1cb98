import Foundation
import PortalTestSupport
import TestSupport
import Testing

/// "Previous" and "Next" on a question that can still be answered send the form: what is
/// chosen is answered first, never lost; with nothing chosen they only move.
@Suite("Moving on from a question keeps what was chosen", .onTestThreads)
struct MovingOnTests {

    @Test("practice: Next with a choice checks it and shows its feedback; Next with nothing chosen only moves on")
    func practice() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("mover")
        let (_, path) = try startSession(browser, count: "3")
        let first = try browser.request("GET", path + "?q=1")
        #expect(first.bodyText.contains(#"<button type="submit" form="answer-form" name="then" value="2" class="button" id="next-link">Next →</button>"#))
        #expect(!first.bodyText.contains(#"rel="next""#), "no link that would leave the choice behind")
        let form = try QuestionForm(first)
        let checked = try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key) + [("then", "2")])
        #expect(redirectLocation(checked) == path + "?q=1", "the answer is checked and its feedback shown")
        let feedback = try browser.request("GET", path + "?q=1").bodyText
        #expect(feedback.contains("<h2 id=\"verdict\">Right</h2>") && feedback.contains(#"rel="next""#), "once answered, Next is a link again")
        let second = try QuestionForm(try browser.request("GET", path + "?q=2"))
        let skipped = try browser.request("POST", path + "/answers", pairs: second.pairs([]) + [("then", "3")])
        #expect(second.item.kind == "ordering" || redirectLocation(skipped) == path + "?q=3", "nothing chosen: on to the next question")
        let stored = try site.admin { try $0.query("SELECT count(*)::int AS n FROM answers").single().decode("n", as: Int.self) }
        #expect(stored == 1 || second.item.kind == "ordering")
    }

    @Test("a mock exam: Next saves the choice and moves on; coming back shows it chosen; moving again without a change saves nothing new")
    func mock() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("examinee")
        let (_, path) = try startSession(browser, mode: "mock")
        let form = try QuestionForm(try browser.request("GET", path + "?q=1"))
        let pick = form.item.kind == "ordering" ? form.item.wrong : form.item.wrong
        let moved = try browser.request("POST", path + "/answers", pairs: form.pairs(pick) + [("then", "2")])
        #expect(redirectLocation(moved) == path + "?q=2")
        let second = try browser.request("GET", path + "?q=2")
        #expect(second.bodyText.contains(#"name="then" value="1" class="link">← Previous</button>"#))
        let back = try QuestionForm(second)
        let returned = try browser.request("POST", path + "/answers", pairs: back.pairs([]) + [("then", "1")])
        #expect(redirectLocation(returned) == path + "?q=1" || back.item.kind == "ordering")
        let again = try browser.request("GET", path + "?q=1")
        if form.item.kind != "ordering" {
            #expect(again.bodyText.contains("value=\"\(pick[0])\" data-key=\"\(pick[0] + 1)\" checked"), "the choice saved by Next is shown chosen")
        }
        let repeated = try QuestionForm(again)
        _ = try browser.request("POST", path + "/answers", pairs: repeated.pairs(pick) + [("then", "2")])
        let rows = try site.admin { try $0.query("SELECT count(*)::int AS n FROM answers WHERE question_id = \(form.item.id)").single().decode("n", as: Int.self) }
        #expect(rows == 1, "the same answer sent again by moving on is not stored twice")
    }

    @Test("an exam page leads with its ways to start: one press practises 20 questions over every domain, or starts the mock exam")
    func quickStart() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("quick")
        let page = try browser.request("GET", MiniExam.path).bodyText
        let start = try #require(page.range(of: "<form class=\"quick-start\""))
        let table = try #require(page.range(of: "<table>"))
        #expect(start.lowerBound < table.lowerBound, "the ways to start come before the statistics")
        #expect(page.contains(#"<button type="submit" name="mode" value="practice" class="primary">Practise 20 questions</button>"#))
        #expect(page.contains(#"<button type="submit" name="mode" value="review">Review what is due</button>"#))
        #expect(page.contains("<summary>Choose the domains, difficulty and number of questions</summary>"))
        #expect(page.contains(#"<input type="hidden" name="domain" value="alpha">"#) && page.contains(#"<input type="hidden" name="domain" value="beta">"#))
        let token = browser.csrfToken(from: try browser.request("GET", MiniExam.path))
        let practice = try browser.request("POST", "/sessions", pairs: [
            ("csrf_token", token), ("region", MiniExam.region), ("exam", MiniExam.exam), ("domain", "alpha"), ("domain", "beta"), ("mode", "practice"),
        ])
        #expect(practice.status == 303)
        let first = try browser.request("GET", redirectLocation(practice).replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: ""))
        #expect(first.bodyText.contains("Question 1 of 7"), "every question of both domains, up to 20")
    }
}
