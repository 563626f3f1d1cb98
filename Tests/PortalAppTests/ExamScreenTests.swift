import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import TestSupport
import Testing

/// The mock exam's screen as a test centre's: a review screen of all, unanswered and flagged
/// questions with a jump to each, and options struck out without JavaScript.
@Suite("The exam screen", .onTestThreads)
struct ExamScreenTests {
    /// The review screen's rows: each question's number and address, in order.
    static func rows(_ page: String) -> [String] {
        page.matches(of: /<li value="(\d+)"><a href="([^"]+)">/).map { String($0.output.2) }
    }

    @Test("the review screen lists every question with whether it is answered and flagged, or only the unanswered or flagged ones, each a jump to the question; an unknown list is all of them")
    func reviewScreen() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("rena")
        let (_, path) = try startSession(browser, mode: "mock")
        let first = try QuestionForm(try browser.request("GET", path))
        #expect(try browser.request("POST", path + "/answers", pairs: first.pairs(first.item.key)).status == 303)
        let second = try QuestionForm(try browser.request("GET", "\(path)?q=2"))
        #expect(try browser.request("POST", path + "/flags", form: ["csrf_token": second.token, "question": second.item.id.uuidString, "flagged": "1"]).status == 303)

        let all = try browser.request("GET", path + "/finish")
        #expect(all.status == 200)
        let page = all.bodyText
        #expect(page.contains(#"<a href="\#(path)/finish" aria-current="page">All (4)</a>"#))
        #expect(page.contains(#"<a href="\#(path)/finish?show=unanswered">Unanswered (3)</a>"#))
        #expect(page.contains(#"<a href="\#(path)/finish?show=flagged">Flagged (1)</a>"#))
        #expect(Self.rows(page) == (1...4).map { "\(path)?q=\($0)" })
        #expect(page.components(separatedBy: #"<span class="review-state answered">Answered</span>"#).count == 2)
        #expect(page.components(separatedBy: #"<span class="review-state">Not answered</span>"#).count == 4)
        #expect(page.contains(Self.excerptOf(first.item)), "each row shows the start of its question")

        let flagged = try browser.request("GET", path + "/finish?show=flagged").bodyText
        #expect(Self.rows(flagged) == ["\(path)?q=2"])
        #expect(flagged.contains(#"aria-current="page">Flagged (1)</a>"#) && flagged.contains(#"<span class="review-flag">Flagged</span>"#))
        let unanswered = try browser.request("GET", path + "/finish?show=unanswered").bodyText
        #expect(Self.rows(unanswered) == (2...4).map { "\(path)?q=\($0)" })
        #expect(Self.rows(try browser.request("GET", path + "/finish?show=sideways").bodyText).count == 4)
        // Nothing flagged any more: the list says how to fill it.
        #expect(try browser.request("POST", path + "/flags", form: ["csrf_token": second.token, "question": second.item.id.uuidString, "flagged": "0"]).status == 303)
        #expect(try browser.request("GET", path + "/finish?show=flagged").bodyText.contains("No question is flagged."))

        let check = try HTMLChecker.passes([("review all", all.body), ("review flagged", Array(flagged.utf8))])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    static func excerptOf(_ item: MiniExam.Item) -> String { "Question \(item.id.uuidString.suffix(2))?" }

    @Test("a mock exam's options are struck out and put back without JavaScript, the choice made kept and saved, the strike kept when the student comes back, no effect on the score; a strike of no option is refused; practice and results offer none")
    func strikeOut() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("sami")
        let (_, path) = try startSession(browser, mode: "mock")
        // The first choice question of the exam.
        var number = 1, form = try QuestionForm(try browser.request("GET", path))
        while !["single-choice", "multi-choice"].contains(form.item.kind) {
            number += 1
            form = try QuestionForm(try browser.request("GET", "\(path)?q=\(number)"))
        }
        let here = "\(path)?q=\(number)"
        let page = try browser.request("GET", here).bodyText
        #expect(page.contains(#"<button type="submit" name="strike" value="1" class="strike" aria-pressed="false" aria-label="Strike out option 2">Strike out</button>"#))
        let defaultButton = try #require(page.range(of: #"class="visually-hidden" tabindex="-1" aria-hidden="true">Save answer and go on</button>"#), "\(page)")
        let strikeButton = try #require(page.range(of: #"name="strike""#))
        #expect(defaultButton.lowerBound < strikeButton.lowerBound, "Enter saves the answer, not a strike")

        // Struck with nothing chosen: only the strike, and the student stays.
        let wrong = (0..<form.item.options.count).first { !form.item.key.contains($0) } ?? 1
        let struck = try browser.request("POST", path + "/answers", pairs: form.pairs([]) + [("strike", String(wrong))])
        #expect(redirectLocation(struck) == here)
        let shown = try browser.request("GET", here).bodyText
        #expect(shown.contains(#"aria-pressed="true" aria-label="Put option \#(wrong + 1) back">Put back</button>"#))
        #expect(shown.contains("(struck out)"))
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 0)
        // Struck with the right answer chosen: the answer is saved too, and the strike kept.
        let other = (wrong + 1) % form.item.options.count
        let again = try QuestionForm(try browser.request("GET", here))
        #expect(redirectLocation(try browser.request("POST", path + "/answers", pairs: again.pairs(form.item.key) + [("strike", String(other))])) == here)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 1)
        let stored = try site.admin { try $0.query("SELECT struck::text AS s FROM study_sessions").single().decode("s", as: String.self) }
        #expect(stored == #"{"\#(form.item.id.uuidString.lowercased())": [\#([wrong, other].sorted().map(String.init).joined(separator: ", "))]}"#, "\(stored)")
        // Put back.
        let third = try QuestionForm(try browser.request("GET", here))
        _ = try browser.request("POST", path + "/answers", pairs: third.pairs([]) + [("strike", String(wrong))])
        #expect(!(try browser.request("GET", here).bodyText.contains(#"aria-label="Put option \#(wrong + 1) back""#)))
        // Refused: an option the question does not have, and one that is no number.
        let fourth = try QuestionForm(try browser.request("GET", here))
        #expect(try browser.request("POST", path + "/answers", pairs: fourth.pairs([]) + [("strike", "99")]).status == 400)
        #expect(try browser.request("POST", path + "/answers", pairs: fourth.pairs([]) + [("strike", "two")]).status == 400)

        // The strikes change no mark: the one right answer is the score.
        let token = browser.csrfToken(from: try browser.request("GET", path + "/finish"))
        try browser.request("POST", path + "/finish", form: ["csrf_token": token])
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE score_correct = 1") == 1)
        #expect(!(try browser.request("GET", path + "/results").bodyText.contains(#"name="strike""#)))
        let (_, practice) = try startSession(browser, mode: "practice")
        #expect(!(try browser.request("GET", practice).bodyText.contains(#"name="strike""#)), "practice offers no strike-out")
        let check = try HTMLChecker.passes([("struck", Array(shown.utf8))])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }
}
