import Foundation
import PostgresClient
import QuestionEngine

/// An exam as the admin's exam page edits it.
public struct ExamSettings: Sendable, Equatable {
    public var title: String
    public var description: String
    public var language: String
    public var passMark: Int
    public var timeLimitSeconds: Int
    public var questionCount: Int
    /// The scaled score it reports besides the percentage, if any.
    public var scaledScore: ScaledScore?

    public init(
        title: String, description: String, language: String, passMark: Int, timeLimitSeconds: Int, questionCount: Int, scaledScore: ScaledScore? = nil
    ) {
        (self.title, self.description, self.language) = (title, description, language)
        (self.passMark, self.timeLimitSeconds, self.questionCount, self.scaledScore) = (passMark, timeLimitSeconds, questionCount, scaledScore)
    }
}

/// A domain of the blueprint as the admin's form sends it: an existing one by its id, or a new one.
public struct BlueprintDomain: Sendable, Equatable {
    public var id: Int?
    public var slug: String
    public var title: String
    public var weight: Int
    /// Published questions in it (read, not written).
    public var questions: Int

    public init(id: Int?, slug: String, title: String, weight: Int, questions: Int = 0) {
        (self.id, self.slug, self.title, self.weight, self.questions) = (id, slug, title, weight, questions)
    }
}

/// One exam as its page in the dashboard shows it.
public struct ShapedExam: Sendable, Equatable {
    public var id: Int
    public var regionCode: String
    public var regionName: String
    public var slug: String
    public var settings: ExamSettings
    public var published: Bool
    public var domains: [BlueprintDomain]
}

/// What the dashboard's exam pages write: regions, exams (made as drafts, published when the
/// admin says) and their blueprints saved whole. Row-level security lets only an admin write
/// any of it; the blueprint's rule is `Blueprint`'s.
public struct ExamShaping: Sendable {
    public init() {}

    /// Every region with its exams, drafts included, for the admin's list.
    public func overview(_ connection: PostgresConnection) throws -> [(code: String, name: String, exams: [(slug: String, title: String, published: Bool)])] {
        var regions: [(code: String, name: String, exams: [(slug: String, title: String, published: Bool)])] = []
        for row in try connection.query(("""
            SELECT r.code, r.name, e.slug, e.title, e.published FROM regions r LEFT JOIN exams e ON e.region_id = r.id
            ORDER BY r.position, r.name, e.title
            """ as SQL).prepared()).rows {
            let code = try row.decode("code", as: String.self)
            if regions.last?.code != code { regions.append((code, try row.decode("name", as: String.self), [])) }
            if let slug = try row.decode("slug", as: String?.self) {
                regions[regions.count - 1].exams.append((slug, try row.decode("title", as: String.self), try row.decode("published", as: Bool.self)))
            }
        }
        return regions
    }

    /// A new region at the end of the list; false when its code is taken.
    public func createRegion(code: String, name: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("""
            INSERT INTO regions (code, name, position) SELECT \(code), \(name), coalesce(max(position) + 1, 0) FROM regions
            ON CONFLICT (code) DO NOTHING
            """ as SQL).prepared()) == 1
    }

    /// A new draft exam in `region`; nil when the region is unknown or the slug is taken there.
    public func createExam(region: String, slug: String, _ settings: ExamSettings, _ connection: PostgresConnection) throws -> Int? {
        try connection.query(("""
            INSERT INTO exams (region_id, slug, title, description, language, pass_mark, time_limit_s, question_count, published,
                               scaled_min, scaled_pass, scaled_max)
            SELECT r.id, \(slug), \(settings.title), \(settings.description), \(settings.language), \(settings.passMark),
                   \(settings.timeLimitSeconds), \(settings.questionCount), false,
                   \(settings.scaledScore?.min), \(settings.scaledScore?.pass), \(settings.scaledScore?.max)
            FROM regions r WHERE r.code = \(region)
            ON CONFLICT (region_id, slug) DO NOTHING
            RETURNING id
            """ as SQL).prepared()).first?.decode("id", as: Int.self)
    }

    public func exam(region: String, slug: String, _ connection: PostgresConnection) throws -> ShapedExam? {
        guard let row = try connection.query(("""
            SELECT e.id, r.code, r.name, e.slug, e.title, e.description, e.language, e.pass_mark, e.time_limit_s, e.question_count, e.published,
                   \(fragment: ScaledScore.columns)
            FROM exams e JOIN regions r ON r.id = e.region_id WHERE r.code = \(region) AND e.slug = \(slug)
            """ as SQL).prepared()).first else { return nil }
        let id = try row.decode("id", as: Int.self)
        let domains = try connection.query(("""
            SELECT d.id, d.slug, d.title, d.weight,
                   (SELECT count(*) FROM questions q WHERE q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL) AS questions
            FROM domains d WHERE d.exam_id = \(id) ORDER BY d.id
            """ as SQL).prepared()).rows.map { row in
            BlueprintDomain(
                id: try row.decode("id", as: Int.self), slug: try row.decode("slug", as: String.self), title: try row.decode("title", as: String.self),
                weight: try row.decode("weight", as: Int.self), questions: try row.decode("questions", as: Int.self))
        }
        return ShapedExam(
            id: id, regionCode: try row.decode("code", as: String.self), regionName: try row.decode("name", as: String.self),
            slug: try row.decode("slug", as: String.self),
            settings: ExamSettings(
                title: try row.decode("title", as: String.self), description: try row.decode("description", as: String.self),
                language: try row.decode("language", as: String.self), passMark: try row.decode("pass_mark", as: Int.self),
                timeLimitSeconds: try row.decode("time_limit_s", as: Int.self), questionCount: try row.decode("question_count", as: Int.self),
                scaledScore: try ScaledScore.read(row)),
            published: try row.decode("published", as: Bool.self), domains: domains)
    }

    public func save(examID: Int, _ settings: ExamSettings, _ connection: PostgresConnection) throws {
        try connection.execute(("""
            UPDATE exams SET title = \(settings.title), description = \(settings.description), language = \(settings.language),
                             pass_mark = \(settings.passMark), time_limit_s = \(settings.timeLimitSeconds), question_count = \(settings.questionCount),
                             scaled_min = \(settings.scaledScore?.min), scaled_pass = \(settings.scaledScore?.pass), scaled_max = \(settings.scaledScore?.max)
            WHERE id = \(examID)
            """ as SQL).prepared())
    }

    /// The blueprint, whole: each existing domain's title and weight, and the new domains. The
    /// caller checked it (`Blueprint`); a domain of another exam named by id changes nothing.
    public func saveBlueprint(examID: Int, _ domains: [BlueprintDomain], _ connection: PostgresConnection) throws {
        for domain in domains {
            if let id = domain.id {
                try connection.execute(("""
                    UPDATE domains SET title = \(domain.title), weight = \(domain.weight) WHERE id = \(id) AND exam_id = \(examID)
                    """ as SQL).prepared())
            } else {
                // A new domain sent again (a reload of the form's answer) is the same domain.
                try connection.execute(("""
                    INSERT INTO domains (exam_id, slug, title, weight) VALUES (\(examID), \(domain.slug), \(domain.title), \(domain.weight))
                    ON CONFLICT (exam_id, slug) DO UPDATE SET title = EXCLUDED.title, weight = EXCLUDED.weight
                    """ as SQL).prepared())
            }
        }
    }

    public func setPublished(examID: Int, _ published: Bool, _ connection: PostgresConnection) throws {
        try connection.execute(("UPDATE exams SET published = \(published) WHERE id = \(examID)" as SQL).prepared())
    }
}
