import ExamData
import Foundation
import PostgresClient
import QuestionEngine

/// What changed in an exam since a version: the questions added or changed (whole), the ids of
/// those gone, and the version the client reaches by applying them — or `full` when a delta is
/// not worth it (too old, or most of the exam changed) and the client should take the bundle.
public struct ChangeFeed: Codable, Sendable, Equatable {
    public var format = 1
    public var since: String
    public var version: String
    public var full: Bool
    public var bundle: String
    public var exam: ExamBundle.Exam?
    public var domains: [ExamBundle.Domain]?
    public var changed: [ExamBundle.Question]
    public var deleted: [UUID]
}

/// Builds bundles and change feeds from the catalogue (as anyone may read it).
public struct BundleBuilder: Sendable {
    /// A delta from further back than this is refused in favour of the whole bundle.
    public static let oldestDelta: TimeInterval = 180 * 86_400

    public init() {}

    /// The bundle of an exam at its current version, encoded; nil when there is no such exam.
    public func bundle(region: String, slug: String, _ connection: PostgresConnection) throws -> (bundle: ExamBundle, bytes: [UInt8])? {
        let catalog = ExamCatalog()
        guard let detail = try catalog.exam(region: region, slug: slug, connection) else { return nil }
        let questions = try catalog.publishedQuestions(examID: detail.id, connection)
        let bundle = ExamBundle(
            version: BundleVersion.string(detail.contentUpdatedAt), exam: Self.exam(detail),
            domains: detail.domains.map { ExamBundle.Domain(slug: $0.slug, title: $0.title, weight: $0.weight) },
            questions: questions.map(ExamBundle.Question.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (bundle, Array(try encoder.encode(bundle)))
    }

    /// The changes of an exam since a version; nil when there is no such exam.
    public func changes(region: String, slug: String, since: Date, now: Date, _ connection: PostgresConnection) throws -> ChangeFeed? {
        let catalog = ExamCatalog()
        guard let detail = try catalog.exam(region: region, slug: slug, connection) else { return nil }
        let version = BundleVersion.string(detail.contentUpdatedAt)
        let url = Self.url(region: region, slug: slug, version: version)
        var feed = ChangeFeed(since: BundleVersion.string(since), version: version, full: false, bundle: url, changed: [], deleted: [])
        guard now.timeIntervalSince(since) <= Self.oldestDelta else {
            feed.full = true
            return feed
        }
        let changes = try catalog.changes(examID: detail.id, since: since, connection)
        let total = detail.domains.reduce(0) { $0 + $1.total }
        if changes.count > max(20, total / 2) {
            feed.full = true
            return feed
        }
        let live = changes.filter { !$0.removed }.map(\.id)
        feed.changed = live.isEmpty ? [] : try catalog.publishedQuestions(examID: detail.id, only: live, connection).map(ExamBundle.Question.init)
        let present = Set(feed.changed.map(\.id))
        // Gone, or no longer visible to students (a question moved to another exam shows up here too).
        feed.deleted = changes.map(\.id).filter { !present.contains($0) }.sorted { $0.uuidString < $1.uuidString }
        feed.exam = Self.exam(detail)
        feed.domains = detail.domains.map { ExamBundle.Domain(slug: $0.slug, title: $0.title, weight: $0.weight) }
        return feed
    }

    /// Where a bundle version is served.
    public static func url(region: String, slug: String, version: String) -> String { "/offline/exams/\(region)/\(slug).\(version).json" }

    static func exam(_ detail: ExamDetail) -> ExamBundle.Exam {
        ExamBundle.Exam(
            region: detail.regionCode, regionName: detail.regionName, slug: detail.slug, title: detail.title, description: detail.description,
            language: detail.language, passMark: detail.passMark, timeLimitSeconds: detail.timeLimitSeconds, questionCount: detail.questionCount)
    }
}
