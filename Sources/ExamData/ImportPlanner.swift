import Foundation
import Interop
import PostgresClient

/// Why a file was not imported: what the command line prints and the import page words in the
/// reader's language. Nothing was written in any case.
public enum ImportRefusal: Error, Sendable, Equatable {
    /// The content is in no format the importer knows.
    case unknownFormat
    /// A format without exams of its own, and no exam named to import into.
    case needsExam(ForeignImport.Format)
    /// The exam named does not exist.
    case noSuchExam(String)
    /// Items the portal has no kind for, refused unless skipping was asked for.
    case unsupported([SkippedItem])
    /// The file cannot be read (its place and why).
    case unreadable(ForeignImport.Format, FormatError)
    /// A format-1 document that does not decode.
    case malformed(ImportProblem)
}

/// A file ready to import: its format, the document to write, what was left out, and what was
/// changed to keep a question.
public struct ImportPlan: Sendable {
    public var format: ForeignImport.Format
    public var document: ContentDocument
    public var skipped: [SkippedItem]
    public var notes: [SkippedItem] = []
}

/// Plans an import of a file in any format the importer reads: a format-1 document as it is,
/// another format read into the exam named (which is read from the database).
public struct ImportPlanner: Sendable {
    public init() {}

    /// Reads `data` in whatever format it is in, for the exam `into` (`region/exam`, required for
    /// formats without exams of their own), ready for `ContentImport`'s checks and writing.
    public func plan(
        _ data: Data, into: String?, domain: String?, skipUnsupported: Bool, _ connection: PostgresConnection
    ) throws -> ImportPlan {
        guard let format = ForeignImport.detect(data) else { throw ImportRefusal.unknownFormat }
        if format == .portalJSON {
            do throws(ImportProblem) {
                return ImportPlan(format: format, document: try ContentDocument.decode(data), skipped: [])
            } catch {
                throw ImportRefusal.malformed(error)
            }
        }
        guard let into, !into.isEmpty else { throw ImportRefusal.needsExam(format) }
        let parts = into.split(separator: "/")
        guard parts.count == 2, let exam = try ContentImport().export(region: String(parts[0]), exam: String(parts[1]), connection) else {
            throw ImportRefusal.noSuchExam(into)
        }
        var content: ForeignContent, planned: ContentDocument
        do throws(FormatError) {
            content = try ForeignImport().read(data, format: format, language: exam.regions.first?.exams.first?.language ?? "en")
            planned = try ForeignImport().document(content, into: exam, domain: domain.flatMap { $0.isEmpty ? nil : $0 })
        } catch {
            throw ImportRefusal.unreadable(format, error)
        }
        // A question the portal cannot hold (fourteen pairs, a stem too long) is named by its
        // line or item like any other that does not map, and left out on request.
        let positions = Dictionary(content.questions.map { ($0.key, $0.position) }, uniquingKeysWith: { first, _ in first })
        let markup = planned.regions.first?.exams.first?.markup
        var refused = Set<String>()
        for question in planned.regions.flatMap(\.exams).flatMap(\.domains).flatMap(\.questions) {
            guard let problem = ContentImport().problems(question, examMarkup: markup).first else { continue }
            refused.insert(question.key)
            content.skipped.append(SkippedItem(position: positions[question.key] ?? question.key, reason: "\(problem.field): \(problem.problem)"))
        }
        if !refused.isEmpty {
            content.questions.removeAll { refused.contains($0.key) }
            do throws(FormatError) {
                planned = try ForeignImport().document(content, into: exam, domain: domain.flatMap { $0.isEmpty ? nil : $0 })
            } catch {
                throw ImportRefusal.unreadable(format, error)
            }
        }
        if !content.skipped.isEmpty && !skipUnsupported { throw ImportRefusal.unsupported(content.skipped) }
        return ImportPlan(format: format, document: planned, skipped: content.skipped, notes: content.notes)
    }
}
