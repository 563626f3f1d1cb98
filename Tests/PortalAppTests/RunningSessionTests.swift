import ExamData
import Foundation
@testable import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A student leaves a session part-way and comes back to the exam: what is running is offered
/// again, and a second mock exam never starts silently over a running one.
@Suite("Running sessions, resumed", .onTestThreads)
struct RunningSessionTests {

    /// A signed-in student (the account, for the database's own checks, and their browser).
    func student(_ site: PortalSite, _ name: String) throws -> (TestAccount, Browser) {
        let account = try site.database.makeAccount(name, role: "student", displayName: name.capitalized, csrf: "csrf-" + name)
        let browser = site.browser()
        browser.cookies["portal_session"] = account.token
        return (account, browser)
    }

    /// Answers the session's current question with its right answer.
    func answer(_ browser: Browser, _ path: String) throws {
        let form = try QuestionForm(try browser.request("GET", path))
        #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key)).status == 303)
    }

    @Test("a mock exam left for the dashboard is resumed from the exam page; a second one asks first, and ending the first scores it as it stands and keeps it out of the questions' statistics")
    func mockResumed() throws {
        let site = try PortalSite()
        let (account, browser) = try student(site, "mia")
        let (started, path) = try startSession(browser, mode: "mock")
        #expect(started.status == 303 && path.hasPrefix("/sessions/"))
        try answer(browser, path)
        // Away to the dashboard, which offers it first, and back to the exam.
        let dashboard = try browser.request("GET", "/me").bodyText
        #expect(dashboard.contains("Your mock exam of Mini exam is running") && dashboard.contains(#"href="\#(path)">Resume</a>"#), "\(dashboard.prefix(3000))")
        let exam = try browser.request("GET", MiniExam.path).bodyText
        #expect(exam.contains("Your mock exam is running: 1 of"), "\(exam.prefix(3000))")
        #expect(exam.contains(#"<a class="button primary" href="\#(path)">Resume</a>"#))

        // "Mock exam" again: nothing starts; the page asks.
        let (asked, _) = try startSession(browser, mode: "mock")
        #expect(asked.status == 409 && asked.bodyText.contains("Your mock exam is still running"))
        #expect(asked.bodyText.contains(#"href="\#(path)">Resume it</a>"#))
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE mode = 'mock'") == 1)
        let check = try HTMLChecker.passes([("running mock", asked.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // The database refuses a second running mock even to a caller that skips the question.
        let running = try #require(UUID(uuidString: String(path.dropFirst("/sessions/".count))))
        #expect(throws: PostgresError.self) {
            try site.pool.asCaller(account) {
                try $0.execute("""
                    INSERT INTO study_sessions (user_id, exam_id, mode, question_ids, started_at)
                    SELECT user_id, exam_id, 'mock', question_ids, app_now() FROM study_sessions WHERE id = \(running)
                    """)
            }
        }

        // "End it now and start a new one": the same start, with the running attempt named.
        let csrf = browser.csrfToken(from: asked)
        var pairs: [(String, String)] = [("csrf_token", csrf)]
        for name in ["region", "exam", "mode", "count", "end_running"] { pairs.append((name, browser.hiddenValue(name, from: asked))) }
        pairs += [("domain", "alpha"), ("domain", "beta")]
        let restarted = try browser.request("POST", "/sessions", pairs: pairs)
        #expect(restarted.status == 303 && redirectLocation(restarted) != path)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE mode = 'mock' AND finished_at IS NULL") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(running) AND set_aside AND score_correct = 1 AND finished_at IS NOT NULL") == 1)
        // The new attempt, finished, is the one the statistics learn from; the set-aside one never is.
        let second = redirectLocation(restarted)
        let confirm = try browser.request("GET", second + "/finish")
        #expect(try browser.request("POST", second + "/finish", form: ["csrf_token": browser.csrfToken(from: confirm)]).status == 303)
        #expect(try site.admin { try $0.query("SELECT DISTINCT session_id FROM item_responses").rows.map { try $0.decode("session_id", as: UUID.self) } }
            == [try #require(UUID(uuidString: String(second.dropFirst("/sessions/".count))))])
        // Nothing running now: the exam page offers no resume.
        #expect(!(try browser.request("GET", MiniExam.path).bodyText.contains("Your mock exam is running")))
    }

    @Test("an unfinished practice is offered as 'Continue' with what is answered, and a new practice may still start beside it")
    func practiceContinued() throws {
        let site = try PortalSite()
        let (_, browser) = try student(site, "pia")
        let (_, path) = try startSession(browser, count: "5")
        try answer(browser, path)
        let exam = try browser.request("GET", MiniExam.path).bodyText
        #expect(exam.contains("1 of 5 answered") && exam.contains(#"href="\#(path)">Continue</a>"#), "\(exam.prefix(3000))")
        let (another, anotherPath) = try startSession(browser, count: "5")
        #expect(another.status == 303 && anotherPath != path)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE finished_at IS NULL") == 2)
    }

    @Test("a guest's running mock exam is theirs alone: a second start asks them too, and another guest starts freely")
    func guestMock() throws {
        let site = try PortalSite()
        let guest = site.browser()
        let (first, path) = try startSession(guest, mode: "mock")
        #expect(first.status == 303 && path.hasPrefix("/sessions/"))
        // The exam page offers it back to this guest (by their cookie), and to nobody else.
        let examPage = try guest.request("GET", MiniExam.path).bodyText
        #expect(examPage.contains(#"<a class="button primary" href="\#(path)">Resume</a>"#), "\(examPage.prefix(2000))")
        #expect(!(try site.browser().request("GET", MiniExam.path).bodyText.contains("Resume")))
        let (again, _) = try startSession(guest, mode: "mock")
        #expect(again.status == 303 && redirectLocation(again) == path, "the same start sent again, nothing answered yet, leads to that attempt")
        // Later (the mini exam's minute not yet up), "Mock exam" again asks first.
        site.clock.advance(SessionStart.sameStartSeconds + 5)
        let (asked, _) = try startSession(guest, mode: "mock")
        #expect(asked.status == 409 && asked.bodyText.contains(#"href="\#(path)">Resume it</a>"#), "\(asked.status) \(redirectLocation(asked)) \(path)")
        let (other, _) = try startSession(site.browser(), mode: "mock")
        #expect(other.status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE mode = 'mock'") == 2)
    }
}
