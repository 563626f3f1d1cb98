import Foundation
import PostgresClient
import QuestionEngine

/// One exam in the admin overview.
public struct ExamOverview: Sendable, Equatable {
    public var examID: Int
    public var regionCode: String
    public var slug: String
    public var title: String
    /// The exam's own language (its title and questions are written in it).
    public var language: String
    public var contentUpdatedAt: Date
    public var byStatus: [String: Int]
    public var byType: [String: Int]
    /// Published questions at difficulty 1…5.
    public var byDifficulty: [Int]
    public var openReports: Int
}

/// A student's report waiting in the queue.
public struct OpenReport: Sendable, Equatable {
    public var id: UUID
    public var questionID: UUID
    public var stem: String
    public var examTitle: String
    public var reason: String
    public var comment: String
    public var reporter: String
    public var createdAt: Date
}

/// A line of the audit log.
public struct AuditEntry: Sendable, Equatable {
    public var at: Date
    public var actor: String
    public var action: String
    public var target: String
    public var details: String
}

/// The admin question list's filters; nil means any.
public struct QuestionFilter: Sendable, Equatable {
    public var examID: Int?
    public var domain: String?
    public var type: String?
    public var difficulty: Int?
    public var status: String?
    /// Text to find in stems and options (any language), at least 3 characters to use the index.
    public var text: String?
    /// Only these questions (the ones flagged for review).
    public var only: [UUID]?

    public init(
        examID: Int? = nil, domain: String? = nil, type: String? = nil, difficulty: Int? = nil, status: String? = nil, text: String? = nil,
        only: [UUID]? = nil
    ) {
        self.examID = examID
        self.domain = domain
        self.type = type
        self.difficulty = difficulty
        self.status = status
        self.text = text
        self.only = only
    }
}

/// A line of the admin question list.
public struct QuestionListItem: Sendable, Equatable {
    public var id: UUID
    public var examTitle: String
    /// The exam's language: the question's title, domain and stem are written in it.
    public var language: String
    public var domainTitle: String
    public var type: String
    public var difficulty: Int
    public var status: String
    public var version: Int
    public var stem: String
    public var openReports: Int
}

/// One saved version of a question.
public struct QuestionVersion: Sendable, Equatable {
    public var version: Int
    public var savedAt: Date
    public var snapshot: String
}

/// What the admin dashboard reads and records. Every statement runs with `app.role = admin`:
/// the policies let admins read everything, and the audit log takes entries only from an admin
/// in their own name.
public struct AdminStore: Sendable {
    public init() {}

    public func overview(_ connection: PostgresConnection) throws -> [ExamOverview] {
        try connection.query(("""
            SELECT e.id, r.code, e.slug, e.title, e.language, e.content_updated_at,
                   coalesce((SELECT jsonb_object_agg(status, n) FROM (SELECT q.status, count(*) AS n FROM questions q JOIN domains d ON d.id = q.domain_id
                             WHERE d.exam_id = e.id AND q.deleted_at IS NULL GROUP BY q.status) s), '{}') AS by_status,
                   coalesce((SELECT jsonb_object_agg(type, n) FROM (SELECT q.type, count(*) AS n FROM questions q JOIN domains d ON d.id = q.domain_id
                             WHERE d.exam_id = e.id AND q.deleted_at IS NULL GROUP BY q.type) t), '{}') AS by_type,
                   ARRAY(SELECT count(q.id) FROM generate_series(1, 5) AS level
                         LEFT JOIN questions q ON q.difficulty = level AND q.status = 'published' AND q.deleted_at IS NULL
                              AND q.domain_id IN (SELECT id FROM domains WHERE exam_id = e.id)
                         GROUP BY level ORDER BY level) AS by_difficulty,
                   (SELECT count(*) FROM question_reports x JOIN questions q ON q.id = x.question_id JOIN domains d ON d.id = q.domain_id
                     WHERE d.exam_id = e.id AND x.resolved_at IS NULL) AS open_reports
            FROM exams e JOIN regions r ON r.id = e.region_id
            ORDER BY r.position, r.name, e.title
            """ as SQL).prepared()).rows.map { row in
            ExamOverview(
                examID: try row.decode("id", as: Int.self), regionCode: try row.decode("code", as: String.self), slug: try row.decode("slug", as: String.self),
                title: try row.decode("title", as: String.self), language: try row.decode("language", as: String.self), contentUpdatedAt: try row.decode("content_updated_at", as: Date.self),
                byStatus: try row.decodeJSON("by_status", as: [String: Int].self), byType: try row.decodeJSON("by_type", as: [String: Int].self),
                byDifficulty: try row.decode("by_difficulty", as: [Int].self), openReports: try row.decode("open_reports", as: Int.self))
        }
    }

    public func openReports(limit: Int, _ connection: PostgresConnection) throws -> [OpenReport] {
        try connection.query(("""
            SELECT x.id, x.question_id, q.stem, e.title AS exam_title, x.reason, x.comment, u.display_name, x.created_at
            FROM question_reports x JOIN questions q ON q.id = x.question_id JOIN domains d ON d.id = q.domain_id
            JOIN exams e ON e.id = d.exam_id JOIN users u ON u.id = x.user_id
            WHERE x.resolved_at IS NULL ORDER BY x.created_at LIMIT \(limit)
            """ as SQL).prepared()).rows.map { row in
            OpenReport(
                id: try row.decode("id", as: UUID.self), questionID: try row.decode("question_id", as: UUID.self),
                stem: try row.decode("stem", as: String.self), examTitle: try row.decode("exam_title", as: String.self),
                reason: try row.decode("reason", as: String.self), comment: try row.decode("comment", as: String.self),
                reporter: try row.decode("display_name", as: String.self), createdAt: try row.decode("created_at", as: Date.self))
        }
    }

    /// Closes a report as fixed or dismissed, with a note; false when it was closed already.
    public func resolveReport(id: UUID, resolution: String, note: String, at date: Date, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("""
            UPDATE question_reports SET resolved_at = \(date), resolution = \(resolution), resolution_note = \(note)
            WHERE id = \(id) AND resolved_at IS NULL
            """ as SQL).prepared()) == 1
    }

    /// An ILIKE pattern matching `text` anywhere, literally: its own wildcards are escaped.
    static func containing(_ text: String) -> String {
        "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
    }

    /// Questions matching the filter, newest change first, with how many match in all.
    public func questions(_ filter: QuestionFilter, offset: Int, limit: Int, _ connection: PostgresConnection) throws -> (items: [QuestionListItem], total: Int) {
        let pattern = filter.text.map(Self.containing)
        let rows = try connection.query(("""
            SELECT q.id, e.title AS exam_title, e.language, d.title AS domain_title, q.type, q.difficulty, q.status, q.version, q.stem,
                   (SELECT count(*) FROM question_reports x WHERE x.question_id = q.id AND x.resolved_at IS NULL) AS open_reports,
                   count(*) OVER () AS total
            FROM questions q JOIN domains d ON d.id = q.domain_id JOIN exams e ON e.id = d.exam_id
            WHERE q.deleted_at IS NULL
              AND (\(filter.examID)::bigint IS NULL OR d.exam_id = \(filter.examID))
              AND (\(filter.domain)::text IS NULL OR d.slug = \(filter.domain))
              AND (\(filter.type)::text IS NULL OR q.type = \(filter.type))
              AND (\(filter.difficulty)::integer IS NULL OR q.difficulty = \(filter.difficulty))
              AND (\(filter.status)::text IS NULL OR q.status = \(filter.status))
              AND (\(pattern)::text IS NULL OR (q.stem || ' ' || q.options::text) ILIKE \(pattern))
              AND (\(filter.only)::uuid[] IS NULL OR q.id = ANY (\(filter.only)::uuid[]))
            ORDER BY q.updated_at DESC, q.id
            OFFSET \(offset) LIMIT \(limit)
            """ as SQL).prepared()).rows
        let items = try rows.map { row in
            QuestionListItem(
                id: try row.decode("id", as: UUID.self), examTitle: try row.decode("exam_title", as: String.self),
                language: try row.decode("language", as: String.self), domainTitle: try row.decode("domain_title", as: String.self), type: try row.decode("type", as: String.self),
                difficulty: try row.decode("difficulty", as: Int.self), status: try row.decode("status", as: String.self),
                version: try row.decode("version", as: Int.self), stem: try row.decode("stem", as: String.self),
                openReports: try row.decode("open_reports", as: Int.self))
        }
        return (items, try rows.first?.decode("total", as: Int.self) ?? 0)
    }

    /// The item statistics of these questions (those with first mock attempts).
    public func itemStatistics(questionIDs: [UUID], _ connection: PostgresConnection) throws -> [UUID: ItemStatistics] {
        var result: [UUID: ItemStatistics] = [:]
        for row in try connection.query(("""
            SELECT s.question_id, s.attempts, s.facility, s.discrimination, s.efficiency, s.average_ms,
                   coalesce((SELECT jsonb_object_agg(o.option_index::text, o.share) FROM item_option_shares o WHERE o.question_id = s.question_id), '{}') AS shares,
                   coalesce((SELECT jsonb_agg(jsonb_build_array(c.answer, c.share) ORDER BY c.times DESC, c.answer)
                             FROM (SELECT * FROM item_common_answers a WHERE a.question_id = s.question_id ORDER BY a.times DESC, a.answer LIMIT 5) c), '[]') AS common,
                   coalesce((SELECT jsonb_agg(jsonb_build_array(g.facility, g.common_wrong) ORDER BY g.gap)
                             FROM item_gap_statistics g WHERE g.question_id = s.question_id), '[]') AS gaps
            FROM item_statistics s WHERE s.question_id = ANY (\(questionIDs)::uuid[])
            """ as SQL).prepared()).rows {
            let shares = try row.decodeJSON("shares", as: [String: Double].self)
            func answers(_ pairs: [JSONValue]) -> [(answer: String, share: Double)] {
                pairs.compactMap { pair in
                    guard case .array(let parts) = pair, parts.count == 2, case .string(let answer) = parts[0], case .number(let share) = parts[1] else { return nil }
                    return (answer, share)
                }
            }
            var statistics = ItemStatistics(
                attempts: try row.decode("attempts", as: Int.self), facility: try row.decode("facility", as: Double.self),
                discrimination: try row.decode("discrimination", as: Double?.self), efficiency: try row.decode("efficiency", as: Double?.self),
                averageMilliseconds: try row.decode("average_ms", as: Double?.self),
                optionShares: Dictionary(uniqueKeysWithValues: shares.compactMap { key, value in Int(key).map { ($0, value) } }),
                commonWrongAnswers: answers(try row.decodeJSON("common", as: [JSONValue].self)))
            statistics.gaps = try row.decodeJSON("gaps", as: [JSONValue].self).compactMap { gap in
                guard case .array(let parts) = gap, parts.count == 2, case .number(let facility) = parts[0], case .array(let wrong) = parts[1] else { return nil }
                return (facility, answers(wrong))
            }
            result[try row.decode("question_id", as: UUID.self)] = statistics
        }
        return result
    }

    /// Every live question with its exam id: what review flags are worked out over (the
    /// statistics for the ones with attempts, the writing for all).
    public func reviewableQuestions(_ connection: PostgresConnection) throws -> [(examID: Int, question: Question)] {
        try connection.query(("""
            SELECT d.exam_id, q.id, d.slug AS domain_slug, q.type, q.stem, q.rich, q.code, q.code_language, q.options, q.correct, q.details,
                   q.explanation, q.difficulty, q.version
            FROM questions q JOIN domains d ON d.id = q.domain_id
            WHERE q.deleted_at IS NULL
            """ as SQL).prepared()).rows.map { (try $0.decode("exam_id", as: Int.self), try Question(row: $0)) }
    }

    /// Every saved version of a question, newest first.
    public func versions(questionID: UUID, _ connection: PostgresConnection) throws -> [QuestionVersion] {
        try connection.query(("""
            SELECT version, saved_at, jsonb_pretty(snapshot) AS snapshot FROM question_versions
            WHERE question_id = \(questionID) ORDER BY version DESC
            """ as SQL).prepared()).rows.map {
            QuestionVersion(version: try $0.decode("version", as: Int.self), savedAt: try $0.decode("saved_at", as: Date.self),
                            snapshot: try $0.decode("snapshot", as: String.self))
        }
    }

    /// Every report ever filed on a question, newest first.
    public func reports(questionID: UUID, _ connection: PostgresConnection) throws -> [(reason: String, comment: String, resolution: String?, at: Date)] {
        try connection.query(("""
            SELECT reason, comment, resolution, created_at FROM question_reports WHERE question_id = \(questionID) ORDER BY created_at DESC
            """ as SQL).prepared()).rows.map {
            (try $0.decode("reason", as: String.self), try $0.decode("comment", as: String.self), try $0.decode("resolution", as: String?.self),
             try $0.decode("created_at", as: Date.self))
        }
    }

    /// Records an admin action in the audit log, in the signed-in admin's name.
    public func audit(actorName: String, action: String, target: String, details: [String: String], at date: Date, _ connection: PostgresConnection) throws {
        let json = try PostgresJSON(encoding: details)
        try connection.execute(("""
            INSERT INTO audit_log (at, actor_id, actor_name, action, target, details)
            VALUES (\(date), (SELECT app_user_id()), \(actorName), \(action), \(String(target.prefix(300))), \(json)::jsonb)
            """ as SQL).prepared())
    }

    /// Publishes the drafts among `ids`: the ids of those it published, and how many it held back
    /// (a question published, retired or deleted meanwhile is left as it is, and not counted).
    public func publishDrafts(_ ids: [UUID], _ connection: PostgresConnection) throws -> (published: [UUID], held: Int) {
        // A draft with a picture named only by its file's name stays one (question_picture_unnamed).
        let rows = try connection.query(("""
            WITH chosen AS (
                SELECT id, question_picture_unnamed(options, rich) IS NOT NULL AS held FROM questions
                WHERE id = ANY (\(ids)::uuid[]) AND status = 'draft' AND deleted_at IS NULL
            ), published AS (
                UPDATE questions q SET status = 'published' FROM chosen c WHERE q.id = c.id AND NOT c.held RETURNING q.id
            )
            SELECT c.id, c.held FROM chosen c
            """ as SQL).prepared()).rows
        let published = try rows.filter { try !$0.decode("held", as: Bool.self) }.map { try $0.decode("id", as: UUID.self) }
        return (published, rows.count - published.count)
    }

    /// The words of a question's first picture named only by its file's name (its alt text, or an
    /// option's text), which keeps it a draft; nil when none is.
    public func unnamedPicture(questionID: UUID, _ connection: PostgresConnection) throws -> String? {
        try connection.query(("""
            SELECT question_picture_unnamed(options, rich) AS name FROM questions WHERE id = \(questionID)
            """ as SQL).prepared()).first?.decode("name", as: String?.self)
    }

    /// Audit entries, newest first, optionally of one action.
    public func auditEntries(action: String?, offset: Int, limit: Int, _ connection: PostgresConnection) throws -> [AuditEntry] {
        try connection.query(("""
            SELECT at, actor_name, action, target, details::text AS details FROM audit_log
            WHERE \(action)::text IS NULL OR action = \(action)
            ORDER BY at DESC, id DESC OFFSET \(offset) LIMIT \(limit)
            """ as SQL).prepared()).rows.map { row in
            AuditEntry(
                at: try row.decode("at", as: Date.self), actor: try row.decode("actor_name", as: String.self),
                action: try row.decode("action", as: String.self), target: try row.decode("target", as: String.self),
                details: try row.decode("details", as: String.self))
        }
    }
}
