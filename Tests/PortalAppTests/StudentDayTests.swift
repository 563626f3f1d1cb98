import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// The student's own day from the first visit, and a settings page whose one Save keeps every
/// edit on it.
@Suite("The student's day and settings", .onTestThreads)
struct StudentDayTests {
    func zone(_ site: PortalSite, _ username: String) throws -> (zone: String, confirmed: Bool) {
        try site.admin {
            let row = try $0.query("SELECT time_zone, time_zone_confirmed FROM users WHERE username = \(username)").single()
            return (try row.decode("time_zone", as: String.self), try row.decode("time_zone_confirmed", as: Bool.self))
        }
    }

    @Test("registering takes the zone the form sends (the browser's, or the language's likeliest without script); a zone never confirmed is asked once on the dashboard, and answering it ends the question")
    func zoneFromTheFirstVisit() throws {
        let site = try PortalSite()
        // A browser in Tokyo: the script chose its zone in the list.
        let tokyo = site.browser()
        tokyo.cookies["portal_lang"] = "ja"
        let form = try tokyo.request("GET", "/register")
        #expect(form.bodyText.contains(#"<option value="Asia/Tokyo" selected>"#), "the language's likeliest zone, chosen without script")
        try tokyo.register("hanako", timeZone: "Asia/Tokyo")
        #expect(try zone(site, "hanako") == ("Asia/Tokyo", true))
        let dashboard = try tokyo.request("GET", "/me").bodyText
        #expect(!dashboard.contains("zone-prompt"))

        // A form that sent no zone (or one PostgreSQL does not know): UTC, asked on the dashboard.
        let plain = site.browser()
        let page = try plain.request("GET", "/register")
        let made = try plain.request("POST", "/register", form: [
            "csrf_token": plain.csrfToken(from: page), "username": "kenji", "display_name": "Kenji", "time_zone": "Mars/Olympus_Mons",
            "password": "correct horse battery", "password_confirmation": "correct horse battery"])
        #expect(made.status == 303)
        #expect(try zone(site, "kenji") == ("UTC", false))
        let asked = try plain.request("GET", "/me")
        #expect(asked.bodyText.contains("Which time zone are you in?"))
        #expect(asked.bodyText.contains("Welcome, Kenji.") && !asked.bodyText.contains("Welcome back"), "greeted as new right after signing up")
        let check = try HTMLChecker.passes([("zone asked", asked.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // Keeping UTC answers it too; the dashboard asks no more.
        let kept = try plain.request("POST", "/me/settings", form: ["csrf_token": plain.csrfToken(from: asked), "time_zone": "UTC", "return": "dashboard"])
        #expect(kept.status == 303 && kept.header("Location") == "/me")
        #expect(try zone(site, "kenji") == ("UTC", true))
        #expect(!(try plain.request("GET", "/me").bodyText.contains("Which time zone are you in?")))
        #expect(try site.count("SELECT count(*)::int AS n FROM users WHERE username = 'kenji' AND display_name = 'Kenji'") == 1, "nothing else changed")
    }

    @Test("signing in takes the browser's zone for an account whose zone was never confirmed, and never overrides one the student chose")
    func zoneAtSignIn() throws {
        let site = try PortalSite()
        // Registered by a form that named no zone (as before this page asked).
        let first = site.browser()
        let page = try first.request("GET", "/register")
        #expect(try first.request("POST", "/register", form: [
            "csrf_token": first.csrfToken(from: page), "username": "aiko", "display_name": "Aiko",
            "password": "correct horse battery", "password_confirmation": "correct horse battery"]).status == 303)
        #expect(try zone(site, "aiko") == ("UTC", false))
        let browser = site.browser()
        #expect(try browser.submit("/login", to: "/login", ["username": "aiko", "password": "correct horse battery", "browser_zone": "Asia/Bangkok"]).status == 303)
        #expect(try zone(site, "aiko") == ("Asia/Bangkok", true))
        let elsewhere = site.browser()
        #expect(try elsewhere.submit("/login", to: "/login", ["username": "aiko", "password": "correct horse battery", "browser_zone": "Europe/Rome"]).status == 303)
        #expect(try zone(site, "aiko") == ("Asia/Bangkok", true), "a confirmed zone stays")
    }

    @Test("two edits and one Save keep both, the confirmation naming them; a refused field comes back beside itself with every other edit kept and nothing saved")
    func oneSaveKeepsEveryEdit() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("mara")
        let page = try browser.request("GET", "/me/settings")
        #expect(page.bodyText.components(separatedBy: #"action="/me/settings""#).count - 1 == 1, "one form for every setting")
        var fields = [
            "csrf_token": browser.csrfToken(from: page), "display_name": "Mara K.", "time_zone": "UTC",
            "language": "", "color_scheme": "device", "desired_retention": "0.90",
        ]
        fields["display_name"] = "Mara Kovač"
        fields["desired_retention"] = "0.85"
        let saved = try browser.request("POST", "/me/settings", form: fields)
        #expect(saved.status == 303)
        let after = try browser.request("GET", try #require(saved.header("Location"))).bodyText
        #expect(after.contains("Saved: display name, how much to remember."), "\(after.prefix(3000))")
        #expect(after.contains(#"value="Mara Kovač""#) && after.contains(#"<option value="0.85" selected>"#))
        #expect(try site.count("SELECT count(*)::int AS n FROM users WHERE username = 'mara' AND display_name = 'Mara Kovač' AND desired_retention = 0.85") == 1)

        // A name of spaces and a new scheme: the name refused beside its field, the scheme kept on the form, nothing saved.
        fields["display_name"] = "   "
        fields["color_scheme"] = "dark"
        fields["desired_retention"] = "0.95"
        let refused = try browser.request("POST", "/me/settings", form: fields)
        #expect(refused.status == 422)
        #expect(refused.bodyText.contains(#"id="display-name-error""#))
        #expect(refused.bodyText.contains(#"value="dark" checked>"#) && refused.bodyText.contains(#"<option value="0.95" selected>"#))
        #expect(try site.count("SELECT count(*)::int AS n FROM users WHERE username = 'mara' AND color_scheme = 'device' AND desired_retention = 0.85") == 1)
        let check = try HTMLChecker.passes([("settings", page.body), ("settings refused", refused.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // Sent again unchanged: nothing saved, and it says so.
        fields["display_name"] = "Mara Kovač"
        fields["color_scheme"] = "device"
        fields["desired_retention"] = "0.85"
        let unchanged = try browser.request("POST", "/me/settings", form: fields)
        #expect(try browser.request("GET", try #require(unchanged.header("Location"))).bodyText.contains("Nothing had changed"))
    }
}
