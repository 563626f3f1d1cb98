import Foundation

/// The Nu Html Checker over a set of pages, as `make test` installs it.
public enum HTMLChecker {
    /// Writes each page to a folder of its own and runs the checker over it; true when every
    /// page passes. The folder is removed afterwards unless the check fails (to look at it).
    public static func passes(_ pages: [(name: String, body: [UInt8])]) throws -> (passed: Bool, folder: String) {
        guard let validator = ProcessInfo.processInfo.environment["PORTAL_HTML_VALIDATOR"] else {
            throw TestEnvironmentError("PORTAL_HTML_VALIDATOR is not set: run the tests with `make test`, which installs the checker")
        }
        let folder = NSTemporaryDirectory() + "pages-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for page in pages {
            try Data(page.body).write(to: URL(fileURLWithPath: "\(folder)/\(page.name).html"))
        }
        let passed = runCommand([validator, "--root", folder, "--also-check-css"]) == 0
        if passed { try? FileManager.default.removeItem(atPath: folder) }
        return (passed, folder)
    }
}
