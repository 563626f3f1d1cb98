import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Retention as the background job applies it: after `GUEST_RETENTION_DAYS` a guest's practice
/// and its answers are gone, and so are accounts registered and never used; a student who
/// studied, a teacher's pupils and anything younger stay. The database never purges anything
/// younger than 30 days, whoever asks.
@Suite("Retention", .onTestThreads)
struct RetentionTests {
    @Test("a guest's practice and a never-used account go after 30 days; used accounts, teacher-made ones and younger data stay, even when a hijacked app asks for less")
    func purge() throws {
        let site = try PortalSite()
        // A guest practises one question.
        let guest = site.browser()
        let (_, path) = try startSession(guest, count: "2")
        let form = try QuestionForm(try guest.request("GET", path))
        #expect(try guest.request("POST", path + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        // One account registers and never studies; another studies; a teacher makes a third.
        try site.browser().register("idle")
        let busy = site.browser()
        try busy.register("busy")
        _ = try startSession(busy, count: "2")
        let (teacher, _, csrf) = try site.account("tess", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        #expect(try teacher.submit("/teach/classes/\(classID)/accounts", to: "/teach/classes/\(classID)/accounts", ["names": "Pupil One"]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE made_by IS NOT NULL") == 1)
        let accounts = try site.count("SELECT count(*) AS n FROM users")

        site.clock.advance(29 * 86_400)
        #expect(site.application.purgeExpiredData() == 0, "nothing is 30 days old yet")
        // A hijacked app asking for a one-day retention gets the database's floor of 30 days.
        let asked = try site.pool.withConnection { try AccountStore().purgeExpired(days: 1, limit: 1000, $0) }
        #expect(asked.total == 0)

        site.clock.advance(2 * 86_400)
        #expect(site.application.purgeExpiredData() == 2, "the guest's session and the idle account")
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE guest_key IS NOT NULL") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE user_id IS NULL") == 0, "the guest's answers went with the session")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'idle'") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM users") == accounts - 1, "busy, the teacher and the pupil stay")
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'account.deleted' AND details->>'by' = 'retention' AND (details->>'count')::int = 1 AND target = ''") == 1)
        #expect(site.application.purgeExpiredData() == 0)
    }
}
