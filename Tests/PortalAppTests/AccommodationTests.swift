import ExamData
import Foundation
import HTTPServer
import Identifiers
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Extra time for a student's mock exams, given by their teacher: over HTTP, through the
/// database's own deadline, and refused to anyone else.
@Suite("Accommodations", .onTestThreads)
struct AccommodationTests {

    private func accommodationPath(_ classID: String, _ student: UUID) -> String {
        "/teach/classes/\(classID)/members/\(student.lowercasedText)/accommodation"
    }

    @Test("a teacher gives a member 1.5× time and 10 minutes: recorded, shown to both, and the server's deadline keeps to it")
    func extraTime() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let (student, studentID, studentCSRF) = try site.account("pupil", role: "student")
        try student.request("POST", "/join/\(code)", form: ["csrf_token": studentCSRF])
        let path = accommodationPath(classID, studentID)
        for (multiplier, minutes) in [("3", "0"), ("1.5", "-5"), ("1.5", "241"), ("lots", "0"), ("1.5", "ten"), ("", "")] {
            let refused = try teacher.request("POST", path, form: ["csrf_token": csrf, "multiplier": multiplier, "extra_minutes": minutes])
            #expect(refused.status == 422, "\(multiplier) × and \(minutes) minutes got \(refused.status)")
            #expect(refused.bodyText.contains("between 0 and 240 extra minutes"))
        }
        #expect(try site.count("SELECT count(*) AS n FROM accommodations") == 0)
        let saved = try teacher.request("POST", path, form: ["csrf_token": csrf, "multiplier": "1.5", "extra_minutes": "10"])
        #expect(saved.status == 303)
        #expect(redirectLocation(saved).hasPrefix("/teach/classes/\(classID)/members/"), "back to the pupil's own page")
        #expect(try teacher.request("GET", redirectLocation(saved)).bodyText.contains("1.5× time, 10 extra minutes"))
        #expect(try site.count("""
            SELECT count(*) AS n FROM audit_log WHERE action = 'accommodation.change' AND actor_name = 'Ms Rossi' AND target = 'pupil'
              AND details->>'multiplier' = '1.5' AND (details->>'extra_minutes')::int = 10 AND (details->>'multiplier_before')::numeric = 1
            """) == 1)
        // The exam allows 60 seconds: with 1.5× and 10 minutes, 690 seconds, 11 whole minutes.
        let exam = try student.request("GET", MiniExam.path).bodyText
        #expect(exam.contains("Your school gives you extra time (1.5× time, 10 extra minutes): a mock exam of this exam allows you 11 minutes."))
        let (_, mock) = try startSession(student, mode: "mock", count: "4")
        #expect(try site.count("SELECT extract(epoch FROM deadline_at - started_at)::int AS n FROM study_sessions WHERE mode = 'mock'") == 690)
        let first = try student.request("GET", mock)
        #expect(first.bodyText.contains("with your extra time"))
        // Past the exam's own limit, inside the extra time: the answer counts.
        site.clock.advance(300)
        let form = try QuestionForm(try student.request("GET", mock + "?q=1"))
        let inTime = try student.request("POST", mock + "/answers", pairs: form.pairs(form.item.key))
        #expect(redirectLocation(inTime) == mock + "?q=2")
        // Past the extended deadline: refused as late, and the session ends at its deadline.
        let second = try QuestionForm(try student.request("GET", mock + "?q=2"))
        site.clock.advance(400)
        let late = try student.request("POST", mock + "/answers", pairs: second.pairs(second.item.key))
        #expect(redirectLocation(late) == mock + "/results?late=1")
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE finished_at = deadline_at") == 1)
        // Taken back: 1× and no minutes remove it, recorded too.
        #expect(try teacher.request("POST", path, form: ["csrf_token": csrf, "multiplier": "1", "extra_minutes": ""]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM accommodations") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'accommodation.change'") == 2)
        #expect(!(try student.request("GET", MiniExam.path).bodyText.contains("extra time")))
    }

    @Test("an admin gives any student extra time from the accounts page, and it is recorded")
    func fromTheAdmin() throws {
        let site = try PortalSite()
        let (admin, _, csrf) = try site.account("chief", role: "admin", displayName: "Chief Editor")
        let (_, pupilID, _) = try site.account("pupil", role: "student")
        let path = "/admin/users/\(pupilID.lowercasedText)/accommodation"
        let refused = try admin.request("POST", path, form: ["csrf_token": csrf, "multiplier": "1.75", "extra_minutes": "0", "q": "pupil"])
        #expect(refused.status == 422 && refused.bodyText.contains("between 0 and 240 extra minutes"))
        let saved = try admin.request("POST", path, form: ["csrf_token": csrf, "multiplier": "2", "extra_minutes": "15", "q": "pupil", "username": "pupil"])
        #expect(redirectLocation(saved) == "/admin/users?q=pupil&changed=pupil")
        #expect(try admin.request("GET", "/admin/users?q=pupil").bodyText.contains("2× time, 15 extra minutes"))
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'accommodation.change' AND actor_name = 'Chief Editor' AND target = 'pupil'") == 1)
        #expect(try admin.request("POST", "/admin/users/\(UUID().lowercasedText)/accommodation", form: ["csrf_token": csrf, "multiplier": "2"]).status == 404)
    }

    @Test("extra time is only for a teacher's current students or from an admin; nobody writes it directly")
    func onlyTheirTeacher() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (other, _, otherCSRF) = try site.account("otherteacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let (otherClassID, _) = try makeClass(other, csrf: otherCSRF, name: "Other class")
        let (member, memberID, memberCSRF) = try site.account("member", role: "student")
        let (_, outsiderID, _) = try site.account("outsider", role: "student")
        try member.request("POST", "/join/\(code)", form: ["csrf_token": memberCSRF])
        let form = ["multiplier": "2", "extra_minutes": "30"]
        // Over HTTP: a student not in the class, another teacher's class, a student's own request.
        #expect(try teacher.request("POST", accommodationPath(classID, outsiderID), form: form.merging(["csrf_token": csrf]) { $1 }).status == 404)
        #expect(try other.request("POST", accommodationPath(classID, memberID), form: form.merging(["csrf_token": otherCSRF]) { $1 }).status == 404)
        #expect(try other.request("POST", accommodationPath(otherClassID, memberID), form: form.merging(["csrf_token": otherCSRF]) { $1 }).status == 404)
        #expect(try member.request("POST", accommodationPath(classID, memberID), form: form.merging(["csrf_token": memberCSRF]) { $1 }).status == 404)
        // Straight to the database as portal_app: the function refuses a teacher who does not
        // teach the student and a student, and the table takes no writes from anyone.
        let pool = site.database.appPool()
        for caller in [try site.database.makeAccount("third", role: "teacher"), try site.database.makeAccount("pupil2")] {
            let refused = #expect(throws: PostgresError.self) {
                try pool.asCaller(caller) { try SchoolStore().setAccommodation(student: memberID, Accommodation(multiplier: 2, extraMinutes: 0), $0) }
            }
            #expect(refused?.isInsufficientPrivilege == true)
            let written = #expect(throws: PostgresError.self) {
                try pool.asCaller(caller) { try $0.execute("INSERT INTO accommodations (student_id, time_multiplier, set_at) VALUES (\(caller.id), 2, now())") }
            }
            #expect(written?.isInsufficientPrivilege == true)
        }
        #expect(try site.count("SELECT count(*) AS n FROM accommodations") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'accommodation.change'") == 0)
    }

    @Test("an assignment may limit attempts: the next start is refused with a plain answer, an extra attempt from the teacher opens one more")
    func attempts() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let (student, studentID, studentCSRF) = try site.account("pupil", role: "student")
        try student.request("POST", "/join/\(code)", form: ["csrf_token": studentCSRF])
        for bad in ["0", "21", "many", "-1"] {
            let refused = try teacher.request("POST", "/teach/links", pairs: [
                ("csrf_token", csrf), ("region", MiniExam.region), ("exam", MiniExam.exam), ("title", "Quiz"), ("mode", "practice"), ("count", "2"),
                ("attempts", bad),
            ])
            #expect(refused.status == 400, "\(bad): \(refused.status)")
            #expect(refused.bodyText.contains("Attempts each must be a number from 1 to 20"))
        }
        let token = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("attempts", "1")])
        #expect(try teacher.request("GET", "/teach/classes/\(classID)").bodyText.contains("1 attempt each"))
        let share = "/s/\(token)"
        // A second tab shows the form too, before the attempt is used (its own one-time token).
        let otherTab = try student.request("GET", share)
        #expect(otherTab.bodyText.contains("You have used 0 of your 1 attempt."))
        #expect(try student.submit(share, to: share + "/start", [:]).status == 303)
        let usedPage = try student.request("GET", share)
        let used = usedPage.bodyText
        let check = try HTMLChecker.passes([("share page", usedPage.body), ("class page", try teacher.request("GET", "/teach/classes/\(classID)").body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        #expect(used.contains("You have used your 1 attempt at this assignment. Ask your teacher if you need another."))
        #expect(!used.contains(share + "/start"))
        let again = try student.request("POST", share + "/start", form: [
            "csrf_token": student.csrfToken(from: otherTab), "form_token": student.formToken(from: otherTab)])
        #expect(again.status == 409)
        #expect(again.bodyText.contains("Ask your teacher if you need another."))
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE share_link_id IS NOT NULL") == 1)

        // Straight to the database as the student: the table admits no session past the limit.
        let pool = site.database.appPool(maxConnections: 1)
        let account = try site.database.makeAccount("pupil-direct", role: "student")
        try student.request("POST", "/join/\(code)", form: ["csrf_token": studentCSRF])
        let linkID = try site.admin { try $0.query("SELECT id FROM share_links").single().decode("id", as: UUID.self) }
        let examID = try site.admin { try $0.query("SELECT id FROM exams WHERE slug = \(MiniExam.exam)").single().decode("id", as: Int.self) }
        func insert(_ caller: TestAccount) throws {
            try pool.asCaller(caller) { connection in
                var session = NewStudySession(
                    userID: caller.id, examID: examID, mode: .practice, config: [:], questionIDs: [MiniExam.items[0].id], startedAt: site.clock.read())
                session.shareLinkID = linkID
                _ = try StudyStore().create(session, connection)
            }
        }
        try insert(account)
        let refused = #expect(throws: PostgresError.self) { try insert(account) }
        #expect(refused?.isCheckViolation == true)
        #expect(refused?.message.contains("no attempts left") == true)

        // One extra attempt, from the teacher: one more start, and then no more.
        let saved = try teacher.request("POST", accommodationPath(classID, studentID), form: [
            "csrf_token": csrf, "multiplier": "1", "extra_minutes": "0", "extra_attempts": "1",
        ])
        #expect(saved.status == 303)
        #expect(try teacher.request("GET", redirectLocation(saved)).bodyText.contains("1 extra attempt"))
        let exam = try student.request("GET", MiniExam.path).bodyText
        #expect(!exam.contains("Your school gives you extra time"))
        let showing = try student.request("GET", share)
        #expect(showing.bodyText.contains("You have used 1 of your 2 attempts."))
        #expect(try student.submit(share, to: share + "/start", [:]).status == 303)
        #expect(try student.request("POST", share + "/start", form: [
            "csrf_token": student.csrfToken(from: showing), "form_token": student.formToken(from: showing)]).status == 409)
        #expect(try site.count("""
            SELECT count(*) AS n FROM audit_log WHERE action = 'accommodation.change' AND (details->>'extra_attempts')::int = 1
            """) == 1)
        for bad in ["6", "-1", "two"] {
            let refusedForm = try teacher.request("POST", accommodationPath(classID, studentID), form: [
                "csrf_token": csrf, "multiplier": "1", "extra_minutes": "0", "extra_attempts": bad,
            ])
            #expect(refusedForm.status == 422, "\(bad)")
        }
    }

    @Test("read-aloud: off at first; a student turns it on in settings, or their teacher gives it as an accommodation (audited), and every question page offers it in the question's language; either way off, it is gone")
    func readAloud() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let (pupil, pupilID, pupilCSRF) = try site.account("pia", role: "student")
        #expect(try pupil.request("POST", "/join/\(code)", form: ["csrf_token": pupilCSRF]).status == 303)
        let (_, path) = try startSession(pupil, mode: "practice")
        let offers = { try pupil.request("GET", path).bodyText.contains(#"<div id="read-aloud" data-language="en""#) }
        #expect(try !offers())
        // The student's own setting.
        #expect(try pupil.request("POST", "/me/settings", form: ["csrf_token": pupilCSRF, "color_scheme": "device", "reads_aloud": "on"]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'pia' AND reads_aloud") == 1)
        #expect(try offers())
        #expect(try pupil.request("GET", path).bodyText.contains(#"<script src="/js/read-aloud.js" defer></script>"#))
        #expect(try pupil.request("POST", "/me/settings", form: ["csrf_token": pupilCSRF, "color_scheme": "device"]).status == 303)
        #expect(try !offers())
        // The teacher's accommodation, from the pupil's page in the class.
        let member = "/teach/classes/\(classID)/members/\(pupilID.uuidString.lowercased())"
        let form = try #require(PageForm.all(in: try teacher.request("GET", member).bodyText, action: member + "/accommodation").first)
        #expect(try teacher.request("POST", member + "/accommodation", pairs: form.filled(["reads_aloud": "on"])).status == 303)
        #expect(try offers(), "the accommodation reaches the pupil's next page at once")
        #expect(try teacher.request("GET", member).bodyText.contains("questions read aloud"))
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'accommodation.change' AND details->>'reads_aloud' = 'true'") == 1)
        let again = try #require(PageForm.all(in: try teacher.request("GET", member).bodyText, action: member + "/accommodation").first)
        #expect(try teacher.request("POST", member + "/accommodation", pairs: again.filled([:]).filter { $0.0 != "reads_aloud" }).status == 303)
        #expect(try !offers())
        #expect(try site.count("SELECT count(*) AS n FROM accommodations") == 0, "nothing left to accommodate")
    }
}
