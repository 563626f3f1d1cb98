import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Study sessions through the pages a student uses, over real sockets, against the mini exam
/// (known answers) and a clock the tests move.
@Suite("Study sessions over HTTP", .onTestThreads)
struct StudySessionTests {
    @Test("a session address that is no UUID is not found, whoever asks and however it is written")
    func malformedSessionAddress() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("sam")
        for path in ["/sessions/42", "/sessions/%27%20OR%201=1--", "/sessions/not-a-session/results", "/sessions/1/answers"] {
            let method = path.hasSuffix("/answers") ? "POST" : "GET"
            let response = try browser.request(method, path, form: method == "POST" ? ["csrf_token": "x"] : nil)
            #expect(response.status == 404, "\(method) \(path) answered \(response.status)")
            #expect(response.bodyText.contains("There is nothing at this address."))
        }
    }

    @Test("a whole practice session: each answer is marked with its explanation, and the results add up")
    func practiceSession() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("sam")
        let (started, path) = try startSession(browser)
        #expect(started.status == 303)
        #expect(path.hasPrefix("/sessions/"))
        for number in 1...7 {
            let page = try browser.request("GET", path)
            #expect(page.status == 200)
            #expect(page.bodyText.contains("Question \(number) of 7"))
            let form = try QuestionForm(page)
            let right = number % 2 == 1
            let answered = try browser.request("POST", path + "/answers", pairs: form.pairs(right ? form.item.key : form.item.wrong))
            #expect(answered.status == 303)
            #expect(redirectLocation(answered) == "\(path)?q=\(number)")
            let feedback = try browser.request("GET", redirectLocation(answered)).bodyText
            #expect(feedback.contains(right ? "<h2 id=\"verdict\">Right</h2>" : "<h2 id=\"verdict\">Not quite</h2>"))
            #expect(feedback.contains("Because of the key."))
            #expect(!feedback.contains("id=\"answer-form\""), "an answered practice question takes no second answer")
            if form.item.kind != "ordering" { #expect(feedback.contains("is not the answer.")) }
            if form.item.kind == "ordering" {
                // The student's own order beside the right one.
                let given = (right ? form.item.key : form.item.wrong).map { "<li>\(form.item.options[$0])</li>" }.joined()
                #expect(feedback.contains("<h3>Your order</h3><ol lang=\"en\">\(given)</ol>"))
            }
        }
        #expect(redirectLocation(try browser.request("GET", path)) == path + "/finish")
        let confirm = try browser.request("GET", path + "/finish")
        #expect(confirm.bodyText.contains("Every question is answered."))
        let finished = try browser.request("POST", path + "/finish", form: ["csrf_token": browser.csrfToken(from: confirm)])
        #expect(redirectLocation(finished) == path + "/results")
        let results = try browser.request("GET", path + "/results").bodyText
        #expect(results.contains("<p class=\"big-score\">57%</p>"))
        // Practice is not an exam: what was answered and right, no pass or fail.
        #expect(results.contains("7 of 7 answered · 4 right") && !results.contains("Not passed yet") && !results.contains("pass mark 60%"))
        #expect(results.contains("<dd>4 of 7</dd>"))
        #expect(results.contains("Alpha things") && results.contains("Beta things"))
        #expect(results.contains("The correct order"))
        // The review goes by domain: a domain with a question missed is open, its missed questions
        // come first and those answered right are folded under them; the groups hold all seven.
        let groups = results.components(separatedBy: "<details class=\"result-group\"").dropFirst()
        #expect(groups.count == 2)
        #expect(groups.map { $0.components(separatedBy: "class=\"review-item ").count - 1 }.reduce(0, +) == 7)
        for group in groups where group.contains("review-item wrong") {
            #expect(group.hasPrefix(" open>"))
            let firstRight = group.range(of: "review-item right")?.lowerBound ?? group.endIndex
            #expect(group.range(of: "review-item wrong")!.lowerBound < firstRight)
            #expect(!group.contains("review-item right") || group.contains("<details class=\"right-answers\">"))
        }
        // A long review can be cut down to what was missed, and back; the numbers stay the session's.
        #expect(results.contains("href=\"\(path)/results?show=missed#review-heading\">Show only the 3 questions I got wrong</a>"))
        let missed = try browser.request("GET", path + "/results?show=missed").bodyText
        #expect(missed.components(separatedBy: "class=\"review-item wrong\"").count == 4)
        #expect(!missed.contains("class=\"review-item right\""))
        #expect(["2", "4", "6"].allSatisfy { missed.contains("id=\"q\($0)\" value=\"\($0)\"") })
        #expect(missed.contains("Show all 7 questions"))
        #expect(missed.contains("<p class=\"big-score\">57%</p>"), "the score is the whole session's")
        // Stored: seven answers rated by correctness, seven cards, the score on the session.
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE user_id IS NOT NULL AND rating = CASE WHEN correct THEN 3 ELSE 1 END") == 7)
        #expect(try site.count("SELECT count(*) AS n FROM review_cards") == 7)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE score_percent = 57.14 AND NOT passed AND score_correct = 4") == 1)
        // The results page is the session's end: the question pages now lead there.
        #expect(redirectLocation(try browser.request("GET", path)) == path + "/results")
    }

    @Test("a partly right answer is shown as such but scores nothing, and the results page says so")
    func partlyRightScoresNothing() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("petra")
        let (_, path) = try startSession(browser, count: "4", domains: ["alpha"])
        for _ in 1...4 {
            let form = try QuestionForm(try browser.request("GET", path))
            // Two of the three right choices and no wrong one for the multi-choice question;
            // a plain wrong answer for the rest.
            let response = form.item.kind == "multi-choice" ? Array(form.item.key.prefix(2)) : form.item.wrong
            let feedback = try browser.request("GET", redirectLocation(try browser.request("POST", path + "/answers", pairs: form.pairs(response)))).bodyText
            if form.item.kind == "multi-choice" {
                #expect(feedback.contains("Partly right ("), "the feedback shows how much was right")
                #expect(feedback.contains("scores only when the whole answer is right"))
            }
        }
        let confirm = try browser.request("GET", path + "/finish")
        try browser.request("POST", path + "/finish", form: ["csrf_token": browser.csrfToken(from: confirm)])
        let results = try browser.request("GET", path + "/results").bodyText
        #expect(results.contains("<p class=\"big-score\">0%</p>"))
        #expect(results.contains("<dd>0 of 4</dd>"))
        #expect(results.contains("a partly right answer scores nothing"), "the rule is stated where the score is")
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE score_correct = 0 AND score_percent = 0") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE NOT correct AND score > 0 AND score < 1") == 1,
                "the stored answer keeps its part mark for feedback and counts as not right (points and accuracy read `correct`)")
    }

    @Test("a mock exam shows nothing until the end, keeps flags, and ends on the server at its time limit")
    func mockExam() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("mika")
        let (started, path) = try startSession(browser, mode: "mock")
        #expect(started.status == 303)
        let first = try browser.request("GET", path)
        #expect(first.bodyText.contains("Question 1 of \(MiniExam.questionCount)"))
        #expect(first.bodyText.contains(#"data-seconds-left="60""#))
        #expect(first.bodyText.contains(/\(ends at \d\d:\d\d [A-Z]+\)/), "the deadline as a time of day, for a page without the live countdown")
        #expect(first.bodyText.contains("class=\"question-grid\""))
        let form = try QuestionForm(first)
        let saved = try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        #expect(redirectLocation(saved) == "\(path)?q=2")
        let again = try browser.request("GET", "\(path)?q=1").bodyText
        #expect(!again.contains("id=\"verdict\"") && !again.contains("Because of the key."), "a mock exam gives no feedback before the end")
        if form.item.kind != "ordering" { #expect(again.contains(#" checked>"#), "the saved answer is shown selected") }
        // Changing one's mind in a mock exam: the latest answer counts.
        site.clock.advance(5)
        let changed = try browser.request("POST", path + "/answers", pairs: QuestionForm(browser.request("GET", "\(path)?q=1")).pairs(form.item.wrong))
        #expect(changed.status == 303)
        // Flag question 2.
        let second = try browser.request("GET", "\(path)?q=2")
        let secondForm = try QuestionForm(second)
        let flagged = try browser.request("POST", path + "/flags", form: ["csrf_token": secondForm.token, "question": secondForm.item.id.uuidString, "flagged": "1"])
        #expect(redirectLocation(flagged) == "\(path)?q=2")
        let flaggedPage = try browser.request("GET", "\(path)?q=2").bodyText
        #expect(flaggedPage.contains("Remove the flag"))
        #expect(flaggedPage.contains(#"class=" flagged""#) || flaggedPage.contains(#"class="answered flagged""#))
        let warning = try browser.request("GET", path + "/finish").bodyText
        #expect(warning.contains("3 of 4 questions are unanswered"))
        #expect(warning.contains(">Flagged (1)</a>"), "the review screen lists the flagged question")
        // Time runs out; the browser sends one more answer, which is not counted.
        site.clock.advance(50)
        let third = try QuestionForm(try browser.request("GET", "\(path)?q=3"))
        site.clock.advance(6)
        let late = try browser.request("POST", path + "/answers", pairs: third.pairs(third.item.key))
        #expect(redirectLocation(late) == path + "/results?late=1")
        #expect(try browser.request("GET", path + "/results?late=1").bodyText.contains("the last answer was not counted"))
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 2)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE finished_at = deadline_at AND score_correct = 0") == 1)
        // The mock's final answer reviewed its card when the exam ended, and only then.
        #expect(try site.count("SELECT count(*) AS n FROM review_cards c JOIN study_sessions s ON true WHERE c.last_review = s.deadline_at AND c.reviews = 1") == 1)
        #expect(redirectLocation(try browser.request("GET", path)) == path + "/results")
    }

    @Test("without JavaScript, flagging a mock exam's question keeps the choice made but not yet saved")
    func flagKeepsChoice() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("flora")
        let (_, path) = try startSession(browser, mode: "mock")
        let first = try browser.request("GET", path)
        #expect(first.bodyText.contains("id=\"flag-button\""), "the flag is a button of the answer form")
        #expect(!first.bodyText.contains("id=\"flag-form\""))
        let form = try QuestionForm(first)
        let flagged = try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key) + [("flag", "1")])
        #expect(redirectLocation(flagged) == "\(path)?q=1", "the student stays on the question")
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 1, "the choice sent with the flag is saved")
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE cardinality(flagged) = 1") == 1)
        let page = try browser.request("GET", "\(path)?q=1").bodyText
        #expect(page.contains("Remove the flag"))
        if form.item.kind != "ordering" { #expect(page.contains(#" checked>"#)) }
        // Unflagging with the same choice saves nothing new; flagging with nothing chosen saves nothing.
        let again = try QuestionForm(try browser.request("GET", "\(path)?q=1"))
        try browser.request("POST", path + "/answers", pairs: again.pairs(form.item.key) + [("flag", "0")])
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE cardinality(flagged) = 0") == 1)
        let second = try QuestionForm(try browser.request("GET", "\(path)?q=2"))
        if second.item.kind != "ordering" {
            #expect(redirectLocation(try browser.request("POST", path + "/answers", pairs: second.pairs([]) + [("flag", "1")])) == "\(path)?q=2")
            #expect(try site.count("SELECT count(*) AS n FROM answers") == 1)
            #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE cardinality(flagged) = 1") == 1)
        }
    }

    @Test("a mock exam left open past its time limit is over when the student comes back")
    func mockTimeUp() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("tomo")
        let (_, path) = try startSession(browser, mode: "mock")
        site.clock.advance(3600)
        #expect(redirectLocation(try browser.request("GET", path)) == path + "/results?timeup=1")
        let results = try browser.request("GET", path + "/results?timeup=1").bodyText
        #expect(results.contains("Time is up"))
        #expect(results.contains("<dd>1 min 00 s</dd>"), "time used stops at the limit")
    }

    @Test("another student's session, or anyone else's, is a 404 for every page of it")
    func otherStudents() throws {
        let site = try PortalSite()
        let owner = site.browser()
        try owner.register("owner")
        let (_, path) = try startSession(owner)
        let form = try QuestionForm(try owner.request("GET", path))
        let intruder = site.browser()
        try intruder.register("intruder")
        let token = intruder.csrfToken(from: try intruder.request("GET", "/me/settings"))
        #expect(try intruder.request("GET", path).status == 404)
        #expect(try intruder.request("GET", path + "/results").status == 404)
        #expect(try intruder.request("GET", path + "/finish").status == 404)
        #expect(try intruder.request("POST", path + "/answers", pairs: [("csrf_token", token)] + form.pairs(form.item.key).dropFirst()).status == 404)
        #expect(try intruder.request("POST", path + "/finish", form: ["csrf_token": token]).status == 404)
        #expect(try site.browser().request("GET", path).status == 404)
        #expect(try owner.request("GET", "/sessions/not-a-uuid").status == 404)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE finished_at IS NULL") == 1)
    }

    @Test("a guest practises without an account; nothing reaches review cards, and review needs an account")
    func guestPractice() throws {
        let site = try PortalSite()
        let guest = site.browser()
        let (started, path) = try startSession(guest, count: "2")
        #expect(started.status == 303)
        #expect(started.headers.contains { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("portal_guest=") && $0.1.contains("HttpOnly") && $0.1.contains("SameSite=Lax") })
        let page = try guest.request("GET", path)
        #expect(!page.bodyText.contains("Studying as a guest"), "the question comes first")
        let form = try QuestionForm(page)
        #expect(try guest.request("POST", path + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        #expect(try guest.request("GET", path).bodyText.contains(#"<p class="notice guest-line">Studying as a guest · <a href="/register?next=\#(path)">Create an account</a></p>"#))
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE user_id IS NULL AND rating IS NULL") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM review_cards") == 0)
        // Another browser without the guest cookie sees nothing of it.
        #expect(try site.browser().request("GET", path).status == 404)
        let review = try startSession(site.browser(), mode: "review").0
        #expect(review.status == 303 && redirectLocation(review).hasPrefix("/login?next="))
    }

    @Test("a guest who makes an account keeps what they practised: sessions, answers with ratings, review cards; another guest's stay theirs")
    func guestKeepsPracticeOnRegistering() throws {
        let site = try PortalSite()
        let guest = site.browser(), stranger = site.browser()
        // A finished session (one right, one wrong) and an unfinished one with one answer.
        let (_, finished) = try startSession(guest, count: "2")
        var page = try guest.request("GET", finished)
        var form = try QuestionForm(page)
        #expect(try guest.request("POST", finished + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        page = try guest.request("GET", finished + "?q=2")
        form = try QuestionForm(page)
        #expect(try guest.request("POST", finished + "/answers", pairs: form.pairs(form.item.wrong)).status == 303)
        let confirm = try guest.request("GET", finished + "/finish")
        #expect(try guest.request("POST", finished + "/finish", form: ["csrf_token": guest.csrfToken(from: confirm)]).status == 303)
        let (_, open) = try startSession(guest, count: "3")
        form = try QuestionForm(try guest.request("GET", open))
        #expect(try guest.request("POST", open + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        let (_, theirs) = try startSession(stranger, count: "1")
        form = try QuestionForm(try stranger.request("GET", theirs))
        #expect(try stranger.request("POST", theirs + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE user_id IS NULL AND rating IS NULL") == 4)

        // The results page's own invitation to register leads back to those results.
        let results = try guest.request("GET", finished + "/results").bodyText
        let invitation = "/register?next=\(finished)/results"
        #expect(results.contains("href=\"\(invitation)\""))
        let registerPage = try guest.request("GET", invitation)
        #expect(registerPage.bodyText.contains("name=\"next\" value=\"\(finished)/results\""))
        let registered = try guest.request("POST", "/register", form: [
            "csrf_token": guest.csrfToken(from: registerPage), "next": "\(finished)/results", "username": "newcomer", "display_name": "Newcomer",
            "password": "a long enough password", "password_confirmation": "a long enough password"])
        #expect(registered.status == 303)
        #expect(redirectLocation(registered) == finished + "/results", "back to the results that invited them")
        #expect(registered.headers.contains { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("portal_guest=;") && $0.1.contains("Max-Age=0") })
        let user = "(SELECT id FROM users WHERE username = 'newcomer')"
        #expect(try site.count(SQL(stringLiteral: "SELECT count(*) AS n FROM study_sessions WHERE user_id = \(user) AND guest_key IS NULL")) == 2)
        #expect(try site.count(SQL(stringLiteral: "SELECT count(*) AS n FROM answers WHERE user_id = \(user) AND rating = CASE WHEN correct THEN 3 ELSE 1 END")) == 3)
        #expect(try site.count(SQL(stringLiteral: "SELECT count(*) AS n FROM review_cards WHERE user_id = \(user)")) ==
            (try site.count(SQL(stringLiteral: "SELECT count(DISTINCT question_id) AS n FROM answers WHERE user_id = \(user)"))))
        #expect(try site.count(SQL(stringLiteral: "SELECT count(*) AS n FROM study_sessions WHERE user_id = \(user) AND finished_at IS NOT NULL AND score_correct = 1")) == 1)
        // The other browser's practice is untouched, and the cards agree with the history.
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE guest_key IS NOT NULL AND user_id IS NULL") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE user_id IS NULL") == 1)
        #expect(try ReviewCardStore().rebuildAll(try site.database.adminConnection()).differing == 0)
        // The sessions are the student's now, and the unfinished one goes on under the account.
        #expect(try guest.request("GET", finished + "/results").status == 200)
        form = try QuestionForm(try guest.request("GET", open + "?q=2"))
        #expect(try guest.request("POST", open + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        #expect(try site.count(SQL(stringLiteral: "SELECT count(*) AS n FROM answers WHERE user_id = \(user)")) == 4)
    }

    @Test("starting from another site is refused, whoever is asking")
    func crossSiteStart() throws {
        let site = try PortalSite()
        let guest = site.browser()
        guest.origin = "http://evil.example"
        #expect(try startSession(guest).0.status == 403)
        let fetchMetadata = try site.browser().request("POST", "/sessions", form: ["region": MiniExam.region, "exam": MiniExam.exam],
                                                       extraHeaders: "Sec-Fetch-Site: cross-site\r\n")
        #expect(fetchMetadata.status == 403)
        let student = site.browser()
        try student.register("careful")
        #expect(try student.request("POST", "/sessions", form: ["region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice", "domain": "alpha"]).status == 403,
                "a signed-in student's start form must carry the token")
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions") == 0)
    }

    struct BadStart: Sendable, CustomStringConvertible {
        var name: String
        var fields: [(String, String)]
        var status: Int
        var says: String
        var description: String { name }
    }

    static let badStarts: [BadStart] = [
        BadStart(name: "unknown mode", fields: [("mode", "cram")], status: 400, says: "is not a study mode"),
        BadStart(name: "zero questions", fields: [("count", "0")], status: 400, says: "from 1 to 100"),
        BadStart(name: "too many questions", fields: [("count", "101")], status: 400, says: "from 1 to 100"),
        BadStart(name: "count not a number", fields: [("count", "lots")], status: 400, says: "from 1 to 100"),
        BadStart(name: "range upside down", fields: [("difficulty_from", "4"), ("difficulty_to", "2")], status: 400, says: "not harder than"),
        BadStart(name: "difficulty out of range", fields: [("difficulty_from", "0")], status: 400, says: "not harder than"),
        BadStart(name: "unknown domain", fields: [("domain", "gamma")], status: 400, says: "no domain “gamma”"),
        BadStart(name: "unknown exam", fields: [("exam", "maxi")], status: 404, says: "There is no exam"),
        BadStart(name: "nothing at that difficulty", fields: [("difficulty_from", "5"), ("difficulty_to", "5")], status: 422, says: "Widen the difficulty range"),
    ]

    @Test("a start form that cannot be used gets a 4xx saying what to change, and starts nothing", arguments: badStarts)
    func badStart(_ bad: BadStart) throws {
        let site = try PortalSite()
        var fields: [String: String] = ["region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice", "count": "5"]
        for (name, value) in bad.fields where name != "domain" { fields[name] = value }
        let domains = bad.fields.filter { $0.0 == "domain" }.map(\.1)
        let pairs = fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + (domains.isEmpty ? [("domain", "alpha"), ("domain", "beta")] : domains.map { ("domain", $0) })
        let response = try site.browser().request("POST", "/sessions", pairs: pairs)
        #expect(response.status == bad.status)
        #expect(response.bodyText.contains(bad.says))
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions") == 0)
    }

    @Test("practice with no domain chosen asks for one")
    func noDomain() throws {
        let site = try PortalSite()
        let response = try startSession(site.browser(), domains: []).0
        #expect(response.status == 400)
        #expect(response.bodyText.contains("Choose at least one domain"))
    }

    @Test("answers that cannot be used get a clear 4xx and store nothing; a replay is harmless and a conflicting one is a 409")
    func badAnswers() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("careful")
        let (_, path) = try startSession(browser)
        let form = try QuestionForm(try browser.request("GET", path))
        func post(_ pairs: [(String, String)]) throws -> RawHTTPClient.Response { try browser.request("POST", path + "/answers", pairs: pairs) }
        // The answer form of the session's first question of a kind (its signed "shown" time is its own).
        func answerForm(of kind: String) throws -> QuestionForm {
            for number in 1...MiniExam.items.count {
                let page = try QuestionForm(try browser.request("GET", path + "?q=\(number)"))
                if page.item.kind == kind { return page }
            }
            throw TestEnvironmentError("the session has no \(kind) question")
        }
        var target = try answerForm(of: "single-choice")
        // What a browser's form can get wrong goes back to the question's own page (POST →
        // redirect → GET), with the reason and what was chosen; a reload sends nothing again.
        let empty = try post(target.pairs([]))
        #expect(empty.status == 303)
        #expect(redirectLocation(empty).hasPrefix(path + "?q=") && redirectLocation(empty).contains("&refused=empty"))
        let emptyPage = try browser.request("GET", redirectLocation(empty))
        #expect(emptyPage.status == 200)
        #expect(emptyPage.bodyText.contains("Choose an answer before sending it."))
        #expect(emptyPage.bodyText.contains("id=\"answer-form\""), "the question is shown again to answer")
        #expect(try post(target.pairs([9])).bodyText.contains("“9” is not one of the options."))
        #expect(try post(target.pairs([0, 1])).bodyText.contains("Choose exactly one option."))
        #expect(try post(target.pairs([]) + [("choice", "first")]).status == 400)
        target = try answerForm(of: "ordering")
        let duplicate = try post(target.pairs([]) + [("position_0", "3"), ("position_1", "3"), ("position_2", "2")])
        #expect(duplicate.status == 303)
        let duplicatePage = try browser.request("GET", redirectLocation(duplicate)).bodyText
        #expect(duplicatePage.contains("Two items have the same position."))
        // The positions come back as chosen, not reset to 1, 2, 3.
        let selected = duplicatePage.components(separatedBy: "<option value=\"").dropFirst().compactMap { option -> String? in
            option.hasPrefix("1\" selected") || option.hasPrefix("2\" selected") || option.hasPrefix("3\" selected") ? String(option.prefix(1)) : nil
        }
        #expect(selected == ["3", "3", "2"])
        let incomplete = try post(target.pairs([]) + [("position_0", "1")])
        #expect(incomplete.status == 303)
        #expect(try browser.request("GET", redirectLocation(incomplete)).bodyText.contains("Give each of the 3 items a position from 1 to 3."))
        #expect(try post(form.pairs(form.item.key).filter { $0.0 != "answer_id" }).status == 400)
        #expect(try post(form.pairs(form.item.key).filter { $0.0 != "shown_at" }).status == 400)
        // The time a question was shown is the server's: a stamp changed by the browser is refused.
        let forgedStamp = form.pairs(form.item.key).map { $0.0 == "shown_at" ? ($0.0, "1.\(String(repeating: "0", count: 64))") : $0 }
        #expect(try post(forgedStamp).status == 400)
        let earlier = form.pairs(form.item.key).map { pair -> (String, String) in
            guard pair.0 == "shown_at", let dot = pair.1.firstIndex(of: ".") else { return pair }
            return (pair.0, String(Int64(pair.1[..<dot])! - 600_000) + pair.1[dot...])
        }
        #expect(try post(earlier).status == 400, "moving the shown time back breaks its signature")
        #expect(try post(form.pairs(form.item.key).map { $0.0 == "question" ? ($0.0, UUID().uuidString) : $0 }).status == 400)
        #expect(try post(form.pairs(form.item.key).map { $0.0 == "csrf_token" ? ($0.0, "forged") : $0 }).status == 403)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 0)
        // The real answer, then the same again (a reload), then the same id saying something else.
        #expect(try post(form.pairs(form.item.key)).status == 303)
        #expect(try post(form.pairs(form.item.key)).status == 303)
        let conflict = try post(form.pairs(form.item.wrong))
        #expect(conflict.status == 409)
        #expect(conflict.bodyText.contains("already recorded with different content"))
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE correct") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM review_cards WHERE reviews = 1") == 1)
        // Another answer to the same practice question keeps the first.
        let second = try post(form.pairs(form.item.wrong, answerID: UUID().uuidString))
        #expect(redirectLocation(second).hasSuffix("&already=1"))
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 1)
    }

    @Test("the dashboard shows what is due, the streak, readiness per exam and recent sessions")
    func dashboard() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("dana")
        #expect(redirectLocation(try site.browser().request("GET", "/me")) == "/login?next=/me")
        let empty = try browser.request("GET", "/me").bodyText
        #expect(empty.contains("You have not studied an exam yet."))
        #expect(!empty.contains("Due today: questions at"), "nothing due, nothing to explain")
        let (_, path) = try startSession(browser)
        for _ in 1...7 {
            let form = try QuestionForm(try browser.request("GET", path))
            try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        }
        let today = try browser.request("GET", "/me").bodyText
        #expect(today.contains("Predicted score: 100%"), "every question was just answered right")
        #expect(today.contains("7 questions studied"))
        #expect(today.contains("<dd>1 day</dd>"))
        #expect(today.contains("<dd>7</dd>"))
        #expect(today.contains("in progress"))
        #expect(today.contains("Alpha things"))
        site.clock.advance(3 * 86_400)
        let later = try browser.request("GET", "/me").bodyText
        #expect(later.contains("<dd>0 days</dd>"), "a streak ends after a whole day without study")
        #expect(later.contains("7 due today"))
        #expect(later.contains("Due today: questions at the point where you would start to forget them."), "what is due says why")
        #expect(!later.contains("Predicted score: 100%"), "readiness falls as memories fade")
        let (review, reviewPath) = try startSession(browser, mode: "review", count: "20")
        #expect(review.status == 303)
        #expect(try browser.request("GET", reviewPath).bodyText.contains("Question 1 of 7"))
        // The dashboard's own button says how many it reviews, and starts exactly those.
        #expect(later.contains("Review 7 questions due"))
        #expect(later.contains(#"<input type="hidden" name="count" value="7">"#))
        let fromDashboard = try browser.request("POST", "/sessions", pairs: [
            ("csrf_token", browser.csrfToken(from: try browser.request("GET", "/me"))), ("region", MiniExam.region), ("exam", MiniExam.exam),
            ("mode", "review"), ("count", "7")])
        #expect(try browser.request("GET", redirectLocation(fromDashboard)).bodyText.contains("Question 1 of 7"))
    }

    @Test("a report on a question lands in the table the content team reads")
    func report() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("rita")
        let (_, path) = try startSession(browser)
        let form = try QuestionForm(try browser.request("GET", path))
        let target = "/questions/\(form.item.id.uuidString.lowercased())/reports"
        let sent = try browser.request("POST", target, form: ["csrf_token": form.token, "reason": "typo", "comment": "“Teh” in the stem", "return_to": "\(path)?q=1"])
        #expect(redirectLocation(sent) == "\(path)?q=1&reported=1")
        #expect(try browser.request("GET", redirectLocation(sent)).bodyText.contains("your report is with the content team"))
        #expect(try site.count("SELECT count(*) AS n FROM question_reports WHERE reason = 'typo' AND comment = '“Teh” in the stem' AND question_version = 1") == 1)
        #expect(try browser.request("POST", target, form: ["csrf_token": form.token, "reason": "boring"]).status == 400)
        #expect(try browser.request("POST", target, form: ["csrf_token": form.token, "reason": "other", "comment": String(repeating: "x", count: 2001)]).status == 400)
        #expect(try browser.request("POST", "/questions/\(UUID().uuidString)/reports", form: ["csrf_token": form.token, "reason": "other"]).status == 404)
        #expect(try site.count("SELECT count(*) AS n FROM question_reports") == 1)
    }

    @Test("every study page passes the Nu Html Checker")
    func pagesAreValidHTML() throws {
        let site = try PortalSite()
        var pages: [(name: String, body: [UInt8])] = []
        func save(_ name: String, _ response: RawHTTPClient.Response) throws {
            #expect(response.status < 500, "\(name) answered \(response.status)")
            pages.append((name, response.body))
        }
        let browser = site.browser()
        try browser.register("valid")
        try save("exam-signed-in", try browser.request("GET", MiniExam.path))
        let (_, path) = try startSession(browser)
        for number in 1...7 { try save("question-\(number)", try browser.request("GET", "\(path)?q=\(number)")) }
        for number in 1...7 {
            let form = try QuestionForm(try browser.request("GET", path))
            try browser.request("POST", path + "/answers", pairs: form.pairs(number % 2 == 0 ? form.item.key : form.item.wrong))
        }
        for number in 1...7 { try save("feedback-\(number)", try browser.request("GET", "\(path)?q=\(number)")) }
        try save("finish", try browser.request("GET", path + "/finish"))
        try browser.request("POST", path + "/finish", form: ["csrf_token": browser.csrfToken(from: try browser.request("GET", path + "/finish"))])
        try save("results", try browser.request("GET", path + "/results"))
        let (_, mock) = try startSession(browser, mode: "mock")
        try save("mock", try browser.request("GET", mock))
        try save("mock-finish", try browser.request("GET", mock + "/finish"))
        let empty = try QuestionForm(try browser.request("GET", mock))
        let refused = try browser.request("POST", mock + "/answers", pairs: empty.pairs([]) + (empty.item.kind == "ordering" ? [("position_0", "9")] : []))
        try save("answer-error", try browser.request("GET", redirectLocation(refused)))
        try save("dashboard", try browser.request("GET", "/me"))
        let guest = site.browser()
        let (_, guestPath) = try startSession(guest, count: "1")
        try save("guest-question", try guest.request("GET", guestPath))
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }
}
