import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// The pages' colour scheme: the device's preference until an account chooses light or dark.
@Suite("Appearance", .onTestThreads)
struct AppearanceTests {
    typealias Site = PortalSite

    /// The media query a page loads the dark sheet with ("" when the page does not load it).
    func darkMedia(_ browser: Browser, _ path: String) throws -> String {
        let body = try browser.request("GET", path).bodyText
        guard let range = body.range(of: #"<link rel="stylesheet" href="/css/dark.css" media=""#) else { return "" }
        return String(body[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("a student's colour scheme follows their device until they choose light or dark; the choice reaches every page they open at once, kept ones too, and no one else's; an unknown scheme is refused with a message")
    func chosenScheme() throws {
        let site = try Site()
        let device = "(prefers-color-scheme: dark)"
        let exam = "/exams/\(MiniExam.region)/\(MiniExam.exam)"
        let visitor = site.browser()
        #expect(try darkMedia(visitor, "/") == device)
        let sheet = try visitor.request("GET", "/css/dark.css")
        #expect(sheet.status == 200 && sheet.bodyText.contains("color-scheme: dark"))

        let student = site.browser(), other = site.browser()
        _ = try student.register("ada")
        _ = try other.register("grace")
        // Kept before the choice: the dashboard and the exam page as the student sees them.
        #expect(try darkMedia(student, "/me") == device)
        #expect(try darkMedia(student, exam) == device)
        let settings = try student.request("GET", "/me/settings")
        #expect(settings.bodyText.contains(#"<input type="radio" name="color_scheme" value="device" checked>"#))
        let token = student.csrfToken(from: settings)

        let dark = try student.request("POST", "/me/appearance", form: ["csrf_token": token, "color_scheme": "dark"])
        #expect(dark.status == 303)
        #expect(dark.header("Location") == "/me/settings?saved=color_scheme")
        for path in ["/me", exam, "/me/settings", "/"] {
            #expect(try darkMedia(student, path) == "all", "\(path)")
        }
        #expect(try student.request("GET", "/me/settings").bodyText.contains(#"value="dark" checked>"#))
        #expect(try darkMedia(other, "/me") == device)

        #expect(try student.request("POST", "/me/appearance", form: ["csrf_token": token, "color_scheme": "light"]).status == 303)
        #expect(try darkMedia(student, "/me") == "not all")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'ada' AND color_scheme = 'light'") == 1)

        let refused = try student.request("POST", "/me/appearance", form: ["csrf_token": token, "color_scheme": "purple"])
        #expect(refused.status == 422)
        #expect(refused.bodyText.contains("Choose one of the colour schemes offered"))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'ada' AND color_scheme = 'light'") == 1)
        // The database keeps to the three schemes whoever writes.
        #expect(throws: PostgresError.self) {
            try site.admin { try $0.execute("UPDATE users SET color_scheme = 'purple' WHERE username = 'ada'") }
        }
    }

    @Test("a reader hides the readings over words (ruby) from settings: every page they open says so, kept ones too, a teacher's kept class page as well; ticked off, they show again; no one else's pages change")
    func hiddenReadings() throws {
        let site = try Site()
        let exam = "/exams/\(MiniExam.region)/\(MiniExam.exam)"
        let (teacher, _, csrf) = try site.account("sensei", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let other = site.browser()
        _ = try other.register("hana")
        let hides = { (browser: Browser, path: String) in try browser.request("GET", path).bodyText.contains(#"<body class="hide-readings">"#) }
        // Kept before the choice.
        for path in ["/me", exam, "/teach/classes/\(classID)"] { #expect(try !hides(teacher, path)) }
        let settings = try teacher.request("GET", "/me/settings").bodyText
        #expect(settings.contains(#"<input type="checkbox" name="hides_readings" aria-describedby="readings-hint">"#))
        let saved = try teacher.request("POST", "/me/settings", form: ["csrf_token": csrf, "color_scheme": "device", "hides_readings": "on"])
        #expect(saved.status == 303 && saved.header("Location") == "/me/settings?saved=hides_readings")
        for path in ["/me", exam, "/teach/classes/\(classID)", "/me/settings"] { #expect(try hides(teacher, path), "\(path)") }
        #expect(try teacher.request("GET", "/me/settings").bodyText.contains(#"name="hides_readings" aria-describedby="readings-hint" checked>"#))
        #expect(try !hides(other, "/me"))
        // The appearance section sent without the box: readings show again.
        #expect(try teacher.request("POST", "/me/settings", form: ["csrf_token": csrf, "color_scheme": "device"]).status == 303)
        for path in ["/me", "/teach/classes/\(classID)"] { #expect(try !hides(teacher, path), "\(path)") }
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'sensei' AND NOT hides_readings") == 1)
    }
}
