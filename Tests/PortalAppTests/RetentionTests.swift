import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import TestSupport
import Testing

/// The retention a student's reviews aim at, chosen on the settings page.
@Suite("The review schedule a student chooses")
struct RetentionTests {
    @Test("the settings offer each retention with the reviews it would ask for; a choice is saved and reschedules, a made-up one is refused")
    func chooseRetention() throws {
        let site = try StudySessionTests.Site()
        let browser = site.browser()
        try browser.register("ada")
        let (_, path) = try StudySessionTests().start(browser)
        for _ in 0..<3 {
            let form = try StudySessionTests.AnswerForm(try browser.request("GET", path))
            try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        }
        let page = try browser.request("GET", "/me/settings")
        #expect(page.bodyText.contains(#"<option value="0.90" selected>90% — about"#))
        #expect(page.bodyText.contains(#"<option value="0.97">97% — about"#))
        let check = try HTMLChecker.passes([("settings", page.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        let token = browser.csrfToken(from: page)
        for bad in ["0.5", "0.91", "lots", "", "0.97; DROP TABLE users"] {
            let refused = try browser.request("POST", "/me/retention", form: ["csrf_token": token, "desired_retention": bad])
            #expect(refused.status == 422, "\(bad) got \(refused.status)")
            #expect(refused.bodyText.contains("Choose one of the retentions offered, from 70% to 97%."))
        }
        #expect(try site.count("SELECT (desired_retention * 100)::int AS n FROM users WHERE username = 'ada'") == 90)
        let saved = try browser.request("POST", "/me/retention", form: ["csrf_token": token, "desired_retention": "0.95"])
        #expect(saved.header("Location") == "/me/settings?saved=1#schedule")
        #expect(try site.count("SELECT (desired_retention * 100)::int AS n FROM users WHERE username = 'ada'") == 95)
        #expect(try browser.request("GET", "/me/settings").bodyText.contains(#"<option value="0.95" selected>"#))
        // The cards stay what the history and the new choice make them.
        #expect(try ReviewCardStore().rebuildAll(try site.database.adminConnection()).differing == 0)
    }

    @Test("the dashboard says, per exam, how much of the spaced reviews the student remembered beside what they aim at")
    func measuredRetention() throws {
        let site = try StudySessionTests.Site()
        let browser = site.browser()
        try browser.register("ada")
        #expect(!(try browser.request("GET", "/me").bodyText.contains("spaced review")))
        // Every question once, today; two days later, two of them again: one remembered, one not.
        let (_, first) = try StudySessionTests().start(browser)
        // Once every question is answered, the session's address leads to its end.
        while case let page = try browser.request("GET", first), page.status == 200 {
            let form = try StudySessionTests.AnswerForm(page)
            try browser.request("POST", first + "/answers", pairs: form.pairs(form.item.key))
        }
        site.clock.advance(2 * 86_400)
        let (_, again) = try StudySessionTests().start(browser)
        for right in [true, false] {
            let form = try StudySessionTests.AnswerForm(try browser.request("GET", again))
            try browser.request("POST", again + "/answers", pairs: form.pairs(right ? form.item.key : form.item.wrong))
        }
        let dashboard = try browser.request("GET", "/me").bodyText
        #expect(dashboard.contains("You remembered 50% of 2 spaced reviews in the last 30 days; your schedule aims at 90%."), "\(dashboard)")
    }
}
