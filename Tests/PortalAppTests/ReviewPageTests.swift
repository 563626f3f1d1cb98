import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import TestSupport
import Testing

/// The review page (`/me/review`): everything due across a student's exams, a way to review it,
/// and the next 30 days drawn as a chart with the numbers beside it.
@Suite("Review page", .onTestThreads)
struct ReviewPageTests {
    typealias Site = PortalSite

    /// The number in `text` after `prefix` (up to the next non-digit).
    static func number(after prefix: String, in text: String) -> Int? {
        guard let range = text.range(of: prefix) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("a student sees what is due today across their exams with a button that reviews it, and the next 30 days as a chart and a table that agree with their cards; another student sees only their own")
    func dueAcrossExams() throws {
        let site = try Site()
        let student = site.browser(), other = site.browser()
        _ = try student.register("ada")
        _ = try other.register("grace")

        // Nothing studied yet: the page says what it is for and where to start, and the bar
        // marks where the reader is.
        let empty = try student.request("GET", "/me/review")
        #expect(empty.status == 200)
        #expect(empty.bodyText.contains("Nothing is due for review today."))
        #expect(empty.bodyText.contains("Questions you answer come back here"))
        #expect(empty.bodyText.contains(#"<a href="/me/review" aria-current="page">"#))
        #expect(!empty.bodyText.contains("<svg class=\"chart\""))
        #expect(try student.request("GET", "/me").bodyText.contains(#"<a href="/me" aria-current="page">"#))
        #expect(!(try student.request("GET", "/me").bodyText.contains(#"<a href="/me/review" aria-current="page">"#)))

        // Three questions studied; three days on, they are due.
        let (_, path) = try startSession(student, count: "3")
        while case let page = try student.request("GET", path), page.status == 200 {
            let form = try QuestionForm(page)
            try student.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        }
        site.clock.advance(3 * 86_400)
        let dueNow = try site.count("""
            SELECT count(*) AS n FROM review_cards c JOIN users u ON u.id = c.user_id
            WHERE u.username = 'ada' AND c.due < ((now() + (SELECT offset_seconds FROM server_clock) * interval '1 second') AT TIME ZONE u.time_zone)::date + 1
            """)
        #expect(dueNow > 0)
        let page = try student.request("GET", "/me/review")
        let body = page.bodyText
        #expect(body.contains("\(dueNow) question\(dueNow == 1 ? " is" : "s are") due for review today."), "\(body)")
        #expect(body.contains(#"<input type="hidden" name="mode" value="review">"#))
        #expect(body.contains(#"<input type="hidden" name="count" value="\#(dueNow)">"#))
        // The chart names itself and what it shows; the table holds a row per day whose
        // figures add up to every card due in the 30 days.
        #expect(body.contains(#"role="img" aria-labelledby="forecast-chart-title forecast-chart-desc""#))
        #expect(body.contains("<title id=\"forecast-chart-title\">Reviews due each day for the next 30 days</title>"))
        let rows = body.components(separatedBy: #"<td class="number" data-label="Reviews due">"#).dropFirst()
        #expect(rows.count == 30)
        let tableTotal = rows.compactMap { Int($0.prefix { $0.isNumber }) }.reduce(0, +)
        let inThirtyDays = try site.count("""
            SELECT count(*) AS n FROM review_cards c JOIN users u ON u.id = c.user_id
            WHERE u.username = 'ada' AND c.due < ((now() + (SELECT offset_seconds FROM server_clock) * interval '1 second') AT TIME ZONE u.time_zone)::date + 30
            """)
        #expect(tableTotal == inThirtyDays)
        #expect(Self.number(after: "<td class=\"number\" data-label=\"Reviews due\">", in: body) == dueNow, "the first row is today")
        // The dashboard draws the days studied (today among them) and each domain's predicted
        // score against the pass mark, each with its figures as a table.
        let dashboardPage = try student.request("GET", "/me")
        let dashboard = dashboardPage.bodyText
        #expect(dashboard.contains(#"<title id="activity-title">Days studied in the last 12 weeks</title>"#))
        #expect(dashboard.contains("You studied on 1 of the last "), "the first day of study, three days ago")
        #expect(dashboard.components(separatedBy: #"<rect class="studied"#).count - 1 == 1)
        #expect(dashboard.contains("Predicted score by domain</title>") && dashboard.contains("(the dashed line)"))
        #expect(dashboard.contains(#"<line class="pass-line""#))
        let check = try HTMLChecker.passes([("review page", page.body), ("empty review page", empty.body), ("dashboard", dashboardPage.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        // The page's own button starts a review of what is due.
        let started = try student.request("POST", "/sessions", form: [
            "csrf_token": student.csrfToken(from: page), "region": MiniExam.region, "exam": MiniExam.exam, "mode": "review",
            "count": String(dueNow),
        ])
        #expect(started.status == 303)
        #expect(try site.count("SELECT cardinality(question_ids) AS n FROM study_sessions WHERE mode = 'review'") == dueNow)

        // Another student's page shows none of it (row-level security reads only their cards).
        let theirs = try other.request("GET", "/me/review").bodyText
        #expect(theirs.contains("Nothing is due for review today.") && theirs.contains("Questions you answer come back here"))
        // With an exam day within the 30 days, the chart names it and the page says how many
        // reviews come before it.
        let examDay = try site.admin {
            try $0.query("SELECT ((now() + (SELECT offset_seconds FROM server_clock) * interval '1 second')::date + 9)::text AS d").single().decode("d", as: String.self)
        }
        let dated = try student.request("POST", MiniExam.path + "/date", form: ["csrf_token": student.csrfToken(from: page), "sits_on": examDay])
        #expect(dated.status == 303)
        let planned = try student.request("GET", "/me/review").bodyText
        #expect(planned.contains(#"<p class="notice">"#) && planned.contains(" until then."), "\(planned)")
        #expect(planned.contains(#">Exam</text>"#))
        // A visitor is sent to sign in.
        let visitor = try site.browser().request("GET", "/me/review")
        #expect(visitor.status == 303 && visitor.header("Location")?.hasPrefix("/login") == true)
    }

    @Test("after a review nothing is due: the page says when the next reviews come")
    func nextReviews() throws {
        let site = try Site()
        let student = site.browser()
        _ = try student.register("ada")
        let (_, path) = try startSession(student, count: "2")
        while case let page = try student.request("GET", path), page.status == 200 {
            let form = try QuestionForm(page)
            try student.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        }
        // Past the end of today everything answered right is some days away.
        let pending = try site.count("""
            SELECT count(*) AS n FROM review_cards c JOIN users u ON u.id = c.user_id
            WHERE u.username = 'ada' AND c.due < ((now() + (SELECT offset_seconds FROM server_clock) * interval '1 second') AT TIME ZONE u.time_zone)::date + 1
            """)
        let body = try student.request("GET", "/me/review").bodyText
        if pending == 0 {
            #expect(body.contains("Nothing is due for review today."))
            #expect(body.contains("Next: "), "\(body)")
        } else {
            #expect(body.contains("due for review today."))
        }
        #expect(body.contains("<svg class=\"chart\""))
    }
}
