import ExamData
import Foundation
import HTTPServer
import PortalApp
import PostgresClient
import Synchronization
import PortalTestSupport
import TestSupport
import Testing

@Suite("Accounts and sessions over HTTP", .onTestThreads)
struct AccountTests {
    /// A portal on an empty catalogue: accounts need none.
    func site(https: Bool = false) throws -> PortalSite { try PortalSite(content: .nothing, https: https) }

    @Test("registering signs in with a cookie of exactly these attributes, and the settings page shows the account")
    func registerAndCookie() throws {
        let site = try site()
        let browser = site.browser()
        let response = try browser.register("hanako")
        #expect(response.status == 303)
        let cookie = try #require(response.headers.first { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("portal_session=") }?.1)
        let token = String(cookie.split(separator: ";")[0].dropFirst("portal_session=".count))
        #expect(token.count == 43)
        #expect(cookie == "portal_session=\(token); Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax")
        let settings = try browser.request("GET", "/me/settings")
        #expect(settings.status == 200)
        #expect(settings.bodyText.contains("<strong>hanako</strong>"))
        // Only the token's SHA-256 is stored.
        let stored = try database(site).query("SELECT encode(token_hash, 'hex') AS hash FROM auth_sessions").rows.map { try $0.decode("hash", as: String.self) }
        #expect(stored.count == 1 && !stored[0].contains(token))
    }

    @Test("registering and signing in lead to the dashboard, or to the page that asked for it; never off the site")
    func landing() throws {
        let site = try site()
        let browser = site.browser()
        let registered = try browser.register("lander")
        #expect(registered.header("Location")?.hasSuffix("/me") == true, "\(registered.header("Location") ?? "")")
        let again = site.browser()
        #expect(try again.login("lander").header("Location")?.hasSuffix("/me") == true)
        let asked = try site.browser().submit("/login?next=/me/settings", to: "/login", ["username": "lander", "password": "correct horse battery", "next": "/me/settings"])
        #expect(asked.header("Location")?.hasSuffix("/me/settings") == true)
        let outside = try site.browser().submit("/login", to: "/login", ["username": "lander", "password": "correct horse battery", "next": "//evil.example/"])
        #expect(outside.header("Location")?.hasSuffix("/me") == true && outside.header("Location")?.contains("evil") == false)
    }

    @Test("'Create an account' and 'Sign in' from the header come back to the page they were followed from (a page of this site only), and link each other keeping it")
    func keepsThePage() throws {
        let site = try site()
        let visitor = site.browser()
        let form = try visitor.request("GET", "/register", extraHeaders: "Referer: http://127.0.0.1:\(site.server.port)/privacy?section=2\r\n")
        #expect(visitor.hiddenValue("next", from: form) == "/privacy?section=2")
        #expect(form.bodyText.contains(#"<a href="/login?next=/privacy%3Fsection%3D2">"#), "the sign-in link keeps it too")
        let registered = try visitor.request("POST", "/register", form: [
            "csrf_token": visitor.csrfToken(from: form), "username": "returner", "display_name": "Returner", "password": "correct horse battery",
            "password_confirmation": "correct horse battery", "time_zone": "UTC", "next": visitor.hiddenValue("next", from: form)])
        #expect(registered.status == 303 && registered.header("Location") == "/privacy?section=2", "\(registered.header("Location") ?? "")")
        // Another site's page, or an account page, is not one to come back to.
        let elsewhere = try site.browser().request("GET", "/login", extraHeaders: "Referer: http://evil.example/exams\r\n")
        #expect(site.browser().hiddenValue("next", from: elsewhere) == "/me")
        let fromRegister = try site.browser().request("GET", "/login", extraHeaders: "Referer: http://127.0.0.1:\(site.server.port)/register\r\n")
        #expect(site.browser().hiddenValue("next", from: fromRegister) == "/me")
    }

    @Test("served over HTTPS the cookie is __Host- and Secure")
    func secureCookie() throws {
        let site = try site(https: true)
        let response = try site.browser().register("securestudent")
        let cookie = try #require(response.headers.first { $0.0.lowercased() == "set-cookie" && $0.1.contains("session") }?.1)
        #expect(cookie.hasPrefix("__Host-portal_session="))
        #expect(cookie.hasSuffix("; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax"))
    }

    @Test("a cookie planted before login is never promoted: login issues a new token")
    func sessionFixation() throws {
        let site = try site()
        try site.browser().register("victim")
        let browser = site.browser()
        let planted = String(repeating: "A", count: 43)
        browser.cookies["portal_session"] = planted
        #expect(try browser.login("victim").status == 303)
        #expect(browser.cookies["portal_session"] != planted)
        #expect(try browser.request("GET", "/me/settings").status == 200)
    }

    @Test("after logout the old cookie is worth nothing, even replayed")
    func logoutThenReplay() throws {
        let site = try site()
        let browser = site.browser()
        try browser.register("leaver")
        let old = try #require(browser.cookies["portal_session"])
        let page = try browser.request("GET", "/")
        #expect(try browser.request("POST", "/logout", form: ["csrf_token": browser.csrfToken(from: page)]).status == 303)
        let replay = site.browser()
        replay.cookies["portal_session"] = old
        let settings = try replay.request("GET", "/me/settings")
        #expect(settings.status == 303)
        #expect(settings.header("Location") == "/login?next=/me/settings")
    }

    @Test("sessions end after a week idle and after 30 days however active")
    func expiry() throws {
        let site = try site()
        let browser = site.browser()
        try browser.register("sleeper")
        site.clock.advance(6 * 24 * 3600)
        #expect(try browser.request("GET", "/me/settings").status == 200)
        site.clock.advance(8 * 24 * 3600)
        #expect(try browser.request("GET", "/me/settings").status == 303)

        let active = site.browser()
        try active.login("sleeper")
        for _ in 0..<6 {
            site.clock.advance(5 * 24 * 3600)
            #expect(try active.request("GET", "/me/settings").status == 200)
        }
        site.clock.advance(1 * 24 * 3600)
        #expect(try active.request("GET", "/me/settings").status == 303)
    }

    @Test("unsafe requests without the right CSRF token or from another origin are refused and change nothing")
    func csrf() throws {
        let site = try site()
        let browser = site.browser()
        try browser.register("careful")
        let noToken = try browser.request("POST", "/me/settings", form: ["display_name": "Hacked", "time_zone": "UTC"])
        #expect(noToken.status == 403)
        let wrong = try browser.request("POST", "/me/settings", form: ["display_name": "Hacked", "time_zone": "UTC", "csrf_token": String(repeating: "x", count: 43)])
        #expect(wrong.status == 403)
        let token = browser.csrfToken(from: try browser.request("GET", "/me/settings"))
        browser.origin = "https://evil.example"
        #expect(try browser.request("POST", "/me/settings", form: ["display_name": "Hacked", "time_zone": "UTC", "csrf_token": token]).status == 403)
        browser.origin = nil
        #expect(!(try browser.request("GET", "/me/settings").bodyText.contains("Hacked")))
        #expect(try browser.request("POST", "/me/settings", form: ["display_name": "Still me", "time_zone": "Asia/Tokyo", "csrf_token": token]).status == 303)
        #expect(try browser.request("GET", "/me/settings").bodyText.contains("Still me"))
    }

    @Test("the time zone is chosen from a list grouped by region; a city typed by hand is understood; a refusal keeps what was typed")
    func timeZoneChoice() throws {
        let site = try site()
        let browser = site.browser()
        try browser.register("traveller")
        let page = try browser.request("GET", "/me/settings")
        let token = browser.csrfToken(from: page)
        #expect(page.bodyText.contains("<select id=\"time-zone\" name=\"time_zone\""))
        #expect(page.bodyText.contains("<optgroup label=\"Asia\">"))
        #expect(page.bodyText.contains("<option value=\"Asia/Tokyo\">Tokyo</option>"))
        #expect(page.bodyText.contains("<option value=\"America/Argentina/Buenos_Aires\">Argentina / Buenos Aires</option>"))
        #expect(page.bodyText.contains("<option value=\"UTC\" selected>UTC</option>"))

        // "Tokyo" typed by hand (a script-less client) is the one zone named after it.
        #expect(try browser.request("POST", "/me/settings", form: ["display_name": "Traveller", "time_zone": "Tokyo", "csrf_token": token]).status == 303)
        #expect(try browser.request("GET", "/me/settings").bodyText.contains("<option value=\"Asia/Tokyo\" selected>Tokyo</option>"))

        // A zone that does not exist: the form comes back with the new name still in it, the
        // error beside the zone, and nothing saved.
        let refused = try browser.request("POST", "/me/settings", form: [
            "display_name": "Globetrotter", "time_zone": "Mars/Olympus_Mons", "csrf_token": token, "show_on_leaderboard": "on",
        ])
        #expect(refused.status == 422)
        #expect(refused.bodyText.contains("value=\"Globetrotter\""))
        #expect(refused.bodyText.contains("Choose a time zone from the list"))
        let saved = try browser.request("GET", "/me/settings").bodyText
        #expect(saved.contains("value=\"Traveller\"") && !saved.contains("Globetrotter"))
        #expect(saved.contains("<option value=\"Asia/Tokyo\" selected>Tokyo</option>"))
    }

    @Test("failed logins are throttled per account with 429 and Retry-After; unknown and wrong look the same")
    func throttling() throws {
        let site = try site()
        try site.browser().register("target")
        let attacker = site.browser()
        let unknown = try attacker.login("nobody-here", password: "wrong password")
        let wrong = try attacker.login("target", password: "wrong password")
        #expect(unknown.status == 401 && wrong.status == 401)
        let message = "That username and password do not match an account."
        #expect(unknown.bodyText.contains(message) && wrong.bodyText.contains(message))
        for _ in 0..<4 { try attacker.login("target", password: "wrong password") }
        let blocked = try attacker.login("target")
        #expect(blocked.status == 429)
        #expect(Int(blocked.header("Retry-After") ?? "") ?? 0 > 0)
    }

    @Test("a 10 KB junk cookie is just no session")
    func junkCookie() throws {
        let site = try site()
        let browser = site.browser()
        browser.cookies["portal_session"] = String(repeating: "%zz<>", count: 2000)
        let home = try browser.request("GET", "/")
        #expect(home.status == 200)
        #expect(home.bodyText.contains("Sign in"))
    }

    @Test("weak, short and mismatched passwords are refused next to their field; a taken name too")
    func registrationErrors() throws {
        let site = try site()
        let browser = site.browser()
        let weak = try browser.register("someone", password: "password123")
        #expect(weak.status == 422)
        #expect(weak.bodyText.contains("one of the first that attackers try"))
        #expect(try browser.register("someone", password: "short").bodyText.contains("at least 8 characters"))
        let long = try browser.register("someone", password: String(repeating: "x", count: 1025))
        #expect(long.bodyText.contains("at most 1,024 bytes"))
        #expect(try browser.register("Taken").status == 303)
        let taken = try site.browser().register("tAKEN")
        #expect(taken.status == 422)
        #expect(taken.bodyText.contains("That username is taken"))
    }

    @Test("changing the password ends the other sessions; this browser stays signed in")
    func passwordChange() throws {
        let site = try site()
        let laptop = site.browser(), phone = site.browser()
        try laptop.register("mover")
        try phone.login("mover")
        let response = try laptop.submit("/me/settings", to: "/me/password", ["current_password": "correct horse battery", "new_password": "a brand new phrase"])
        #expect(response.status == 303)
        #expect(try laptop.request("GET", "/me/settings").status == 200)
        #expect(try phone.request("GET", "/me/settings").status == 303)
        #expect(try site.browser().login("mover", password: "a brand new phrase").status == 303)
    }

    private func database(_ site: PortalSite) throws -> PostgresConnection {
        let connection = try site.database.adminConnection()
        try connection.execute("SET ROLE portal_auth")
        return connection
    }
}
