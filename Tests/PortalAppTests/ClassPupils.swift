import ExamData
import Foundation
import PortalApp
@testable import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Pupils of a class as their teacher and the tests meet them: one who registered and joined,
/// and the sign-in cards a teacher prints.
enum ClassPupils {
    /// A registered student (a real password) in a class of `teacher`'s: their browser and id.
    static func pupil(_ site: PortalSite, in code: String, name: String = "pia") throws -> (Browser, UUID) {
        let browser = site.browser()
        try browser.register(name)
        try browser.submit("/join/\(code)", to: "/join/\(code)", [:])
        let id = try site.admin { try $0.query("SELECT id FROM users WHERE username = \(name)").single().decode("id", as: UUID.self) }
        return (browser, id)
    }

    /// What each card on the page says: (username, code).
    static func cards(_ page: RawHTTPClient.Response) -> [(username: String, code: String)] {
        let text = page.bodyText
        var found: [(String, String)] = []
        for card in text.components(separatedBy: #"<li class="signin-card">"#).dropFirst() {
            let fields = card.components(separatedBy: "<dd").dropFirst().map { field in
                String(field.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
            }
            if fields.count >= 2 { found.append((fields[0], fields[1])) }
        }
        return found
    }
}
