import Foundation
import PostgresClient

/// What the audit log needs to tell its entries in words: the stem of each question an entry
/// names (a question saved, or the question of a report closed) and, for each question saved
/// again, its snapshot before and after, so the page can show what changed.
public struct AuditContext: Sendable, Equatable {
    /// A question's snapshot at one version and the one before it (pretty JSON, one field a line).
    public struct Change: Sendable, Equatable {
        public var before: String?
        public var after: String
    }

    /// By the entry's target (a question's or a report's id).
    public var stems: [String: String]
    /// By "question id|version".
    public var changes: [String: Change]

    public init(stems: [String: String] = [:], changes: [String: Change] = [:]) {
        self.stems = stems
        self.changes = changes
    }

    /// The key of `changes` for a question's version.
    public static func changeKey(question: String, version: Int) -> String { "\(question)|\(version)" }

    /// Reads what `entries` name, in two statements (admins only: row-level security lets the
    /// app role read these tables for an admin's session).
    public static func read(for entries: [AuditEntry], _ connection: PostgresConnection) throws -> AuditContext {
        let targets = Array(Set(entries.filter { $0.action.hasPrefix("question.") || $0.action.hasPrefix("report.") }.map(\.target)))
        guard !targets.isEmpty else { return AuditContext() }
        var context = AuditContext()
        for row in try connection.query(("""
            SELECT q.id::text AS target, q.stem FROM questions q WHERE q.id::text = ANY(\(targets)::text[])
            UNION ALL
            SELECT r.id::text, q.stem FROM question_reports r JOIN questions q ON q.id = r.question_id WHERE r.id::text = ANY(\(targets)::text[])
            """ as SQL).prepared()).rows {
            context.stems[try row.decode("target", as: String.self)] = try row.decode("stem", as: String.self)
        }
        // Each question edit's version and the one before it.
        var wanted: [String] = [], versions: [Int] = []
        for entry in entries where entry.action == "question.edit" || entry.action == "question.create" {
            guard let version = AuditDetails(entry.details)["version"].flatMap(Int.init) else { continue }
            wanted.append(entry.target)
            versions.append(version)
        }
        guard !wanted.isEmpty else { return context }
        var snapshots: [String: String] = [:]
        for row in try connection.query(("""
            SELECT v.question_id::text AS question, v.version, jsonb_pretty(v.snapshot) AS snapshot
            FROM unnest(\(wanted)::text[], \(versions)::int[]) AS w(question, version)
            JOIN question_versions v ON v.question_id::text = w.question AND v.version IN (w.version, w.version - 1)
            """ as SQL).prepared()).rows {
            let question = try row.decode("question", as: String.self), version = try row.decode("version", as: Int.self)
            snapshots[changeKey(question: question, version: version)] = try row.decode("snapshot", as: String.self)
        }
        for (question, version) in zip(wanted, versions) {
            guard let after = snapshots[changeKey(question: question, version: version)] else { continue }
            context.changes[changeKey(question: question, version: version)] = Change(
                before: snapshots[changeKey(question: question, version: version - 1)], after: after)
        }
        return context
    }
}

/// An audit entry's details (a JSON object) as text values by name; numbers and booleans
/// written as JSON writes them, anything else left out.
public struct AuditDetails: Sendable {
    public let values: [String: String]

    public init(_ json: String) {
        let object = (try? JSONDecoder().decode([String: Scalar].self, from: Data(json.utf8))) ?? [:]
        values = object.compactMapValues(\.text)
    }

    /// A JSON value as text: a string as it is, a number or a boolean as JSON writes it.
    private struct Scalar: Decodable {
        var text: String?

        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let string = try? value.decode(String.self) { text = string }
            else if let flag = try? value.decode(Bool.self) { text = flag ? "true" : "false" }
            else if let whole = try? value.decode(Int.self) { text = String(whole) }
            else if let number = try? value.decode(Double.self) { text = String(number) }
            else { text = nil }
        }
    }

    public subscript(name: String) -> String? { values[name] }
}
