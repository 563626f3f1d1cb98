import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A forgotten password is not a lost account: a teacher (for a member of their class) or an
/// admin gives a one-time code, and the student chooses a new password with it. The database
/// decides every step; these tests go over HTTP and through real `portal_app` connections.
@Suite("Password recovery", .onTestThreads)
struct PasswordRecoveryTests {
    /// The code on a card page (`ABCD-EFGH-JKLM`).
    static func code(on page: RawHTTPClient.Response) -> String {
        guard let range = page.bodyText.range(of: #"<dd class="code">"#) else { return "" }
        return String(page.bodyText[range.upperBound...].prefix { $0 != "<" })
    }

    @Test("a student who forgot their password gets back in with their teacher's code: asked first, shown once on a card, used once, every other sign-in ended, the old password gone")
    func teachersCode() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (classID, joinCode) = try makeClass(teacher, csrf: csrf)
        let (oldDevice, pupilID) = try ClassPupils.pupil(site, in: joinCode)
        #expect(try oldDevice.request("GET", "/me").status == 200)

        // The sign-in page leads to the ways back in.
        let login = try site.browser().request("GET", "/login").bodyText
        #expect(login.contains(#"<a href="/forgot">Forgot your password?</a>"#))
        let forgot = try site.browser().request("GET", "/forgot")
        #expect(forgot.status == 200 && forgot.bodyText.contains("Ask your teacher or your school") && forgot.bodyText.contains(#"href="/reset""#))

        // The pupil's page in the class offers it; the teacher is asked first, and an unasked form issues nothing.
        let asking = "/teach/classes/\(classID)/members/\(pupilID.uuidString.lowercased())/reset"
        #expect(try teacher.request("GET", "/teach/classes/\(classID)/members/\(pupilID.uuidString.lowercased())").bodyText
            .contains(#"<a href="\#(asking)">Give a code to choose a new password</a>"#))
        let question = try teacher.request("GET", asking)
        #expect(question.status == 200 && question.bodyText.contains("<h1>Give Pia a reset code?</h1>"), "\(question.bodyText)")
        let unasked = try teacher.request("POST", asking, form: ["csrf_token": csrf])
        #expect(redirectLocation(unasked).hasSuffix(asking))
        #expect(try site.count("SELECT count(*) AS n FROM password_resets") == 0)

        let card = try teacher.submit(asking, to: asking, ["confirm": "1"])
        let code = Self.code(on: card)
        #expect(card.status == 200 && code.count == 14, "\(card.bodyText)")
        #expect(card.header("Cache-Control") == "private, no-store", "the card is for its reader alone, and never kept")
        #expect(card.bodyText.contains("<dd>pia</dd>") && card.bodyText.contains("<svg") && card.bodyText.contains("/reset"))
        let check = try HTMLChecker.passes([("question", question.body), ("card", card.body), ("forgot", forgot.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // Only the code's hash is kept, and who issued it is on record.
        let typed = code.replacingOccurrences(of: "-", with: "")
        #expect(try site.count("SELECT count(*) AS n FROM password_resets WHERE code_hash = sha256(convert_to(\(typed), 'UTF8')) AND used_at IS NULL") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'account.reset-code' AND target = 'pia' AND actor_name = 'Ms Rossi'") == 1)

        // The card's QR code opens the form filled in.
        let student = site.browser()
        let form = try student.request("GET", "/reset?user=pia&code=\(typed.lowercased())")
        #expect(form.bodyText.contains(#"value="pia""#) && form.bodyText.contains(#"value="\#(code)""#))
        let formCheck = try HTMLChecker.passes([("reset form", form.body)])
        #expect(formCheck.passed, "the Nu Html Checker found errors; run it on \(formCheck.folder) to see them")
        func reset(_ username: String, _ code: String, _ password: String = "a brand new phrase") throws -> RawHTTPClient.Response {
            try student.submit("/reset", to: "/reset", ["username": username, "code": code, "password": password, "password_confirmation": password])
        }
        // A wrong code, the right code for another name, a weak password: refused, nothing spent.
        let wrong = try reset("pia", "AAAA-BBBB-CCCC")
        #expect(wrong.status == 422 && wrong.bodyText.contains("That code does not work with that username"))
        #expect(try reset("teacher", code).bodyText.contains("That code does not work with that username"))
        #expect(try reset("pia", code, "short").status == 422)
        #expect(try site.count("SELECT count(*) AS n FROM password_resets WHERE used_at IS NULL") == 1)

        // The right one: signed in at once, told so, every other sign-in of the account ended.
        let done = try reset("pia", " \(code.lowercased()) ")
        #expect(done.status == 303 && redirectLocation(done).hasSuffix("/me/settings?password=1"))
        #expect(try student.request("GET", "/me/settings?password=1").bodyText.contains("Your password is changed"))
        #expect(redirectLocation(try oldDevice.request("GET", "/me")).hasPrefix("/login"), "the old device is signed out")
        // Once only; the old password is gone, the new one works.
        #expect(try site.browser().submit("/reset", to: "/reset", ["username": "pia", "code": code, "password": "another phrase here", "password_confirmation": "another phrase here"]).status == 422)
        #expect(try site.browser().login("pia").bodyText.contains("do not match an account"), "the old password is gone")
        let again = site.browser()
        #expect(redirectLocation(try again.login("pia", password: "a brand new phrase")).hasSuffix("/me"))
    }

    @Test("only a teacher of the student's class or an admin can make a code — not another teacher, not a student, not portal_app by itself; a code lasts a day; guessing is cut off; an account of a school's sign-in has no password to reset")
    func whoMayIssue() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, joinCode) = try makeClass(teacher, csrf: csrf)
        let (_, pupilID) = try ClassPupils.pupil(site, in: joinCode)
        let asking = "/teach/classes/\(classID)/members/\(pupilID.uuidString.lowercased())/reset"
        let (other, _, otherCSRF) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", asking).status == 404)
        #expect(try other.request("POST", asking, form: ["csrf_token": otherCSRF, "confirm": "1"]).status == 404)
        let (classmate, _, classmateCSRF) = try site.account("classmate", role: "student")
        #expect(try classmate.request("POST", asking, form: ["csrf_token": classmateCSRF, "confirm": "1"]).status == 404)
        #expect(try classmate.request("GET", "/admin/users/\(pupilID.uuidString.lowercased())/reset").status == 404)
        #expect(try site.count("SELECT count(*) AS n FROM password_resets") == 0)

        // The database's own answer to a portal_app connection that tries its way around.
        let outsider = try site.database.makeAccount("outsider", role: "teacher")
        let student = try site.database.makeAccount("student2", role: "student")
        let hash = PostgresBytes(Array(repeating: 7, count: 32))
        for caller in [outsider, student] {
            let answer = try site.pool.asCaller(caller) { try $0.query("SELECT auth_issue_reset(\(pupilID), \(hash)) AS a").single().decode("a", as: String.self) }
            #expect(answer == "unknown")
        }
        #expect(throws: PostgresError.self, "portal_app cannot write a code itself") {
            try site.pool.asCaller(outsider) {
                try $0.execute("INSERT INTO password_resets (user_id, code_hash, issued_at, expires_at) VALUES (\(pupilID), \(hash), now(), now() + interval '1 day')")
            }
        }
        #expect(throws: PostgresError.self, "nor read one") {
            try site.pool.asCaller(outsider) { try $0.query("SELECT code_hash FROM password_resets") }
        }
        #expect(try site.count("SELECT count(*) AS n FROM password_resets") == 0)

        // An admin may, for anyone; the code lasts a day.
        let (admin, _, _) = try site.account("chief", role: "admin")
        let adminAsking = "/admin/users/\(pupilID.uuidString.lowercased())/reset"
        #expect(try admin.request("GET", "/admin/users").bodyText.contains(#"href="\#(adminAsking)""#))
        let card = try admin.submit(adminAsking, to: adminAsking, ["confirm": "1"])
        let code = PasswordRecoveryTests.code(on: card)
        #expect(code.count == 14)
        site.clock.advance(25 * 3600)
        let late = site.browser()
        let expired = try late.submit("/reset", to: "/reset", ["username": "pia", "code": code, "password": "a brand new phrase", "password_confirmation": "a brand new phrase"])
        #expect(expired.status == 422, "a day-old code works no more")

        // Guessing: five tries a username in ten minutes, then a wait, said with Retry-After.
        var last = expired
        for _ in 0..<5 {
            last = try late.submit("/reset", to: "/reset", ["username": "pia", "code": "AAAA-BBBB-CCCC", "password": "a brand new phrase", "password_confirmation": "a brand new phrase"])
        }
        #expect(last.status == 429 && last.header("Retry-After") != nil && last.bodyText.contains("Too many tries"), "\(last.status)")

        // An account that signs in with its school has no password here.
        try site.admin { try $0.execute("UPDATE users SET password_hash = NULL WHERE id = \(pupilID)") }
        let external = try admin.submit(adminAsking, to: adminAsking, ["confirm": "1"])
        #expect(external.status == 409 && external.bodyText.contains("signs in with their school"))
    }
}
