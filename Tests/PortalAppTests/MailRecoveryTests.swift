import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// E-mail through a real mail server on loopback (aiosmtpd with STARTTLS and AUTH): an address
/// proved by its link, a forgotten password recovered by a link sent to it, the old address told
/// of a change — every message read back from the server — and nothing about mail offered when
/// the portal has no mail server.
@Suite("Mail: addresses and recovery by e-mail", .onTestThreads)
struct MailRecoveryTests {

    @Test("an address is proved by the link mailed to it; a forgotten password comes back by a link to it, once, ending every other sign-in; the same answer for nobody")
    func recoveryByMail() throws {
        let server = try TestMailServer()
        let site = try MailJourney.site(server)
        let ana = site.browser()
        try ana.register("ana")
        let settings = try ana.request("GET", "/me/settings").bodyText
        #expect(settings.contains(#"<h2 id="email">E-mail address</h2>"#) && settings.contains("No e-mail address yet"))

        // Not an address: said beside the field, nothing sent.
        let refused = try ana.submit("/me/settings", to: "/me/email", ["email": "ana at home"])
        #expect(refused.status == 422 && refused.bodyText.contains("That is not an e-mail address") && refused.bodyText.contains(#"value="ana at home""#))
        let verification = try MailJourney.prove("ana@pupils.example", ana, site, server, expecting: 1)
        #expect(verification?.to == ["ana@pupils.example"] && verification?.header("Subject") == "Confirm your e-mail address")
        #expect(verification?.tls == true && verification?.user == server.username)
        #expect(verification?.part("text/html")?.contains(#"<a href="http://127.0.0.1:\#(site.server.port)/verify-email/"#) == true)
        #expect(try ana.request("GET", "/me/settings").bodyText.contains("Your address is ana@pupils.example"))
        #expect(try site.count("SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NOT NULL AND secret IS NULL AND text_body = ''") == 1,
                "once sent, the outbox keeps neither the token nor the words")

        // Forgotten: asked for by username from another browser; the same page for a name nobody has.
        let forgetful = site.browser()
        let forgot = try forgetful.request("GET", "/forgot")
        #expect(forgot.bodyText.contains("Get a link by e-mail") && forgot.bodyText.contains(#"action="/forgot""#))
        let sent = try forgetful.submit("/forgot", to: "/forgot", ["login": "ana"])
        let nobody = try site.browser().submit("/forgot", to: "/forgot", ["login": "nobody@nowhere.example"])
        #expect(sent.status == 200 && sent.bodyText.contains("Check your e-mail"))
        #expect(nobody.status == sent.status && Self.withoutTokens(nobody.bodyText) == Self.withoutTokens(sent.bodyText), "no account enumeration")
        site.agent!.sendMail()
        let message = server.waitForMessages(2).last
        #expect(server.messages().count == 2, "nothing went for the unknown name")
        #expect(message?.to == ["ana@pupils.example"] && message?.header("Subject") == "Choose a new password")
        #expect(message?.header("Auto-Submitted") == "auto-generated" && message?.header("Content-Language") == "en")
        let path = try #require(MailJourney.link("/reset/", in: message))

        let form = try forgetful.request("GET", path)
        #expect(form.status == 200 && form.bodyText.contains(#"autocomplete="new-password""#))
        let check = try HTMLChecker.passes([("forgot", forgot.body), ("sent", sent.body), ("reset link", form.body), ("settings", try ana.request("GET", "/me/settings").body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        let weak = try forgetful.submit(path, to: path, ["password": "short", "password_confirmation": "short"])
        #expect(weak.status == 422)
        let done = try forgetful.submit(path, to: path, ["password": "a fresh long phrase", "password_confirmation": "a fresh long phrase"])
        #expect(done.status == 303 && done.header("Location") == "/me/settings?password=1")
        #expect(try forgetful.request("GET", "/me").status == 200, "signed in at once")
        #expect(try ana.request("GET", "/me").status == 303, "the other sign-in ended")
        #expect(try site.browser().login("ana", password: "a fresh long phrase").status == 303)
        #expect(try site.browser().login("ana").status != 303, "the old password is gone")
        // Once only.
        let again = try site.browser().request("GET", path)
        #expect(again.status == 410 && again.bodyText.contains("This link no longer works"))
        let replay = try site.browser().request("POST", path, form: ["password": "yet another phrase", "password_confirmation": "yet another phrase"])
        #expect(replay.status != 303)
        // Malformed tokens are not looked up.
        #expect(try site.browser().request("GET", "/reset/not-a-token").status == 410)
    }

    @Test("changing the address tells the old one; removing it does too; an address another account proved first is not taken over")
    func changedAddress() throws {
        let server = try TestMailServer()
        let site = try MailJourney.site(server)
        let ben = site.browser()
        try ben.register("ben")
        _ = try MailJourney.prove("ben@old.example", ben, site, server, expecting: 1)
        _ = try MailJourney.prove("ben@new.example", ben, site, server, expecting: 2)
        site.agent!.sendMail()
        let notice = server.waitForMessages(3).last
        #expect(notice?.to == ["ben@old.example"] && notice?.header("Subject") == "Your e-mail address was changed")
        #expect(notice?.part("text/plain")?.contains("http") == false, "a notice carries no link")

        // Cara asks for Ben's address: the link goes to Ben's mailbox, and opening it adds nothing to Cara.
        let cara = site.browser()
        try cara.register("cara")
        #expect(try cara.submit("/me/settings", to: "/me/email", ["email": "ben@new.example"]).status == 303)
        site.agent!.sendMail()
        let path = try #require(MailJourney.link("/verify-email/", in: server.waitForMessages(4).last))
        let taken = try site.browser().submit(path, to: path, [:])
        #expect(taken.status == 409 && taken.bodyText.contains("Another account already uses this address"))

        let removed = try ben.submit("/me/settings", to: "/me/email/remove", [:])
        #expect(removed.header("Location") == "/me/settings?email=removed#email")
        site.agent!.sendMail()
        #expect(server.waitForMessages(5).last?.to == ["ben@new.example"])
        #expect(try ben.request("GET", "/me/settings").bodyText.contains("No e-mail address yet"))
    }

    @Test("an account a teacher made holds no e-mail: settings say why and offer no address, and the database refuses one")
    func teacherMadeHoldsNoMail() throws {
        let server = try TestMailServer()
        let site = try MailJourney.site(server)
        let (teacher, _, csrf) = try site.account("tina", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let made = try teacher.submit("/teach/classes/\(classID)/accounts", to: "/teach/classes/\(classID)/accounts", ["names": "Pia Young"])
        let (username, code) = try #require(ClassPupils.cards(try teacher.request("GET", redirectLocation(made))).first)
        let pupil = site.browser()
        #expect(try pupil.submit("/reset?first=1", to: "/reset", [
            "first": "1", "username": username, "code": code, "password": "my own long phrase", "password_confirmation": "my own long phrase"]).status == 303)
        let settings = try pupil.request("GET", "/me/settings").bodyText
        #expect(settings.contains("Your teacher made this account, so it keeps no e-mail address") && !settings.contains(#"action="/me/email""#))
        let refused = try pupil.submit("/me/settings", to: "/me/email", ["email": "pia@home.example"])
        #expect(refused.status == 403)
        #expect(try site.count("SELECT count(*) AS n FROM mail_outbox") + site.count("SELECT count(*) AS n FROM email_verifications") == 0)
    }

    @Test("without a mail server nothing offers e-mail and its addresses answer 404")
    func withoutMail() throws {
        let site = try PortalSite()
        let dan = site.browser()
        try dan.register("dan")
        #expect(!(try dan.request("GET", "/me/settings").bodyText.contains(#"id="email""#)))
        #expect(!(try site.browser().request("GET", "/forgot").bodyText.contains(#"action="/forgot""#)))
        #expect(try site.browser().submit("/login", to: "/forgot", ["login": "dan"]).status == 404)
        #expect(try dan.submit("/me/settings", to: "/me/email", ["email": "dan@pupils.example"]).status == 404)
        #expect(try site.browser().request("GET", "/reset/" + String(repeating: "a", count: 64)).status == 404)
        #expect(try site.count("SELECT count(*) AS n FROM mail_outbox") == 0)
    }

    /// A page without its CSRF tokens (which differ per visitor).
    static func withoutTokens(_ page: String) -> String {
        page.replacingOccurrences(of: #"value="[A-Za-z0-9_-]{20,}""#, with: "", options: .regularExpression)
    }
}
