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
}
