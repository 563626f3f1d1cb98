import Foundation
import PostgresClient
import QuestionEngine

/// Reading the exam catalogue. Every query runs as the app role inside the caller's
/// transaction, so row-level security decides what is visible (published content for all).
public struct ExamCatalog: Sendable {
    public init() {}

    /// Every region and its exams, in display order, with published question counts.
    public func regions(_ connection: PostgresConnection) throws -> [RegionSummary] {
        let rows = try connection.query(("""
            SELECT r.code, r.name, e.slug, e.title, e.language, e.content_updated_at,
                   (SELECT count(*) FROM questions q JOIN domains d ON d.id = q.domain_id
                     WHERE d.exam_id = e.id AND q.status = 'published' AND q.deleted_at IS NULL) AS published
            FROM regions r JOIN exams e ON e.region_id = r.id
            ORDER BY r.position, r.name, e.title
            """ as SQL).prepared()).rows
        var regions: [RegionSummary] = []
        for row in rows {
            let code = try row.decode("code", as: String.self)
            let exam = ExamSummary(
                slug: try row.decode("slug", as: String.self), title: try row.decode("title", as: String.self),
                language: try row.decode("language", as: String.self), publishedQuestions: try row.decode("published", as: Int.self),
                contentUpdatedAt: try row.decode("content_updated_at", as: Date.self))
            if regions.last?.code == code {
                regions[regions.count - 1].exams.append(exam)
            } else {
                regions.append(RegionSummary(code: code, name: try row.decode("name", as: String.self), exams: [exam]))
            }
        }
        return regions
    }

    /// One exam with its domains and counts by difficulty, or nil when there is no such exam.
    public func exam(region: String, slug: String, _ connection: PostgresConnection) throws -> ExamDetail? {
        guard let row = try connection.query(("""
            SELECT e.id, r.code, r.name AS region_name, e.slug, e.title, e.description, e.language, e.pass_mark,
                   e.time_limit_s, e.question_count, e.content_updated_at, \(fragment: ScaledScore.columns),
                   ARRAY(SELECT DISTINCT q.type FROM questions q JOIN domains d ON d.id = q.domain_id
                         WHERE d.exam_id = e.id AND q.status = 'published' AND q.deleted_at IS NULL AND NOT q.exam_only ORDER BY 1) AS kinds
            FROM exams e JOIN regions r ON r.id = e.region_id
            WHERE r.code = \(region) AND e.slug = \(slug)
            """ as SQL).prepared()).first else { return nil }
        let examID = try row.decode("id", as: Int.self)
        let domainRows = try connection.query(("""
            SELECT d.slug, d.title, d.weight,
                   array[count(*) FILTER (WHERE q.difficulty = 1), count(*) FILTER (WHERE q.difficulty = 2),
                         count(*) FILTER (WHERE q.difficulty = 3), count(*) FILTER (WHERE q.difficulty = 4),
                         count(*) FILTER (WHERE q.difficulty = 5)] AS counts
            FROM domains d
            LEFT JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL
            WHERE d.exam_id = \(examID)
            GROUP BY d.id ORDER BY d.weight DESC, d.title
            """ as SQL).prepared()).rows
        return ExamDetail(
            id: examID, regionCode: try row.decode("code", as: String.self), regionName: try row.decode("region_name", as: String.self),
            slug: try row.decode("slug", as: String.self), title: try row.decode("title", as: String.self),
            description: try row.decode("description", as: String.self), language: try row.decode("language", as: String.self),
            passMark: try row.decode("pass_mark", as: Int.self), timeLimitSeconds: try row.decode("time_limit_s", as: Int.self),
            questionCount: try row.decode("question_count", as: Int.self), scaledScore: try ScaledScore.read(row),
            contentUpdatedAt: try row.decode("content_updated_at", as: Date.self), kinds: try row.decode("kinds", as: [String].self),
            domains: try domainRows.map { domain in
                DomainSummary(
                    slug: try domain.decode("slug", as: String.self), title: try domain.decode("title", as: String.self),
                    weight: try domain.decode("weight", as: Int.self), countsByDifficulty: try domain.decode("counts", as: [Int].self))
            })
    }

    /// An exam's id, title and language, or nil when there is no such exam: one indexed lookup.
    public func examHeading(region: String, slug: String, _ connection: PostgresConnection) throws -> (id: Int, title: String, language: String)? {
        guard let row = try connection.query(("""
            SELECT e.id, e.title, e.language FROM exams e JOIN regions r ON r.id = e.region_id
            WHERE r.code = \(region) AND e.slug = \(slug)
            """ as SQL).prepared()).first else { return nil }
        return (try row.decode("id", as: Int.self), try row.decode("title", as: String.self), try row.decode("language", as: String.self))
    }

    /// When anything in the catalogue last changed (nil when it is empty): what a cached home
    /// page depends on.
    public func catalogVersion(_ connection: PostgresConnection) throws -> Date? {
        try connection.query(("SELECT max(content_updated_at) AS version FROM exams" as SQL).prepared()).first?
            .decode("version", as: Date?.self)
    }

    /// When an exam's content last changed, or nil when there is no such exam: what a cached
    /// exam page depends on. One indexed lookup.
    public func examVersion(region: String, slug: String, _ connection: PostgresConnection) throws -> Date? {
        try connection.query(("""
            SELECT e.content_updated_at FROM exams e JOIN regions r ON r.id = e.region_id
            WHERE r.code = \(region) AND e.slug = \(slug)
            """ as SQL).prepared()).first?.decode("content_updated_at", as: Date.self)
    }

    /// Every published question of an exam that students may practise (all difficulties, never
    /// an exam-only one), or those with these ids only: what offline bundles carry.
    public func publishedQuestions(examID: Int, only ids: [UUID]? = nil, _ connection: PostgresConnection) throws -> [Question] {
        try connection.query(("""
            SELECT q.id, d.slug AS domain_slug, q.type, q.stem, q.rich, q.code, q.code_language, q.options, q.correct, q.details,
                   q.explanation, q.difficulty, q.version
            FROM domains d JOIN questions q ON q.domain_id = d.id
            WHERE d.exam_id = \(examID) AND q.status = 'published' AND q.deleted_at IS NULL AND NOT q.exam_only
              AND (\(ids)::uuid[] IS NULL OR q.id = ANY (\(ids)::uuid[]))
            ORDER BY d.slug, q.id
            """ as SQL).prepared()).rows.map { try Question(row: $0) }
    }

    /// Which questions of an exam changed since `date` (with a little overlap), and whether each
    /// is gone (deleted, retired or unpublished): the tombstones of the offline change feed.
    public func changes(examID: Int, since date: Date, _ connection: PostgresConnection) throws -> [(id: UUID, removed: Bool)] {
        try connection.query(("SELECT id, removed FROM exam_changes(\(examID), \(date))" as SQL).prepared()).rows.map {
            (try $0.decode("id", as: UUID.self), try $0.decode("removed", as: Bool.self))
        }
    }

    /// The statement behind `questions(region:exam:difficulty:)`, exposed so a test can show its plan.
    public static func publishedQuestionsSQL(region: String, exam: String, difficulty: Int) -> SQL {
        """
        SELECT q.id, d.slug AS domain_slug, q.type, q.stem, q.rich, q.code, q.code_language, q.options, q.correct, q.details,
               q.explanation, q.difficulty, q.version
        FROM regions r
        JOIN exams e ON e.region_id = r.id
        JOIN domains d ON d.exam_id = e.id
        JOIN questions q ON q.domain_id = d.id
        WHERE r.code = \(region) AND e.slug = \(exam) AND q.difficulty = \(difficulty)
          AND q.status = 'published' AND q.deleted_at IS NULL
        ORDER BY d.slug, q.id
        """
    }

    /// All published questions of an exam in a region at one difficulty: one indexed query.
    public func questions(region: String, exam: String, difficulty: Int, _ connection: PostgresConnection) throws -> [Question] {
        try connection.query(Self.publishedQuestionsSQL(region: region, exam: exam, difficulty: difficulty).prepared()).rows.map { try Question(row: $0) }
    }
}

/// A domain with its exam and its published questions: what a dashboard joins a student's
/// own figures to. The same for every reader, read once per catalogue version.
public struct DomainFacts: Sendable, Equatable {
    public var id: Int
    public var examID: Int
    public var regionCode: String
    public var examSlug: String
    public var examTitle: String
    public var language: String
    public var passMark: Int
    public var slug: String
    public var title: String
    public var weight: Int
    public var questions: Int
}

extension ExamCatalog {
    /// Every domain of the catalogue with its exam and published question count.
    public func domainFacts(_ connection: PostgresConnection) throws -> [DomainFacts] {
        try connection.query(("""
            SELECT d.id, e.id AS exam_id, r.code, e.slug AS exam_slug, e.title AS exam_title, e.language, e.pass_mark,
                   d.slug, d.title, d.weight, count(q.id) AS questions
            FROM domains d JOIN exams e ON e.id = d.exam_id JOIN regions r ON r.id = e.region_id
            LEFT JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL
            GROUP BY d.id, e.id, r.code
            """ as SQL).prepared()).rows.map { row in
            DomainFacts(
                id: try row.decode("id", as: Int.self), examID: try row.decode("exam_id", as: Int.self),
                regionCode: try row.decode("code", as: String.self), examSlug: try row.decode("exam_slug", as: String.self),
                examTitle: try row.decode("exam_title", as: String.self), language: try row.decode("language", as: String.self),
                passMark: try row.decode("pass_mark", as: Int.self), slug: try row.decode("slug", as: String.self),
                title: try row.decode("title", as: String.self), weight: try row.decode("weight", as: Int.self),
                questions: try row.decode("questions", as: Int.self))
        }
    }
}
