import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import RedisClient
import Synchronization
import TestSupport
import Testing

/// A live event's people and steps: a host, an event made from the host's form, one started
/// with a player joined.
enum LiveEvents {
    /// A teacher's signed-in browser, made straight in the database.
    static func teacher(_ site: PortalSite) throws -> Browser {
        let account = try site.database.makeAccount("teacher", role: "teacher", displayName: "Ms Rossi", csrf: "teacher-csrf")
        let browser = site.browser()
        browser.cookies["portal_session"] = account.token
        return browser
    }

    static func createEvent(_ site: PortalSite, host: Browser, count: Int = 3, seconds: Int = 10) throws -> String {
        let form = [
            "csrf_token": "teacher-csrf", "form_token": host.formToken(from: try host.request("GET", "/live/new")), "title": "Friday quiz",
            "exam": "\(MiniExam.region)/\(MiniExam.exam)", "count": String(count), "seconds": String(seconds),
        ]
        let created = try host.request("POST", "/live", form: form)
        #expect(created.status == 303)
        let location = created.header("Location") ?? ""
        // The same form sent again (a double tap, a reload) leads to the same event and makes no second.
        let again = try host.request("POST", "/live", form: form)
        #expect(again.status == 303 && again.header("Location") == location)
        return String(location.split(separator: "/").dropLast().last ?? "")
    }

    /// An event over `count` questions of `exam`, hosted by a teacher, joined by Ada and started.
    static func started(_ site: PortalSite, exam: String, count: Int) throws -> (code: String, player: Browser, token: String) {
        let host = try teacher(site)
        let created = try host.request("POST", "/live", form: [
            "csrf_token": "teacher-csrf", "form_token": host.formToken(from: try host.request("GET", "/live/new")), "title": "Event", "exam": exam,
            "count": String(count), "seconds": "10",
        ])
        #expect(created.status == 303)
        let code = String((created.header("Location") ?? "").split(separator: "/").dropLast().last ?? "")
        let player = site.browser()
        let token = player.csrfToken(from: try player.request("GET", "/live/\(code)"))
        #expect(try player.request("POST", "/live/\(code)/join", form: ["csrf_token": token, "nickname": "Ada"]).status == 303)
        #expect(try host.request("POST", "/live/\(code)/start", form: ["csrf_token": "teacher-csrf"]).status == 303)
        return (code, player, token)
    }
}
