import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import TestSupport
import Testing

/// Who may enter is declared once per route group; this holds every registered route to its
/// group's rule over HTTP, so a route cannot be added without one.
@Suite("Route rules")
struct RouteRuleTests {
    /// A path for a pattern, its parameters filled with values that match nothing in particular.
    static func path(_ pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            switch segment {
            case ":region": MiniExam.region
            case ":exam": MiniExam.exam
            case ":code": "ZZZZZZ"
            case ":token": String(repeating: "t", count: 43)
            case ":file": "\(MiniExam.exam).1.json"
            default: segment.hasPrefix(":") ? UUID().uuidString.lowercased() : String(segment)
            }
        }.joined(separator: "/")
    }

    @Test("every registered route has one rule, the areas keep their doors (admin pages for admins, teaching pages for teachers, a student's own pages for the signed-in), and each rule holds over HTTP for visitors, students and teachers")
    func everyRouteHasItsRule() throws {
        let site = try StudySessionTests.Site()
        let table = site.application.routeTable()
        // The portal has nearly a hundred routes; a table much smaller lost a group of them.
        #expect(table.count >= 90)
        var seen = Set<String>()
        for rule in table {
            let what = "\(rule.method) \(rule.pattern)"
            #expect(seen.insert(what).inserted, "\(what) has two rules")
            if rule.pattern.hasPrefix("/admin") { #expect(rule.access == "admin", "\(what) is open to \(rule.access)") }
            if rule.pattern.hasPrefix("/teach") { #expect(rule.access == "teacher", "\(what) is open to \(rule.access)") }
            if rule.pattern == "/me" || rule.pattern.hasPrefix("/me/") || rule.pattern.hasPrefix("/api/progress") {
                #expect(rule.access == "signedIn", "\(what) is open to \(rule.access)")
            }
        }
        let (student, _, _) = try SchoolTests.account(site, "student", role: "student")
        let (teacher, _, _) = try SchoolTests.account(site, "teacher", role: "teacher")
        for rule in table {
            let path = Self.path(rule.pattern)
            let what = "\(rule.method) \(rule.pattern)"
            // No token is sent: the rule answers before CSRF is even looked at.
            let visitor = try site.browser().request(rule.method, path, form: rule.method == "POST" ? [:] : nil)
            switch rule.access {
            case "signedIn", "teacher":
                if rule.answersWithProblem {
                    #expect(visitor.status == 401, "\(what): a visitor is told to sign in")
                } else {
                    #expect(visitor.status == 303 && (visitor.header("Location") ?? "").hasPrefix("/login?next="), "\(what): a visitor is sent to sign in")
                }
                if rule.access == "teacher" {
                    #expect(try student.request(rule.method, path, form: rule.method == "POST" ? [:] : nil).status == 404, "\(what): nothing here for a student")
                }
            case "admin":
                for browser in [site.browser(), student, teacher] {
                    #expect(try browser.request(rule.method, path, form: rule.method == "POST" ? [:] : nil).status == 404, "\(what): nothing here")
                }
            case "anyone", "monitoring":
                #expect(visitor.status != 500, "\(what): never a 500 for a visitor")
            default:
                Issue.record("\(what) has an unknown rule \(rule.access)")
            }
        }
    }
}
