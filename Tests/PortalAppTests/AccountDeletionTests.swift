import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// "Delete my account" (GDPR article 17) as a student and an admin go through it: confirmed by
/// the password the database checks, the person's data gone at once, their answers kept only as
/// anonymous rows so the questions' statistics and their class's figures still add up, the
/// leaderboard rebuilt without them, every sign-in ended, an audit entry without their name.
@Suite("Deleting an account", .onTestThreads)
struct AccountDeletionTests {
    typealias Site = PortalSite

    /// A student with a history: a class, a practice and a finished mock, on the leaderboard.
    static func studentWithHistory(_ site: Site, name: String) throws -> (Browser, UUID) {
        let (teacher, _, csrf) = try site.account("teacher-\(name)", role: "teacher")
        let (_, code) = try makeClass(teacher, csrf: csrf)
        let browser = site.browser()
        try browser.register(name)
        try browser.submit("/join/\(code)", to: "/join/\(code)", [:])
        let id = try site.admin { try $0.query("SELECT id FROM users WHERE username = \(name)").single().decode("id", as: UUID.self) }
        try site.admin { try $0.execute("UPDATE users SET show_on_leaderboard = true WHERE id = \(id)") }
        for mode in ["practice", "mock"] {
            let (_, path) = try startSession(browser, mode: mode)
            for index in 1...MiniExam.questionCount {
                let form = try QuestionForm(try browser.request("GET", mode == "mock" ? "\(path)?q=\(index)" : path))
                #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(index % 2 == 0 ? form.item.key : form.item.wrong)).status == 303)
            }
            let token = browser.csrfToken(from: try browser.request("GET", path + "/finish"))
            #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": token]).status == 303)
        }
        return (browser, id)
    }

    @Test("a student deletes their account with their password: their data gone, their answers anonymous and still counted, the leaderboard without them, signed out everywhere")
    func ownDeletion() throws {
        let site = try Site()
        let (browser, id) = try Self.studentWithHistory(site, name: "vera")
        let otherDevice = site.browser()
        try otherDevice.login("vera")
        try site.admin { _ = try $0.query("SELECT leaderboard_refresh(interval '0', 'test')") }
        #expect(try site.count("SELECT count(*) AS n FROM leaderboard_entries WHERE user_id = \(id)") > 0)
        let answers = try site.count("SELECT count(*) AS n FROM answers")
        let statistics = try site.count("SELECT count(*) AS n FROM item_responses")
        let correct = try site.count("SELECT count(*) AS n FROM answers WHERE correct")
        #expect(answers > 0 && statistics > 0)

        // Settings lead to it; the page says what goes and what stays.
        #expect(try browser.request("GET", "/me/settings").bodyText.contains(#"<a href="/me/delete">Delete my account…</a>"#))
        let page = try browser.request("GET", "/me/delete")
        #expect(page.status == 200 && page.bodyText.contains("Erased at once") && page.bodyText.contains("anonymous rows"))
        let check = try HTMLChecker.passes([("delete", page.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        // A wrong password changes nothing.
        let wrong = try browser.submit("/me/delete", to: "/me/delete", ["password": "not my password at all"])
        #expect(wrong.status == 422 && wrong.bodyText.contains("role=\"alert\""))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE id = \(id)") == 1)

        let deleted = try browser.submit("/me/delete", to: "/me/delete", ["password": "correct horse battery"])
        #expect(deleted.status == 200 && deleted.bodyText.contains("Your account is deleted"))
        #expect(deleted.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try otherDevice.request("GET", "/me").status == 303, "every sign-in ended")
        #expect(try site.browser().login("vera").status != 303)

        // Gone: the account and what hung on it.
        for table in ["users WHERE id", "review_cards WHERE user_id", "class_members WHERE user_id", "auth_sessions WHERE user_id", "answers WHERE user_id", "study_sessions WHERE user_id"] {
            #expect(try site.count("SELECT count(*) AS n FROM \(fragment: SQL(stringLiteral: table)) = \(id)") == 0, "\(table)")
        }
        // Kept, anonymous: the same answers, right and wrong alike, in the same statistics.
        #expect(try site.count("SELECT count(*) AS n FROM answers") == answers)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE correct") == correct)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE user_id IS NULL AND answered_at = received_at") == answers)
        #expect(try site.count("SELECT count(DISTINCT anonymous_key) AS n FROM study_sessions WHERE anonymous_key IS NOT NULL") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM item_responses") == statistics, "the first mock still counts for the questions")
        // The leaderboard was rebuilt without them; the audit log names nobody.
        #expect(try site.count("SELECT count(*) AS n FROM leaderboard_entries WHERE user_id = \(id) OR display_name = 'Vera'") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'account.deleted' AND target = '' AND details->>'by' = 'self'") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE target = 'vera' OR actor_name = 'Vera'") == 0)
    }

    @Test("an admin deletes an account on request, asked first and audited under their own name; never their own, and nobody else may")
    func adminDeletion() throws {
        let site = try Site()
        let (_, id) = try Self.studentWithHistory(site, name: "walt")
        let (admin, adminID, csrf) = try site.account("root", role: "admin", displayName: "Ada Admin")
        let (student, _, studentCSRF) = try site.account("sly", role: "student")
        let path = "/admin/users/\(id.uuidString.lowercased())/delete"
        let refused = try student.request("POST", path, form: ["csrf_token": studentCSRF, "confirm": "1"])
        #expect(refused.status == 403 || refused.status == 404, "\(refused.status)")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE id = \(id)") == 1)
        let question = try admin.request("GET", path)
        #expect(question.status == 200 && question.bodyText.contains("Delete the account of Walt?"))
        #expect(redirectLocation(try admin.request("POST", path, form: ["csrf_token": csrf])).hasSuffix(path), "an unasked form deletes nothing")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE id = \(id)") == 1)
        let done = try admin.request("POST", path, form: ["csrf_token": csrf, "confirm": "1"])
        #expect(redirectLocation(done).hasSuffix("/admin/users?deleted=1"))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE id = \(id)") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'account.deleted' AND actor_name = 'Ada Admin' AND details->>'by' = 'admin'") == 1)
        #expect(try admin.request("POST", "/admin/users/\(adminID.uuidString.lowercased())/delete", form: ["csrf_token": csrf, "confirm": "1"]).status == 404)
    }
}
