import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import TestSupport
import Testing

/// Who may enter is declared once per route group; this holds every registered route to its
/// group's rule over HTTP, so a route cannot be added without one.
@Suite("Route rules", .onTestThreads)
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

    @Test("every route is registered once with its group's rule, the areas keep their doors (admin pages for admins, teaching pages for teachers, a student's own pages for the signed-in), and each rule holds over HTTP for visitors, students and teachers")
    func everyRouteHasItsRule() throws {
        let site = try PortalSite()
        let table = site.application.routeTable()
        // Two routes never claim one address or one name (the features declare them apart).
        var seen = Set<String>(), names = Set<String>()
        for rule in table {
            let what = "\(rule.method) \(rule.pattern)"
            #expect(seen.insert(what).inserted, "\(what) is declared twice")
            #expect(names.insert(rule.name).inserted, "the name \(rule.name) is given to two routes")
            if rule.pattern.hasPrefix("/admin") { #expect(rule.access == "admin", "\(what) is open to \(rule.access)") }
            if rule.pattern.hasPrefix("/teach") { #expect(rule.access == "teacher", "\(what) is open to \(rule.access)") }
            if rule.pattern == "/me" || rule.pattern.hasPrefix("/me/") || rule.pattern.hasPrefix("/api/progress") {
                #expect(rule.access == "signedIn", "\(what) is open to \(rule.access)")
            }
        }
        // Each declared route answers at its address: a visitor is never told "method not
        // allowed" or given a static file's 404 where a route is declared.
        let (student, _, _) = try site.account("student", role: "student")
        let (teacher, _, _) = try site.account("teacher", role: "teacher")
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
                    // The teaching area's own page tells a student how to become a teacher (403);
                    // every other teaching address is nothing to a student.
                    let expected = rule.method == "GET" && path == "/teach" ? 403 : 404
                    #expect(try student.request(rule.method, path, form: rule.method == "POST" ? [:] : nil).status == expected, "\(what): nothing here for a student")
                }
            case "admin":
                for browser in [site.browser(), student, teacher] {
                    #expect(try browser.request(rule.method, path, form: rule.method == "POST" ? [:] : nil).status == 404, "\(what): nothing here")
                }
            case "anyone", "monitoring":
                #expect(visitor.status != 500 && visitor.status != 405, "\(what): answered, never a 500 for a visitor")
            default:
                Issue.record("\(what) has an unknown rule \(rule.access)")
            }
        }
    }

    @Test("a malformed id in any address that takes one is a 404 before any handler runs, for an admin too")
    func malformedIDsFindNothing() throws {
        let site = try PortalSite()
        let (admin, _, _) = try site.account("admin", role: "admin")
        let typed = site.application.routeTable().filter { $0.pattern.contains("(uuid)") }
        #expect(typed.contains { $0.pattern == "/sessions/:id(uuid)" } && typed.contains { $0.pattern.hasPrefix("/admin/questions/:id(uuid)") })
        for rule in typed {
            for malformed in ["not-a-uuid", "12345", String(repeating: "f", count: 36)] {
                let path = Self.path(rule.pattern).replacingOccurrences(
                    of: #"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, with: malformed, options: .regularExpression)
                let response = try admin.request(rule.method, path, form: rule.method == "POST" ? [:] : nil)
                #expect(response.status == 404, "\(rule.method) \(path): \(response.status)")
            }
        }
    }
}
