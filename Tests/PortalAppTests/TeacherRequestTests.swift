import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

@Suite("Becoming a teacher: asked at sign-up, decided by an admin", .onTestThreads)
struct TeacherRequestTests {
    @Test("a new account says it teaches, names its school, and an admin approves it from the queue: the account teaches at once; every form sent twice changes nothing more")
    func askedAndApproved() throws {
        let site = try PortalSite()
        let visitor = site.browser()
        let form = try visitor.request("GET", "/register")
        #expect(form.bodyText.contains("I am here to") && form.bodyText.contains("teach (an admin approves it)"))
        let registered = try visitor.request("POST", "/register", form: [
            "csrf_token": visitor.csrfToken(from: form), "username": "ms.okafor", "display_name": "Ms Okafor", "password": "correct horse battery",
            "password_confirmation": "correct horse battery", "time_zone": "UTC", "intent": "teach",
        ])
        #expect(registered.status == 303 && redirectLocation(registered) == "/me/teaching")
        let asking = try visitor.request("GET", "/me/teaching")
        #expect(asking.status == 200 && asking.bodyText.contains("Your school"))
        let token = visitor.csrfToken(from: asking)

        // Nothing named: refused beside the field, nothing filed.
        let empty = try visitor.request("POST", "/me/teaching", form: ["csrf_token": token, "school": "  ", "note": "Maths"])
        #expect(empty.status == 422 && empty.bodyText.contains("Name the school where you teach."))
        #expect(try site.count("SELECT count(*) AS n FROM teacher_requests") == 0)
        let tooLong = try visitor.request("POST", "/me/teaching", form: ["csrf_token": token, "school": String(repeating: "S", count: 121)])
        #expect(tooLong.status == 422 && tooLong.bodyText.contains("Keep it to 120 characters."))

        let sent = try visitor.request("POST", "/me/teaching", form: ["csrf_token": token, "school": "Riverside High", "note": "I teach networking."])
        #expect(sent.status == 303 && redirectLocation(sent) == "/me/teaching?sent=1")
        let waiting = try visitor.request("GET", "/me/teaching?sent=1").bodyText
        #expect(waiting.contains("Your request is with the admins.") && waiting.contains("Your request to teach at Riverside High"))
        // Sent again with a better name: still one request, with the new name.
        #expect(try visitor.request("POST", "/me/teaching", form: ["csrf_token": token, "school": "Riverside High School", "note": ""]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM teacher_requests WHERE school = 'Riverside High School' AND decision IS NULL") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM teacher_requests") == 1)

        // Still a student: the teaching area says how to get in.
        let notYet = try visitor.request("GET", "/teach")
        #expect(notYet.status == 403 && notYet.bodyText.contains("Ask to teach") && String(decoding: notYet.body, as: UTF8.self).contains("href=\"/me/teaching\""))

        let (admin, adminCSRF) = try site.signedInAdmin()
        let queue = try admin.request("GET", "/admin/teachers")
        #expect(queue.status == 200 && queue.bodyText.contains("Ms Okafor") && queue.bodyText.contains("Riverside High School"))
        let id = try site.admin { try $0.query("SELECT id FROM teacher_requests").single().decode("id", as: UUID.self) }
        let path = "/admin/teachers/\(id.uuidString.lowercased())"
        let nonsense = try admin.request("POST", path, form: ["csrf_token": adminCSRF, "decision": "maybe"])
        #expect(nonsense.status == 400 && nonsense.bodyText.contains("Choose Approve or Refuse."))
        let approved = try admin.request("POST", path, form: ["csrf_token": adminCSRF, "decision": "approve"])
        #expect(approved.status == 303 && redirectLocation(approved).hasPrefix("/admin/teachers?decided=") && redirectLocation(approved).hasSuffix("&as=approved"))
        #expect(try admin.request("GET", redirectLocation(approved)).bodyText.contains("ms.okafor teaches now."))
        // A second click, or a refusal from another tab afterwards: the first decision stands.
        let again = try admin.request("POST", path, form: ["csrf_token": adminCSRF, "decision": "refuse"])
        #expect(again.status == 303 && redirectLocation(again).hasSuffix("&as=approved"))
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action LIKE 'teacher-request.%'") == 1)
        #expect(try admin.request("GET", "/admin/audit").bodyText.contains("Chief Editor approved the request of ms.okafor to teach at Riverside High School."))
        let unknown = try admin.request("POST", "/admin/teachers/\(UUID().uuidString.lowercased())", form: ["csrf_token": adminCSRF, "decision": "approve"])
        #expect(unknown.status == 404)

        // The same session teaches now, without signing in again; its dashboard says so.
        #expect(try visitor.request("GET", "/me").bodyText.contains("An admin approved your request to teach"))
        let teaching = try visitor.request("GET", "/teach")
        #expect(teaching.status == 200)
        #expect(redirectLocation(try visitor.request("GET", "/me/teaching")) == "/teach")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'ms.okafor' AND role = 'teacher'") == 1)

        let check = try HTMLChecker.passes([("request", asking.body), ("become", notYet.body), ("queue", queue.body)])
        #expect(check.passed, "see \(check.folder)")
    }

    @Test("a refused request is said so on the requester's page, and they may ask again; whoever studies only is never asked")
    func refusedThenAskedAgain() throws {
        let site = try PortalSite()
        let student = site.browser()
        #expect(redirectLocation(try student.register("kenji")) == "/me", "choosing to study goes on as before")
        let token = student.csrfToken(from: try student.request("GET", "/me/teaching"))
        #expect(try student.request("POST", "/me/teaching", form: ["csrf_token": token, "school": "Nowhere Academy"]).status == 303)
        let (admin, adminCSRF) = try site.signedInAdmin()
        let id = try site.admin { try $0.query("SELECT id FROM teacher_requests").single().decode("id", as: UUID.self) }
        let refused = try admin.request("POST", "/admin/teachers/\(id.uuidString.lowercased())", form: ["csrf_token": adminCSRF, "decision": "refuse"])
        #expect(refused.status == 303 && redirectLocation(refused).hasSuffix("&as=refused"))
        let page = try student.request("GET", "/me/teaching").bodyText
        #expect(page.contains("An admin did not approve your last request"))
        #expect(try student.request("GET", "/me").bodyText.contains("An admin did not approve your request to teach."))
        #expect(try student.request("GET", "/teach").status == 403)
        #expect(try student.request("POST", "/me/teaching", form: ["csrf_token": token, "school": "Riverside High"]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM teacher_requests WHERE decision IS NULL") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM teacher_requests") == 2)
        let queue = try admin.request("GET", "/admin/teachers").bodyText
        #expect(queue.contains("Riverside High") && queue.contains("Nowhere Academy"), "the waiting request, and the refused one among the latest")
    }

    @Test("the database decides who teaches: a portal_app connection cannot approve its own request, write requests directly, read another's, or file one as a teacher")
    func databaseIsTheLastWord() throws {
        let site = try PortalSite()
        let student = try site.database.makeAccount("mallory")
        let other = try site.database.makeAccount("alice")
        let teacher = try site.database.makeAccount("tutor", role: "teacher")
        let store = TeacherRequestStore()
        #expect(try site.pool.asCaller(student) { try store.file(school: "Evil High", note: "", $0) } == .filed)
        #expect(try site.pool.asCaller(other) { try store.file(school: "Good High", note: "", $0) } == .filed)
        let mine = try #require(try site.pool.asCaller(student) { try store.latestOfMine($0) })
        func refusal(_ body: (PostgresConnection) throws -> Void) -> String? {
            do {
                try site.pool.asCaller(student, body)
                return nil
            } catch let error as PostgresError {
                return error.sqlState
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal { _ = try store.decide(mine.id, approve: true, message: nil, $0) } == "42501", "only an admin decides")
        #expect(refusal { try $0.execute("UPDATE teacher_requests SET decision = 'approved', decided_at = now()") } == "42501")
        #expect(refusal { try $0.execute("INSERT INTO teacher_requests (user_id, school, created_at, decision, decided_at) VALUES (\(student.id), 'X', now(), 'approved', now())") } == "42501")
        #expect(refusal { try $0.execute("UPDATE users SET role = 'teacher' WHERE id = \(student.id)") } != nil)
        #expect(try site.pool.asCaller(student) { try $0.query("SELECT count(*) AS n FROM teacher_requests").single().decode("n", as: Int.self) } == 1,
                "a requester sees only their own request")
        #expect(try site.pool.asCaller(nil) { try $0.query("SELECT count(*) AS n FROM teacher_requests").single().decode("n", as: Int.self) } == 0)
        #expect(try site.pool.asCaller(teacher) { try store.file(school: "Again High", note: "", $0) } == .teaches)
        #expect(try site.count("SELECT count(*) AS n FROM teacher_requests") == 2)
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'mallory' AND role = 'student'") == 1)
    }

    @Test("an admin's invitation link makes whoever registers through it a teacher, as many times as it says, until it expires or is revoked; its link is shown once and only its hash kept; a used-up, expired or revoked link says so and leaves a student's account")
    func invitationLinks() throws {
        let site = try PortalSite()
        let (admin, _) = try site.signedInAdmin()
        let queue = try admin.request("GET", "/admin/teachers")
        let form = try #require(PageForm.all(in: queue.bodyText, action: "/admin/teachers/invitations").first)
        let bad = try admin.request("POST", "/admin/teachers/invitations", pairs: form.filled(["school": "", "days": "0", "uses": "900"]))
        #expect(bad.status == 422 && bad.bodyText.contains("Name the school where you teach.") && bad.bodyText.contains("Give a whole number from 1 to 90."))
        let made = try admin.request("POST", "/admin/teachers/invitations", pairs: form.filled(["school": "Riverside High", "days": "7", "uses": "1"]))
        #expect(made.status == 200 && made.bodyText.contains("it is shown this once"))
        let link = try #require(made.bodyText.range(of: #"/register\?invite=[A-Za-z0-9_-]{43}"#, options: .regularExpression).map { String(made.bodyText[$0]) })
        let token = String(link.dropFirst("/register?invite=".count))
        #expect(try site.count("SELECT count(*) AS n FROM teacher_invitations WHERE token_hash = sha256(convert_to(\(token), 'UTF8'))") == 1)
        // The same form sent again shows nothing more and makes no second link.
        #expect(try admin.request("POST", "/admin/teachers/invitations", pairs: form.filled(["school": "Riverside High", "days": "7", "uses": "1"])).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM teacher_invitations") == 1)

        func register(_ name: String) throws -> RawHTTPClient.Response {
            let browser = site.browser()
            let page = try browser.request("GET", link)
            return try browser.request("POST", "/register", pairs: PageForm.all(in: page.bodyText, action: "/register").first!.filled([
                "username": name, "display_name": name.capitalized, "password": "correct horse battery", "password_confirmation": "correct horse battery"]))
        }
        let invited = site.browser()
        let shown = try invited.request("GET", link)
        #expect(shown.bodyText.contains("You are invited to teach at Riverside High"))
        let first = try register("ms.ade")
        #expect(first.status == 303 && redirectLocation(first).hasPrefix("/teach"))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'ms.ade' AND role = 'teacher'") == 1)
        // Used up: the form says so, and an account made anyway stays a student's.
        #expect(try site.browser().request("GET", link).bodyText.contains("has been used as many times as it allows"))
        let late = site.browser()
        let plain = try late.request("GET", "/register")
        let second = try late.request("POST", "/register", pairs: PageForm.all(in: plain.bodyText, action: "/register").first!.filled([
            "username": "mr.bo", "display_name": "Mr Bo", "password": "correct horse battery", "password_confirmation": "correct horse battery",
            "invite": token]))
        #expect(second.status == 303 && redirectLocation(second) == "/me/teaching?invitation=used")
        #expect(try late.request("GET", redirectLocation(second)).bodyText.contains("could not make you a teacher"))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'mr.bo' AND role = 'teacher'") == 0)

        // Expired, and revoked.
        let another = try admin.request("POST", "/admin/teachers/invitations", pairs:
            PageForm.all(in: try admin.request("GET", "/admin/teachers").bodyText, action: "/admin/teachers/invitations").first!.filled(["school": "Hill School", "days": "1", "uses": "5"]))
        let later = try #require(another.bodyText.range(of: #"/register\?invite=[A-Za-z0-9_-]{43}"#, options: .regularExpression).map { String(another.bodyText[$0]) })
        site.clock.advance(2 * 86_400)
        #expect(try site.browser().request("GET", later).bodyText.contains("has expired"))
        let id = try site.admin { try $0.query("SELECT id FROM teacher_invitations WHERE school = 'Hill School'").single().decode("id", as: UUID.self) }
        #expect(try admin.request("POST", "/admin/teachers/invitations/\(id.uuidString.lowercased())/revoke", form: ["csrf_token": "csrf-chief"]).status == 303)
        #expect(try site.browser().request("GET", later).bodyText.contains("was withdrawn"))
        #expect(try admin.request("GET", "/admin/audit").bodyText.contains("registered through the invitation to teach at Riverside High"))

        // Straight to the database: nobody but an admin lists or makes invitations.
        let student = try site.database.makeAccount("pia")
        #expect(try site.pool.asCaller(student) { try $0.query("SELECT count(*) AS n FROM teacher_invitations").single().decode("n", as: Int.self) } == 0)
        var refused = false
        do {
            _ = try site.pool.asCaller(student) { try TeacherInvitationStore().create(school: "Mine", tokenHash: Array(repeating: 1, count: 32), expiresAt: Date().addingTimeInterval(86_400), uses: 500, at: Date(), $0) }
        } catch let error as PostgresError {
            refused = error.sqlState == "42501"
        }
        #expect(refused)
        let check = try HTMLChecker.passes([("queue with invitations", queue.body), ("made", made.body), ("invited", shown.body)])
        #expect(check.passed, "see \(check.folder)")
    }
}
