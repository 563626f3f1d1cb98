import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import TestSupport
import Testing

/// A form that is refused comes back as the same form: the reason beside the field, what was
/// typed still there, and the reader's own header, never a dead-end error page.
@Suite("Form errors", .onTestThreads)
struct FormErrorTests {
    /// Whether the page's header is the signed-in one (a sign-out button, no "Sign in" link).
    static func hasSignedInHeader(_ page: String) -> Bool {
        page.contains("action=\"/logout\"") && !page.contains("href=\"/login")
    }

    @Test("a refused live nickname comes back on the join form with the nickname typed and the reason")
    func liveNickname() throws {
        let site = try PortalSite(live: true)
        let host = try LiveEvents.teacher(site)
        let code = try LiveEvents.createEvent(site, host: host)
        let first = site.browser()
        let firstToken = first.csrfToken(from: try first.request("GET", "/live/\(code)"))
        #expect(try first.request("POST", "/live/\(code)/join", form: ["csrf_token": firstToken, "nickname": "Aiko"]).status == 303)

        let (student, _, csrf) = try site.account("kenji", role: "student", displayName: "Kenji")
        let long = String(repeating: "k", count: 30)
        let refused = try student.request("POST", "/live/\(code)/join", form: ["csrf_token": csrf, "nickname": long])
        #expect(refused.status == 422)
        #expect(refused.bodyText.contains("value=\"\(long)\""), "the nickname typed is kept")
        #expect(refused.bodyText.contains("class=\"field-error\" id=\"nickname-error\""))
        #expect(refused.bodyText.contains("A nickname has 2 to 24 characters."))
        #expect(refused.bodyText.contains("action=\"/live/\(code)/join\""), "the join form is there to try again")
        #expect(Self.hasSignedInHeader(refused.bodyText))

        let taken = try student.request("POST", "/live/\(code)/join", form: ["csrf_token": csrf, "nickname": "aiko"])
        #expect(taken.status == 409)
        #expect(taken.bodyText.contains("value=\"aiko\""))
        #expect(taken.bodyText.contains("already called “aiko”"))
        #expect(try student.request("POST", "/live/\(code)/join", form: ["csrf_token": csrf, "nickname": "Kenji"]).status == 303,
                "a nickname chosen after a refusal is taken")
    }

    @Test("a wrong class code comes back on the code form, as typed, for a visitor and a signed-in student")
    func classCode() throws {
        let site = try PortalSite()
        let (student, _, _) = try site.account("mei", role: "student", displayName: "Mei")
        let unknown = try student.request("GET", "/join?code=nosuchcd")
        #expect(unknown.status == 303, "a well-formed code goes to its class page first")
        let page = try student.request("GET", redirectLocation(unknown))
        #expect(page.status == 404)
        #expect(page.bodyText.contains("value=\"NOSUCHCD\""))
        #expect(page.bodyText.contains("No class has that join code."))
        #expect(page.bodyText.contains("id=\"join-code-error\""))
        #expect(Self.hasSignedInHeader(page.bodyText), "a signed-in student keeps their own header")

        let malformed = try site.browser().request("GET", "/join?code=" + "AB%21CD")
        #expect(malformed.status == 422)
        #expect(malformed.bodyText.contains("value=\"AB!CD\""))
        #expect(malformed.bodyText.contains("only letters and digits"))
        #expect(malformed.bodyText.contains("href=\"/login"), "a visitor's header offers to sign in")

        let form = try site.browser().request("GET", "/join")
        #expect(form.status == 200)
        #expect(form.bodyText.contains("<label for=\"join-code\">"))
    }

    @Test("an error page keeps a signed-in student's own header")
    func errorPageHeader() throws {
        let site = try PortalSite()
        let (student, _, _) = try site.account("ravi", role: "student", displayName: "Ravi")
        let missing = try student.request("GET", "/exams/\(MiniExam.region)/no-such-exam")
        #expect(missing.status == 404)
        #expect(Self.hasSignedInHeader(missing.bodyText))
        #expect(missing.bodyText.contains("Ravi"))
        #expect(!Self.hasSignedInHeader(try site.browser().request("GET", "/exams/\(MiniExam.region)/no-such-exam").bodyText))
    }

    @Test("a refused import puts the pasted document back in the text box")
    func importKeepsDocument() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let broken = ContentDocuments.document(stem: "", passMark: 140)
        let refused = try admin.submit("/admin/import", to: "/admin/import", ["csrf_token": csrf, "document": broken])
        #expect(refused.status == 422)
        let escaped = broken.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        #expect(refused.bodyText.contains(escaped), "the whole document is back, to be fixed in place")
        #expect(try site.count("SELECT count(*) AS n FROM exams") == 1, "nothing was imported")
    }
}
