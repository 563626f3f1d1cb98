import ContentPackage
import ExamData
import Foundation
import Interop
import PostgresClient

/// `portal corpus-check DIR [--qti21-out DIR]`: how faithfully a folder of other systems' files
/// comes in, for people judging the importers (not a test: `scripts/corpus-check.sh` runs it
/// against a throwaway database). Every file is imported into an exam of its own with
/// `--skip-unsupported`; each imported exam is exported in all four formats, imported again
/// into a fresh exam and compared question by question with the first (stem, markup, kind,
/// options with their texts, pictures, regions and explanations, key, explanation, the kind's
/// own fields, difficulty and status; keys aside, since each format names its questions its
/// own way). A table per collection (the folder's first level) and the reasons counted follow.
enum CorpusCheck {
    static let formats = ["json", "moodle", "qti3", "qti21"]

    /// What came of one file.
    struct Outcome {
        var collection: String
        var imported = false
        var nothingSupported = false
        var refusal: String?
        var skipped: [SkippedItem] = []
        var notes: [SkippedItem] = []
        var questions = 0
        /// Per export format, whether its round trip left the questions equal (nil: not tried).
        var equal: [String: Bool] = [:]
        var differences: [String] = []
    }

    static func run(_ configuration: PortalConfiguration, arguments: [String]) throws -> Int32 {
        let usage = "usage: portal corpus-check DIR [--qti21-out DIR]"
        guard let folder = arguments.first, !folder.hasPrefix("--") else { throw ConfigurationError(usage) }
        var qtiOut: String?
        if arguments.count == 3, arguments[1] == "--qti21-out" { qtiOut = arguments[2] } else if arguments.count != 1 { throw ConfigurationError(usage) }
        guard let url = configuration.databaseAdminURL else { throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role of a throwaway database) to check a corpus") }
        let connection = try PostgresConnection(url: url)
        let root = URL(fileURLWithPath: folder).standardizedFileURL
        let files = (FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])?.compactMap { $0 as? URL } ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && questionExtensions.contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
        var outcomes: [Outcome] = []
        for (number, file) in files.enumerated() {
            let relative = String(file.path.dropFirst(root.path.count + 1))
            let collection = relative.split(separator: "/").count > 1 ? String(relative.split(separator: "/")[0]) : "."
            var outcome = try check(file, exam: "f\(number + 1)", collection: collection, connection)
            if let qtiOut, outcome.imported {
                let folder = URL(fileURLWithPath: qtiOut).appendingPathComponent("f\(number + 1)")
                try writeQTI21(exam: "f\(number + 1)", to: folder, connection)
                try Data(relative.utf8).write(to: folder.appendingPathComponent("source.txt"))
            }
            for line in outcome.differences.prefix(4) { print("corpus-check: \(relative): \(line)") }
            if let refusal = outcome.refusal { print("corpus-check: \(relative): refused: \(refusal)") }
            outcome.differences = []
            outcomes.append(outcome)
        }
        print(table(outcomes))
        return 0
    }

    /// The file names that may hold questions (the rest of a corpus is schemas, pictures, media).
    static let questionExtensions: Set<String> = ["xml", "gift", "txt", "zip", "qti"]

    static func check(_ file: URL, exam: String, collection: String, _ connection: PostgresConnection) throws -> Outcome {
        var outcome = Outcome(collection: collection)
        let data = try Data(contentsOf: file)
        try createExam(exam, connection)
        let plan: ImportPlan
        do {
            plan = try ImportPlanner().plan(data, into: "corpus/\(exam)", domain: nil, skipUnsupported: true, connection)
        } catch let refusal as ImportRefusal {
            outcome.refusal = reason(refusal)
            return outcome
        }
        (outcome.skipped, outcome.notes) = (plan.skipped, plan.notes)
        let count = plan.document.regions.flatMap(\.exams).flatMap(\.domains).reduce(0) { $0 + $1.questions.count }
        guard count > 0 else {
            outcome.nothingSupported = true
            return outcome
        }
        if let problem = ContentImport().problems(plan.document).first {
            outcome.refusal = "\(problem.field): \(problem.problem)"
            return outcome
        }
        try connection.withTransaction { _ = try ContentImport().apply(plan.document, $0) }
        outcome.imported = true
        outcome.questions = count
        let first = try questions(exam, connection)
        for format in formats {
            let copy = "\(exam)-\(format)"
            do {
                try roundTrip(exam, format: format, into: copy, connection)
                let again = try questions(copy, connection)
                // Moodle XML has no hotspot type: those questions are left out of its export, as documented.
                let expected = format == "moodle" ? first.filter { !$0.contains("\"type\":\"hotspot\"") } : first
                outcome.equal[format] = again == expected
                if again != expected {
                    let missing = expected.filter { !again.contains($0) }, extra = again.filter { !expected.contains($0) }
                    outcome.differences.append("\(format): \(missing.count) questions changed; " + difference(missing.first, extra.first))
                }
            } catch {
                outcome.equal[format] = false
                outcome.differences.append("\(format): \(error)")
            }
        }
        return outcome
    }

    /// The fields in which two questions (as `questions` gives them) differ, with both values.
    static func difference(_ was: String?, _ now: String?) -> String {
        func fields(_ text: String?) -> [String: String] {
            guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
            return object.mapValues { value in
                (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            }
        }
        let (before, after) = (fields(was), fields(now))
        let names = Set(before.keys).union(after.keys).sorted().filter { before[$0] != after[$0] }
        return names.map { "\($0): \(before[$0]?.prefix(400) ?? "none") → \(after[$0]?.prefix(400) ?? "none")" }.joined(separator: "; ")
    }

    /// An exam of its own for one file, with one domain for questions that name no category.
    static func createExam(_ slug: String, _ connection: PostgresConnection) throws {
        let exam = ContentDocument.Exam(
            slug: slug, title: slug, description: "", language: "en", passMark: 70, timeLimitSeconds: 600, questionCount: 10,
            domains: [ContentDocument.Domain(slug: "all", title: "All", weight: 100, questions: [])])
        let document = ContentDocument(regions: [ContentDocument.Region(code: "corpus", name: "Corpus", exams: [exam])])
        try connection.withTransaction { _ = try ContentImport().apply(document, $0) }
    }

    /// Exports `exam` as `format` and imports the file into the new exam `copy`.
    static func roundTrip(_ exam: String, format: String, into copy: String, _ connection: PostgresConnection) throws {
        guard var document = try ContentImport().export(region: "corpus", exam: exam, connection) else { return }
        let file: Data
        switch format {
        case "json":
            document.regions[0].exams[0].slug = copy
            file = try JSONEncoder().encode(document)
        case "moodle":
            try createExam(copy, connection)
            file = Data(MoodleXMLExport.document(document).utf8)
        default:
            try createExam(copy, connection)
            file = Data(QTIPackage.archive(document, version3: format == "qti3"))
        }
        let plan = try ImportPlanner().plan(file, into: "corpus/\(copy)", domain: nil, skipUnsupported: false, connection)
        if let problem = ContentImport().problems(plan.document).first { throw ConfigurationError("\(problem.field): \(problem.problem)") }
        try connection.withTransaction { _ = try ContentImport().apply(plan.document, $0) }
    }

    /// The exam's questions as comparable text, keys and order aside.
    static func questions(_ exam: String, _ connection: PostgresConnection) throws -> [String] {
        guard let document = try ContentImport().export(region: "corpus", exam: exam, connection) else { return [] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try document.regions.flatMap(\.exams).flatMap(\.domains).flatMap(\.questions).map { question in
            var question = question
            question.key = ""
            return String(decoding: try encoder.encode(question), as: UTF8.self)
        }.sorted()
    }

    /// The exam's QTI 2.1 items and manifest, for a schema check outside (xmllint).
    static func writeQTI21(exam: String, to folder: URL, _ connection: PostgresConnection) throws {
        guard let document = try ContentImport().export(region: "corpus", exam: exam, connection) else { return }
        for entry in try Zip.entries(QTIPackage.archive(document, version3: false)) where entry.path.hasSuffix(".xml") {
            let target = folder.appendingPathComponent(entry.path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(entry.bytes).write(to: target)
        }
    }

    static func reason(_ refusal: ImportRefusal) -> String {
        switch refusal {
        case .unknownFormat: "in no format the importer knows"
        case .needsExam(let format): "\(format.rawValue) needs an exam"
        case .noSuchExam(let exam): "no exam \(exam)"
        case .unsupported(let items): "unsupported: \(items.first?.reason ?? "")"
        case .unreadable(let format, let error): "\(format.rawValue): \(error.problem)"
        case .malformed(let problem): "format 1: \(problem.problem)"
        }
    }

    /// The report: one row per collection, then the reasons counted.
    static func table(_ outcomes: [Outcome]) -> String {
        var lines = ["", "collection        files  imported  nothing supported  refused  questions  skipped items  notes  round trips equal (json / moodle / qti3 / qti21)"]
        let collections = Array(Set(outcomes.map(\.collection))).sorted() + ["all"]
        func padded(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }
        for collection in collections {
            let rows = collection == "all" ? outcomes : outcomes.filter { $0.collection == collection }
            let imported = rows.filter(\.imported)
            let trips = formats.map { format in "\(imported.filter { $0.equal[format] == true }.count)" }.joined(separator: " / ")
            lines.append(padded(collection, 18) + padded("\(rows.count)", 7) + padded("\(imported.count)", 10) + padded("\(rows.filter(\.nothingSupported).count)", 19)
                + padded("\(rows.filter { $0.refusal != nil }.count)", 9) + padded("\(imported.reduce(0) { $0 + $1.questions })", 11)
                + padded("\(rows.reduce(0) { $0 + $1.skipped.count })", 15) + padded("\(rows.reduce(0) { $0 + $1.notes.count })", 7) + trips + " of \(imported.count)")
        }
        func counted(_ title: String, _ reasons: [String]) {
            var counts: [String: Int] = [:]
            for reason in reasons { counts[String(reason.prefix(120)), default: 0] += 1 }
            guard !counts.isEmpty else { return }
            lines.append("")
            lines.append(title)
            for (reason, count) in counts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(25) { lines.append("  \(padded(String(count), 5)) \(reason)") }
        }
        counted("skipped items, by reason:", outcomes.flatMap(\.skipped).map(\.reason))
        counted("notes, by reason:", outcomes.flatMap(\.notes).map {
            $0.reason.replacingOccurrences(of: #"^the name .* is the one of the question at .*$"#, with: "a name used by an earlier question: kept with #2, #3…", options: .regularExpression)
                .replacingOccurrences(of: #"\d+"#, with: "N", options: .regularExpression)
        })
        counted("files refused, by reason:", outcomes.compactMap(\.refusal))
        return lines.joined(separator: "\n")
    }
}
