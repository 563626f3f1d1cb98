import Foundation
import HTTPServer

/// Stamps `sw.js` with a version made from the files of the app shell it precaches. A browser
/// installs a new service worker only when `sw.js` changes byte for byte; stamping it from the
/// shell's own content means any change to the shell (a script, the style sheet, the offline
/// page's template or its messages) reaches students, and an unchanged shell is not fetched
/// again. The placeholder `__SHELL_VERSION__` in `Public/sw.js` is replaced at start-up.
enum ServiceWorkerScript {
    static let placeholder = "__SHELL_VERSION__"
    /// Replaced by the languages with a catalogue: the offline page is precached in each.
    static let languagesPlaceholder = "__SHELL_LANGUAGES__"

    /// The static files the worker precaches, as its own `SHELL` list names them (one list: a
    /// file added there is in the version too): every quoted "/…" path of that line but the page.
    static func shellFiles(of script: String) -> [String] {
        guard let line = script.split(separator: "\n").first(where: { $0.hasPrefix("var SHELL = [") }) else { return [] }
        return line.split(separator: "\"").filter { $0.hasPrefix("/") && $0.contains(".") }.map { String($0.dropFirst()) }
    }
    /// The templates the offline page is rendered from.
    static let shellTemplates = ["offline/study.html", "layout.html"]

    /// The stamped script, or nil when `sw.js` is missing.
    static func stamped(publicDirectory: String, templatesDirectory: String) -> [UInt8]? {
        guard let script = try? String(contentsOfFile: publicDirectory + "/sw.js", encoding: .utf8) else { return nil }
        var shell: [UInt8] = []
        let templateFiles = shellTemplates.map { templatesDirectory + "/" + $0 }
        let messageFiles = ((try? FileManager.default.contentsOfDirectory(atPath: templatesDirectory + "/i18n")) ?? []).sorted()
            .map { templatesDirectory + "/i18n/" + $0 }
        for path in shellFiles(of: script).map({ publicDirectory + "/" + $0 }) + templateFiles + messageFiles {
            shell += Array(path.utf8) + [0]
            shell += FileManager.default.contents(atPath: path).map(Array.init) ?? []
        }
        let version = Crypto.sha256(shell).prefix(8).map { String(format: "%02x", $0) }.joined()
        let languages = messageFiles.map { ($0 as NSString).lastPathComponent }.filter { $0.hasSuffix(".json") }.map { "\"\($0.dropLast(5))\"" }
        return Array(script.replacingOccurrences(of: placeholder, with: version)
            .replacingOccurrences(of: languagesPlaceholder, with: "[" + languages.joined(separator: ", ") + "]").utf8)
    }
}
