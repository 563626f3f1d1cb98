import ExamData
import HTTPServer
import Foundation

/// What a resource link opens, written as the path of its `target_link_uri` on this site: an
/// exam's page (`/exams/{region}/{exam}`), or a preset session of that exam
/// (`/exams/{region}/{exam}?mode=mock&count=20&from=1&to=5&domain=…`) started for the student
/// at launch. Deep linking writes these; any other path on this site simply opens.
enum LaunchTarget: Sendable, Equatable {
    case exam(region: String, slug: String)
    case preset(Preset)
    case page(String)

    struct Preset: Sendable, Equatable {
        var region: String
        var slug: String
        var mode: StudyMode
        var count: Int
        var difficulty: ClosedRange<Int>
        var domains: [String]
    }

    /// The target of a path and query on this site.
    init(path: String, query: String?) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[1] == "exams", !parts[2].isEmpty, !parts[3].isEmpty else {
            self = .page(LocalPath.validated(path) ?? "/")
            return
        }
        let (region, slug) = (parts[2], parts[3])
        // Only an exam's own address names one (lower-case letters, digits and hyphens).
        guard [region, slug].allSatisfy({ $0.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 } }) else {
            self = .page(LocalPath.validated(path) ?? "/")
            return
        }
        let fields = FormFields(urlEncoded: query ?? "")
        guard let modeText = fields["mode"], let mode = StudyMode(rawValue: modeText), mode == .practice || mode == .mock else {
            self = .exam(region: region, slug: slug)
            return
        }
        let count = min(SessionStart.maximumCount, max(1, Int(fields["count"] ?? "") ?? 20))
        let from = min(5, max(1, Int(fields["from"] ?? "") ?? 1)), to = min(5, max(from, Int(fields["to"] ?? "") ?? 5))
        self = .preset(Preset(region: region, slug: slug, mode: mode, count: count, difficulty: from...to, domains: fields.values("domain")))
    }

    /// The path and query that name this target.
    var path: String {
        switch self {
        case .page(let path): return path
        case .exam(let region, let slug): return "/exams/\(region)/\(slug)"
        case .preset(let preset):
            let query = [("mode", preset.mode.rawValue), ("count", String(preset.count)),
                         ("from", String(preset.difficulty.lowerBound)), ("to", String(preset.difficulty.upperBound))]
                + preset.domains.map { ("domain", $0) }
            return "/exams/\(preset.region)/\(preset.slug)?" + FormFields(fields: query.map { (name: $0.0, value: $0.1) }).urlEncoded
        }
    }
}
