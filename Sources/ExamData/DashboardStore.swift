import Foundation
import PostgresClient
import QuestionEngine

/// An exam the student has cards in, with how many are due.
public struct ExamDue: Sendable, Equatable {
    public var examID: Int
    public var regionCode: String
    public var slug: String
    public var title: String
    public var language: String
    public var passMark: Int
    public var cards: Int
    public var dueToday: Int
}

/// One domain's accuracy in one week.
public struct WeeklyAccuracy: Sendable, Equatable {
    public var examID: Int
    public var domainSlug: String
    public var domainTitle: String
    /// The Monday the week starts on, `YYYY-MM-DD`.
    public var week: String
    public var answered: Int
    public var correct: Int
}

/// A recent session for the dashboard's list.
public struct RecentSession: Sendable, Equatable {
    public var id: UUID
    public var mode: StudyMode
    public var examTitle: String
    public var examLanguage: String
    public var startedAt: Date
    public var finishedAt: Date?
    public var scorePercent: Double?
    public var passed: Bool?
    public var questions: Int
}

/// The student's dashboard, aggregated by the database over the security-invoker views, so
/// every figure covers only the reader's own rows.
public struct DashboardStore: Sendable {
    public init() {}

    /// Exams with cards, and how many are due by `endOfToday`.
    public func dueByExam(endOfToday: Date, _ connection: PostgresConnection) throws -> [ExamDue] {
        try connection.query(("""
            SELECT e.id, r.code, e.slug, e.title, e.language, e.pass_mark,
                   count(*) AS cards, count(*) FILTER (WHERE c.due <= \(endOfToday)) AS due_today
            FROM cards_by_domain c JOIN exams e ON e.id = c.exam_id JOIN regions r ON r.id = e.region_id
            WHERE c.user_id = (SELECT app_user_id())
            GROUP BY e.id, r.code ORDER BY e.title
            """ as SQL).prepared()).rows.map { row in
            ExamDue(
                examID: try row.decode("id", as: Int.self), regionCode: try row.decode("code", as: String.self),
                slug: try row.decode("slug", as: String.self), title: try row.decode("title", as: String.self),
                language: try row.decode("language", as: String.self), passMark: try row.decode("pass_mark", as: Int.self),
                cards: try row.decode("cards", as: Int.self), dueToday: try row.decode("due_today", as: Int.self))
        }
    }

    /// Per exam, per domain: its weight, its published questions, the student's cards among
    /// them and their summed retrievability at `now` — what readiness and weak spots need.
    public func recallByDomain(examIDs: [Int], at now: Date, _ connection: PostgresConnection) throws -> [Int: [(slug: String, recall: DomainRecall)]] {
        var result: [Int: [(slug: String, recall: DomainRecall)]] = [:]
        for row in try connection.query(("""
            SELECT d.exam_id, d.slug, d.weight, count(q.id) AS questions, count(c.question_id) AS seen,
                   coalesce(sum(fsrs_retrievability(c.stability, c.last_review, \(now))), 0) AS recall
            FROM domains d
            JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL
            LEFT JOIN review_cards c ON c.question_id = q.id AND c.user_id = (SELECT app_user_id())
            WHERE d.exam_id = ANY (\(examIDs)::bigint[])
            GROUP BY d.exam_id, d.id ORDER BY d.exam_id, d.weight DESC, d.slug
            """ as SQL).prepared()).rows {
            let recall = DomainRecall(
                weight: try row.decode("weight", as: Int.self), questions: try row.decode("questions", as: Int.self),
                seen: try row.decode("seen", as: Int.self), recallSum: try row.decode("recall", as: Double.self))
            result[try row.decode("exam_id", as: Int.self), default: []].append((try row.decode("slug", as: String.self), recall))
        }
        return result
    }

    /// Consecutive days with at least one answer, ending today or yesterday (in the student's
    /// time zone): a streak survives until a whole day passes without study.
    public func streak(at now: Date, _ connection: PostgresConnection) throws -> Int {
        try connection.query(("""
            WITH today AS (SELECT (\(now)::timestamptz AT TIME ZONE u.time_zone)::date AS day FROM users u WHERE u.id = (SELECT app_user_id())),
                 days AS (SELECT d.day, d.day + (row_number() OVER (ORDER BY d.day DESC))::int AS island
                          FROM study_days d, today WHERE d.user_id = (SELECT app_user_id()) AND d.day <= today.day),
                 latest AS (SELECT day, island FROM days ORDER BY day DESC LIMIT 1)
            SELECT coalesce((SELECT count(*) FROM days, latest, today
                             WHERE days.island = latest.island AND latest.day >= today.day - 1), 0) AS streak
            """ as SQL).prepared()).first?.decode("streak", as: Int.self) ?? 0
    }

    /// How many questions the student answered today (their time zone).
    public func answeredToday(at now: Date, _ connection: PostgresConnection) throws -> Int {
        try connection.query(("""
            SELECT coalesce(sum(d.answered), 0)::bigint AS answered FROM study_days d JOIN users u ON u.id = d.user_id
            WHERE d.user_id = (SELECT app_user_id()) AND d.day = (\(now)::timestamptz AT TIME ZONE u.time_zone)::date
            """ as SQL).prepared()).first?.decode("answered", as: Int.self) ?? 0
    }

    /// Accuracy per domain per week, for the weeks starting on or after `sinceWeek` (`YYYY-MM-DD`).
    public func weeklyAccuracy(since start: Date, _ connection: PostgresConnection) throws -> [WeeklyAccuracy] {
        try connection.query(("""
            SELECT w.exam_id, w.domain_slug, w.domain_title, w.week::text AS week, w.answered, w.correct
            FROM domain_accuracy_weekly w JOIN users u ON u.id = w.user_id
            WHERE w.user_id = (SELECT app_user_id())
              AND w.week >= date_trunc('week', \(start)::timestamptz AT TIME ZONE u.time_zone)::date
            ORDER BY w.exam_id, w.domain_title, w.week
            """ as SQL).prepared()).rows.map { row in
            WeeklyAccuracy(
                examID: try row.decode("exam_id", as: Int.self), domainSlug: try row.decode("domain_slug", as: String.self),
                domainTitle: try row.decode("domain_title", as: String.self), week: try row.decode("week", as: String.self),
                answered: try row.decode("answered", as: Int.self), correct: try row.decode("correct", as: Int.self))
        }
    }

    /// The student's latest sessions, newest first.
    public func recentSessions(limit: Int, _ connection: PostgresConnection) throws -> [RecentSession] {
        try connection.query(("""
            SELECT s.id, s.mode, e.title, e.language, s.started_at, s.finished_at, s.score_percent, s.passed,
                   cardinality(s.question_ids) AS questions
            FROM study_sessions s JOIN exams e ON e.id = s.exam_id
            WHERE s.user_id = (SELECT app_user_id())
            ORDER BY s.started_at DESC LIMIT \(limit)
            """ as SQL).prepared()).rows.map { row in
            RecentSession(
                id: try row.decode("id", as: UUID.self), mode: StudyMode(rawValue: try row.decode("mode", as: String.self)) ?? .practice,
                examTitle: try row.decode("title", as: String.self), examLanguage: try row.decode("language", as: String.self),
                startedAt: try row.decode("started_at", as: Date.self), finishedAt: try row.decode("finished_at", as: Date?.self),
                scorePercent: try row.decode("score_percent", as: Double?.self), passed: try row.decode("passed", as: Bool?.self),
                questions: try row.decode("questions", as: Int.self))
        }
    }

    /// The review queue of one exam: cards due by `now`, and published questions without a card
    /// (never an exam-only question: those are for mock exams).
    public func reviewQueue(examID: Int, now: Date, _ connection: PostgresConnection) throws -> (due: [(id: UUID, due: Date)], unseen: [Candidate]) {
        let due = try connection.query(("""
            SELECT c.question_id, c.due FROM cards_by_domain c JOIN questions q ON q.id = c.question_id AND NOT q.exam_only
            WHERE c.user_id = (SELECT app_user_id()) AND c.exam_id = \(examID) AND c.due <= \(now)
            """ as SQL).prepared()).rows.map { (try $0.decode("question_id", as: UUID.self), try $0.decode("due", as: Date.self)) }
        let unseen = try connection.query(("""
            SELECT q.id, d.slug, q.difficulty FROM domains d
            JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL AND NOT q.exam_only
            LEFT JOIN review_cards c ON c.question_id = q.id AND c.user_id = (SELECT app_user_id())
            WHERE d.exam_id = \(examID) AND c.question_id IS NULL
            ORDER BY q.id
            """ as SQL).prepared()).rows.map { row in
            Candidate(id: try row.decode("id", as: UUID.self), domain: try row.decode("slug", as: String.self), difficulty: try row.decode("difficulty", as: Int.self))
        }
        return (due, unseen)
    }

    /// Every card the student holds in an exam with when it is due: what a device needs to run
    /// review sessions offline until it is next online.
    public func schedule(examID: Int, _ connection: PostgresConnection) throws -> [(id: UUID, due: Date)] {
        try connection.query(("""
            SELECT c.question_id, c.due FROM cards_by_domain c JOIN questions q ON q.id = c.question_id AND NOT q.exam_only
            WHERE c.user_id = (SELECT app_user_id()) AND c.exam_id = \(examID)
            ORDER BY c.due, c.question_id
            """ as SQL).prepared()).rows.map { (try $0.decode("question_id", as: UUID.self), try $0.decode("due", as: Date.self)) }
    }

    /// How many cards the student first reviewed since `start` (new cards today, for the daily limit).
    public func newCards(since start: Date, _ connection: PostgresConnection) throws -> Int {
        try connection.query(("""
            SELECT count(*) AS new_cards FROM review_cards WHERE user_id = (SELECT app_user_id()) AND first_review >= \(start)
            """ as SQL).prepared()).first?.decode("new_cards", as: Int.self) ?? 0
    }

    /// The start of the student's current day (their time zone), as an instant.
    public func startOfDay(at now: Date, _ connection: PostgresConnection) throws -> Date {
        try connection.query(("""
            SELECT (date_trunc('day', \(now)::timestamptz AT TIME ZONE u.time_zone) AT TIME ZONE u.time_zone) AS start
            FROM users u WHERE u.id = (SELECT app_user_id())
            """ as SQL).prepared()).first?.decode("start", as: Date.self) ?? now
    }
}
