import ExamData
import Foundation
import Interop
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// Matching, fill-in and hotspot questions answered through the pages a student uses, without
/// JavaScript: the forms each kind gets, the answers the server checks, what bad input gets.
@Suite("Matching, fill-in and hotspot questions over HTTP", .onTestThreads)
struct QuestionKindsTests {

    /// Starts a session of the three questions.
    func start(_ browser: Browser, mode: String) throws -> String {
        let token = browser.csrfToken(from: try browser.request("GET", "/exams/\(QuestionKindsExam.region)/\(QuestionKindsExam.exam)"))
        let response = try browser.request("POST", "/sessions", pairs: [
            ("csrf_token", token), ("region", QuestionKindsExam.region), ("exam", QuestionKindsExam.exam), ("mode", mode), ("count", "3"), ("domain", "mixed"),
        ])
        #expect(response.status == 303)
        return response.header("Location")?.replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: "") ?? ""
    }

    /// The hidden fields every answer carries.
    func fields(_ page: RawHTTPClient.Response) throws -> [(String, String)] {
        let html = page.bodyText
        func field(_ name: String) throws -> String {
            let range = try #require(html.range(of: "name=\"\(name)\" value=\""), "the page has no \(name) field")
            return String(html[range.upperBound...].prefix { $0 != "\"" })
        }
        return try ["csrf_token", "answer_id", "question", "shown_at"].map { ($0, try field($0)) }
    }

    @Test("a practice session over the three kinds: each form answered without JavaScript, checked by the server, reviewed; bad input refused with the reason")
    func practice() throws {
        let site = try PortalSite()
        try QuestionKindsExam.install(site)
        let browser = site.browser()
        try browser.register("kim")
        let path = try start(browser, mode: "practice")
        var pages: [(name: String, body: [UInt8])] = []
        for number in 1...3 {
            let page = try browser.request("GET", path + "?q=\(number)")
            #expect(page.status == 200)
            let html = page.bodyText
            let base = try fields(page)
            if html.contains(QuestionKindsExam.matchingStem) {
                // A select per prompt, the targets numbered from 1; one left out is sent back with the others kept.
                #expect(html.contains("<select id=\"target-0\" name=\"target_0\"><option value=\"\">Choose…</option><option value=\"1\">443</option>"))
                let partial = try browser.request("POST", path + "/answers", pairs: base + [("target_0", "2"), ("target_1", "4")])
                #expect(partial.status == 303)
                let refused = try browser.request("GET", try #require(partial.header("Location")).replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: ""))
                #expect(refused.bodyText.contains("Choose an answer for each of the 3 items."))
                #expect(refused.bodyText.contains("<option value=\"2\" selected>22</option>"), "the choices made come back")
                #expect(try site.count("SELECT count(*) AS n FROM answers") == number - 1)
                let answered = try browser.request("POST", path + "/answers", pairs: base + [("target_0", "2"), ("target_1", "4"), ("target_2", "3")])
                #expect(answered.status == 303)
                let review = try browser.request("GET", path + "?q=\(number)").bodyText
                #expect(review.contains("<h2 id=\"verdict\">Not quite</h2>") && review.contains("67%"), "two of three pairs right")
                #expect(review.contains("<span class=\"option-text\">HTTPS</span> → <span class=\"given\">25</span> <span class=\"tag\">your answer</span> · correct answer: <strong>443</strong>"))
                pages.append(("matching reviewed", Array(review.utf8)))
            } else if html.contains(QuestionKindsExam.fillInStem) {
                #expect(html.contains("<input type=\"text\" id=\"typed-answer\" name=\"answer\" value=\"\""))
                let blank = try browser.request("POST", path + "/answers", pairs: base + [("answer", " \u{3000} ")])
                let refused = try browser.request("GET", try #require(blank.header("Location")).replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: ""))
                #expect(refused.bodyText.contains("Type an answer before sending it."))
                let long = try browser.request("POST", path + "/answers", pairs: base + [("answer", String(repeating: "9", count: 201))])
                #expect(long.status == 422 && long.bodyText.contains("That answer is too long: no answer here is longer than 200 characters."))
                #expect(long.bodyText.contains("value=\"\(String(repeating: "9", count: 201))\""), "the typed answer is put back to be shortened")
                // Full-width digits are the same number: within the tolerance of 1801.
                let answered = try browser.request("POST", path + "/answers", pairs: base + [("answer", "１８０２")])
                #expect(answered.status == 303)
                let review = try browser.request("GET", path + "?q=\(number)").bodyText
                #expect(review.contains("<h2 id=\"verdict\">Right</h2>"))
                #expect(review.contains("<dt>Your answer</dt><dd>１８０２</dd>") && review.contains("<dt>Accepted answers</dt><dd><ul><li>1801</li></ul></dd>"))
                pages.append(("fill-in reviewed", Array(review.utf8)))
            } else {
                #expect(html.contains(QuestionKindsExam.hotspotStem))
                // Without a pointer the regions are a list; the click's point travels as the form's fields.
                #expect(html.contains("<img src=\"/images/diagrams/network-a.svg\" alt=\"The picture for this question; its parts are listed with it.\" class=\"hotspot-image\">"))
                // The parts are named by the picture (Device A–E): no number badge beside them.
                #expect(html.contains("<input type=\"radio\" name=\"choice\" value=\"1\" data-key=\"2\"> <span class=\"option-text\">Device B</span>"))
                #expect(!html.contains("class=\"option-key\""))
                pages.append(("hotspot form", Array(html.utf8)))
                // A tap outside every part is asked again, not scored: the question comes back saying so.
                let slip = try browser.request("POST", path + "/answers", pairs: base + [("point_x", "10"), ("point_y", "10")])
                #expect(slip.status == 303 && (slip.header("Location") ?? "").contains("refused=outside"))
                let askedAgain = try browser.request("GET", slip.header("Location") ?? "").bodyText
                #expect(askedAgain.contains("That tap was outside every part of the picture. Tap on one of its parts, or choose it from the list."))
                #expect(askedAgain.contains("id=\"answer-form\""))
                #expect(try site.count("SELECT count(*) AS n FROM answers a JOIN questions q ON q.id = a.question_id WHERE q.type = 'hotspot'") == 0)
                let answered = try browser.request("POST", path + "/answers", pairs: base + [("point_x", "120.5"), ("point_y", "95"), ("choice", "1")])
                #expect(answered.status == 303)
                let review = try browser.request("GET", path + "?q=\(number)").bodyText
                #expect(review.contains("<h2 id=\"verdict\">Right</h2>"), "the point falls in the router's circle; the point decides, not the list")
                #expect(review.contains("<li class=\"key chosen\"><span class=\"option-text\">Device A</span>"))
                // The feedback's picture carries the right part and the tap, for the page script to draw.
                #expect(review.contains(#"<div class="hotspot hotspot-review" data-regions="[{&quot;"#) && review.contains(#" data-key="[0]" data-tap="120.5 95.0"><img"#))
            }
        }
        let stored = try site.admin { try $0.query("SELECT q.type, a.response::text AS response, a.correct, a.score FROM answers a JOIN questions q ON q.id = a.question_id ORDER BY q.type").rows }
        #expect(try stored.map { try $0.decode("response", as: String.self) } == [#"{"text": "１８０２"}"#, #"{"point": [120.5, 95]}"#, #"{"pairs": [1, 3, 2]}"#])
        #expect(try stored.map { try $0.decode("correct", as: Bool.self) } == [true, true, false])
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("a mock exam over the three kinds: answers saved as given, scored at the end with partial credit, reviewed per kind on the results")
    func mock() throws {
        let site = try PortalSite()
        try QuestionKindsExam.install(site)
        let browser = site.browser()
        try browser.register("lee")
        let path = try start(browser, mode: "mock")
        for number in 1...3 {
            let page = try browser.request("GET", path + "?q=\(number)")
            let html = page.bodyText, base = try fields(page)
            let answer: [(String, String)] = html.contains(QuestionKindsExam.matchingStem) ? [("target_0", "2"), ("target_1", "4"), ("target_2", "1")]
                : html.contains(QuestionKindsExam.fillInStem) ? [("answer", "1795")] : [("choice", "1")]
            #expect(try browser.request("POST", path + "/answers", pairs: base + answer).status == 303)
        }
        let confirm = try browser.request("GET", path + "/finish")
        #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": browser.csrfToken(from: confirm)]).status == 303)
        let results = try browser.request("GET", path + "/results")
        let html = results.bodyText
        #expect(html.contains("<dd>1 of 3</dd>"), "the matching right; the year outside the tolerance (partly right); the wrong device")
        #expect(html.contains("<li class=\"key\"><span class=\"option-text\">SSH</span> → <span class=\"given\">22</span> <strong class=\"tag\">right</strong></li>"))
        #expect(html.contains("<dt>Your answer</dt><dd>1795</dd>"))
        // Within ten years of 1790: partly right, half the marks, and the review says which answers were worth part.
        #expect(html.contains("Partly right (50% of it)"), "\(html)")
        #expect(html.contains("<dt>Partly right answers</dt><dd><ul><li>1790 (50%)</li></ul></dd>"))
        #expect(html.contains("<li class=\" chosen\"><span class=\"option-text\">Device B</span>") || html.contains("<li class=\"chosen\"><span class=\"option-text\">Device B</span>"))
        let check = try HTMLChecker.passes([("results of three kinds", results.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("the answer form of another kind, or a point that is no number, is refused without a 500 and stores nothing")
    func wrongShapes() throws {
        let site = try PortalSite()
        try QuestionKindsExam.install(site)
        let browser = site.browser()
        try browser.register("ray")
        let path = try start(browser, mode: "practice")
        for number in 1...3 {
            let page = try browser.request("GET", path + "?q=\(number)")
            let html = page.bodyText, base = try fields(page)
            if html.contains(QuestionKindsExam.hotspotStem) {
                // A point that is not a number is no point: the list's choice (none here) counts.
                let bad = try browser.request("POST", path + "/answers", pairs: base + [("point_x", "left"), ("point_y", "9")])
                #expect(bad.status == 303 && (bad.header("Location") ?? "").contains("refused=empty"))
            } else if html.contains(QuestionKindsExam.fillInStem) {
                let chosen = try browser.request("POST", path + "/answers", pairs: base + [("choice", "0")])
                #expect(chosen.status == 303 && (chosen.header("Location") ?? "").contains("refused=empty"), "a choice is no typed answer")
            } else {
                let typed = try browser.request("POST", path + "/answers", pairs: base + [("answer", "22")])
                #expect(typed.status == 303 && (typed.header("Location") ?? "").contains("refused=unmatched"))
                let outside = try browser.request("POST", path + "/answers", pairs: base + [("target_0", "9"), ("target_1", "1"), ("target_2", "1")])
                #expect(outside.status == 303 && (outside.header("Location") ?? "").contains("refused=unmatched"), "a target that is not there is none")
            }
        }
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 0)
    }
}
