import Foundation
import PostgresClient
import QuestionEngine

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
    /// A mock exam's end, by the server's clock.
    public var deadline: Date?
}

/// A student's own figures for the dashboard, per domain: read in one flight
/// (`DashboardStore.readingStatements`), joined to the shared `DomainFacts` in memory.
public struct DashboardReading: Sendable, Equatable {
    public struct DomainCards: Sendable, Equatable {
        public var cards: Int
        public var dueToday: Int
        /// Cards on published questions, and the sum of their retrievability now.
        public var seen: Int
        public var recallSum: Double
        /// The same sum on the day the student sits the exam, when they have said.
        public var recallOnExamDay: Double?
    }

    public struct WeekCell: Sendable, Equatable {
        public var domainID: Int
        /// The Monday the week starts on, `YYYY-MM-DD`.
        public var week: String
        public var answered: Int
        public var correct: Int
    }

    /// Reviews of the last 30 days made a day or more after the previous answer to the same
    /// question, and how many were remembered: measured retention.
    public struct Remembered: Sendable, Equatable {
        /// Spaced reviews (a day or more after the previous answer to the same question).
        public var reviews: Int
        /// Those answered right.
        public var recalled: Int
    }

    /// A holiday not over yet, and the reviews it moved when it was set.
    public struct HolidayAhead: Sendable, Equatable, Decodable {
        /// `YYYY-MM-DD`.
        public var startsOn: String
        public var endsOn: String
        public var movedBefore: Int
        public var movedAfter: Int
    }

    public var cards: [Int: DomainCards]
    public var weeks: [WeekCell]
    /// Days studied in a row, holidays and days off forgiven, a missed day covered by a freeze.
    public var streak: StudyStreak
    /// The days studied in the last 400, as days before today (0: today), in the reader's zone.
    public var studiedDaysAgo: Set<Int>
    /// Today's weekday, 0 Monday … 6 Sunday.
    public var weekday: Int
    public var answeredToday: Int
    public var holidaysAhead: [HolidayAhead]
    public var sessions: [RecentSession]
    /// Measured retention by domain.
    public var remembered: [Int: Remembered]
    /// The retention the student's reviews aim at.
    public var desiredRetention: Double
    /// What the student's schedule is fitted to (nil before their history was first looked at).
    public var fitted: FittedWeights?
    /// The days the student sits their exams, by exam.
    public var examDates: [Int: ExamDate]
    /// Whether the student's zone was ever confirmed (chosen, or named by their browser): the
    /// dashboard asks once when it was not.
    public var timeZoneConfirmed = true
    /// An admin's decision on the reader's request to teach, for two weeks after it was made
    /// (the dashboard tells them on their next visit).
    public var teachingDecision: TeacherRequest.Decision?
    /// The reader's assignments in their classes (`my_assignments`), soonest due first.
    public var assignments: [PupilAssignment] = []
}

/// The student's dashboard, aggregated by the database under the reader's row-level security,
/// so every figure covers only the reader's own rows.
public struct DashboardStore: Sendable {
    public init() {}

    /// The reader's figures as statements for one pipelined read: cards per domain (with what
    /// is due by the end of the reader's day and their recall at `now`), answers per domain and
    /// week since the week of `since`, the streak and today's answers, the latest sessions.
    /// Every day and week is the reader's own, in their time zone.
    public static func readingStatements(now: Date, since: Date, recent: Int) -> [SQL] {
        [
            ("""
            WITH me AS (SELECT u.id, u.time_zone,
                               (date_trunc('day', \(now)::timestamptz AT TIME ZONE u.time_zone) + interval '1 day') AT TIME ZONE u.time_zone AS day_end,
                               coalesce((SELECT f.weights[21] FROM fsrs_weights f WHERE f.user_id = u.id), 0.1542) AS decay
                        FROM users u WHERE u.id = (SELECT app_user_id())),
                 exam_days AS (SELECT x.exam_id, x.sits_on::timestamp AT TIME ZONE me.time_zone AS start
                               FROM me JOIN exam_dates x ON x.user_id = me.id)
            SELECT q.domain_id, count(*) AS cards,
                   count(*) FILTER (WHERE c.due <= me.day_end AND q.status = 'published' AND q.deleted_at IS NULL AND NOT q.exam_only) AS due_today,
                   count(*) FILTER (WHERE q.status = 'published' AND q.deleted_at IS NULL) AS seen,
                   coalesce(sum(fsrs_retrievability(c.stability, c.last_review, \(now), me.decay))
                            FILTER (WHERE q.status = 'published' AND q.deleted_at IS NULL), 0) AS recall,
                   sum(fsrs_retrievability(c.stability, c.last_review, greatest(x.start, \(now)), me.decay))
                       FILTER (WHERE q.status = 'published' AND q.deleted_at IS NULL) AS recall_on_exam_day
            FROM me JOIN review_cards c ON c.user_id = me.id JOIN questions q ON q.id = c.question_id
            JOIN domains d ON d.id = q.domain_id LEFT JOIN exam_days x ON x.exam_id = d.exam_id
            GROUP BY q.domain_id
            """ as SQL).prepared(),
            ("""
            WITH me AS (SELECT u.id, u.time_zone FROM users u WHERE u.id = (SELECT app_user_id()))
            SELECT q.domain_id, date_trunc('week', a.answered_at AT TIME ZONE me.time_zone)::date::text AS week,
                   count(*) AS answered, count(*) FILTER (WHERE a.correct) AS correct
            FROM me JOIN answers a ON a.user_id = me.id
                 AND a.answered_at >= date_trunc('week', \(since)::timestamptz AT TIME ZONE me.time_zone) AT TIME ZONE me.time_zone
            JOIN questions q ON q.id = a.question_id
            GROUP BY 1, 2
            """ as SQL).prepared(),
            // The days studied in the last 400 (as days before today, in the reader's time zone),
            // the holidays and days off that excuse a day (StudyStreak forgives with them), the
            // holidays still ahead with what they moved, and today's answers.
            ("""
            WITH me AS (SELECT u.id, u.time_zone, u.easy_days, (\(now)::timestamptz AT TIME ZONE u.time_zone)::date AS today
                        FROM users u WHERE u.id = (SELECT app_user_id()))
            SELECT extract(isodow FROM me.today)::int AS weekday, me.easy_days,
                   coalesce((SELECT array_agg(DISTINCT me.today - (a.answered_at AT TIME ZONE me.time_zone)::date)
                             FROM answers a WHERE a.user_id = me.id
                               AND a.answered_at >= (me.today - 400)::timestamp AT TIME ZONE me.time_zone), '{}') AS studied_ago,
                   coalesce((SELECT array_agg(DISTINCT me.today - g::date)
                             FROM study_holidays h, generate_series(greatest(h.starts_on, me.today - 400), least(h.ends_on, me.today), interval '1 day') g
                             WHERE h.user_id = me.id AND h.ends_on >= me.today - 400 AND h.starts_on <= me.today), '{}') AS holiday_ago,
                   coalesce((SELECT jsonb_agg(jsonb_build_object('startsOn', h.starts_on, 'endsOn', h.ends_on,
                                                                 'movedBefore', h.moved_before, 'movedAfter', h.moved_after) ORDER BY h.starts_on)
                             FROM study_holidays h WHERE h.user_id = me.id AND h.ends_on >= me.today), '[]') AS holidays_ahead,
                   (SELECT count(*) FROM answers a WHERE a.user_id = me.id
                      AND a.answered_at >= me.today::timestamp AT TIME ZONE me.time_zone) AS answered_today
            FROM me
            """ as SQL).prepared(),
            recentSessionsStatement(limit: recent),
            // Measured retention: each rated answer with the time of the one before it to the
            // same question; those a day or more apart in the last 30 days, by domain.
            ("""
            WITH spaced AS (SELECT a.question_id, a.correct, a.answered_at,
                                   lag(a.answered_at) OVER (PARTITION BY a.question_id ORDER BY a.answered_at) AS previous
                            FROM answers a WHERE a.user_id = (SELECT app_user_id()) AND a.rating IS NOT NULL)
            SELECT q.domain_id, count(*) AS reviews, count(*) FILTER (WHERE spaced.correct) AS recalled
            FROM spaced JOIN questions q ON q.id = spaced.question_id
            WHERE spaced.previous IS NOT NULL AND spaced.answered_at - spaced.previous >= interval '1 day'
              AND spaced.answered_at >= \(now)::timestamptz - interval '30 days'
            GROUP BY q.domain_id
            """ as SQL).prepared(),
            ("""
            SELECT u.desired_retention::float8 AS desired, u.time_zone_confirmed,
                   (SELECT t.decision FROM teacher_requests t WHERE t.user_id = u.id AND t.decided_at > \(now)::timestamptz - interval '14 days'
                    ORDER BY t.decided_at DESC LIMIT 1) AS teaching_decision
            FROM users u WHERE u.id = (SELECT app_user_id())
            """ as SQL).prepared(),
            FittedWeightsStore.fittedStatement,
            ExamDateStore.datesStatement,
            SchoolStore.myAssignmentsStatement(now: now),
        ]
    }

    /// The streak from the days-before-today the streak statement read.
    static func streak(_ row: PostgresRow) throws -> StudyStreak {
        let weekday = try row.decode("weekday", as: Int.self) - 1  // today: 0 Monday … 6 Sunday
        let week = StudyDayLoad.week(try row.decode("easy_days", as: String.self)) ?? Array(repeating: .normal, count: 7)
        let studied = Set(try row.decode("studied_ago", as: [Int].self).map { -$0 })
        let holidays = Set(try row.decode("holiday_ago", as: [Int].self).map { -$0 })
        func weekdayOf(_ day: Int) -> Int { ((weekday + day) % 7 + 7) % 7 }
        return StudyStreak.on(
            0, studied: studied, excused: { holidays.contains($0) || week[weekdayOf($0)] == .none },
            week: { day in Int((Double(day + weekday) / 7).rounded(.down)) })
    }

    /// What `readingStatements` returned.
    public static func reading(_ results: [QueryResult]) throws -> DashboardReading {
        guard results.count == 9 else { throw PostgresError(kind: .decoding, message: "the dashboard's read returned \(results.count) results, not 9") }
        var cards: [Int: DashboardReading.DomainCards] = [:]
        for row in results[0].rows {
            cards[try row.decode("domain_id", as: Int.self)] = DashboardReading.DomainCards(
                cards: try row.decode("cards", as: Int.self), dueToday: try row.decode("due_today", as: Int.self),
                seen: try row.decode("seen", as: Int.self), recallSum: try row.decode("recall", as: Double.self),
                recallOnExamDay: try row.decode("recall_on_exam_day", as: Double?.self))
        }
        let weeks = try results[1].rows.map { row in
            DashboardReading.WeekCell(
                domainID: try row.decode("domain_id", as: Int.self), week: try row.decode("week", as: String.self),
                answered: try row.decode("answered", as: Int.self), correct: try row.decode("correct", as: Int.self))
        }
        let days = try results[2].single()
        var reading = DashboardReading(
            cards: cards, weeks: weeks, streak: try streak(days), studiedDaysAgo: Set(try days.decode("studied_ago", as: [Int].self)),
            weekday: try days.decode("weekday", as: Int.self) - 1, answeredToday: try days.decode("answered_today", as: Int.self),
            holidaysAhead: try days.decodeJSON("holidays_ahead", as: [DashboardReading.HolidayAhead].self),
            sessions: try recentSessions(results[3]),
            remembered: Dictionary(uniqueKeysWithValues: try results[4].rows.map { row in
                (try row.decode("domain_id", as: Int.self),
                 DashboardReading.Remembered(reviews: try row.decode("reviews", as: Int.self), recalled: try row.decode("recalled", as: Int.self)))
            }),
            desiredRetention: try results[5].first?.decode("desired", as: Double.self) ?? 0.9,
            fitted: try FittedWeightsStore.fitted(results[6]), examDates: try ExamDateStore.dates(results[7]))
        reading.timeZoneConfirmed = try results[5].first?.decode("time_zone_confirmed", as: Bool.self) ?? true
        reading.assignments = try SchoolStore.myAssignments(results[8])
        reading.teachingDecision = try results[5].first?.decode("teaching_decision", as: String?.self).flatMap(TeacherRequest.Decision.init(rawValue:))
        return reading
    }

    /// Per exam, per domain: its weight, its published questions, the student's cards among
    /// them and their summed retrievability at `now` — what readiness and weak spots need.
    public func recallByDomain(examIDs: [Int], at now: Date, _ connection: PostgresConnection) throws -> [Int: [(slug: String, recall: DomainRecall)]] {
        var result: [Int: [(slug: String, recall: DomainRecall)]] = [:]
        for row in try connection.query(("""
            SELECT d.exam_id, d.slug, d.weight, count(q.id) AS questions, count(c.question_id) AS seen,
                   coalesce(sum(fsrs_retrievability(c.stability, c.last_review, \(now),
                       coalesce((SELECT f.weights[21] FROM fsrs_weights f WHERE f.user_id = (SELECT app_user_id())), 0.1542))), 0) AS recall
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

    /// The student's latest sessions, newest first.
    public func recentSessions(limit: Int, _ connection: PostgresConnection) throws -> [RecentSession] {
        try Self.recentSessions(connection.query(Self.recentSessionsStatement(limit: limit)))
    }

    static func recentSessionsStatement(limit: Int) -> SQL {
        ("""
            SELECT s.id, s.mode, e.title, e.language, s.started_at, s.finished_at, s.score_percent, s.passed,
                   cardinality(s.question_ids) AS questions, s.deadline_at
            FROM study_sessions s JOIN exams e ON e.id = s.exam_id
            WHERE s.user_id = (SELECT app_user_id())
            ORDER BY s.started_at DESC LIMIT \(limit)
            """ as SQL).prepared()
    }

    static func recentSessions(_ result: QueryResult) throws -> [RecentSession] {
        try result.rows.map { row in
            RecentSession(
                id: try row.decode("id", as: UUID.self), mode: StudyMode(rawValue: try row.decode("mode", as: String.self)) ?? .practice,
                examTitle: try row.decode("title", as: String.self), examLanguage: try row.decode("language", as: String.self),
                startedAt: try row.decode("started_at", as: Date.self), finishedAt: try row.decode("finished_at", as: Date?.self),
                scorePercent: try row.decode("score_percent", as: Double?.self), passed: try row.decode("passed", as: Bool?.self),
                questions: try row.decode("questions", as: Int.self), deadline: try row.decode("deadline_at", as: Date?.self))
        }
    }

    /// The review queue of one exam: cards due by `now`, and published questions without a card
    /// (never an exam-only question: those are for mock exams).
    public func reviewQueue(examID: Int, dueBy now: Date, _ connection: PostgresConnection) throws -> (due: [(id: UUID, due: Date)], unseen: [Candidate]) {
        // Published questions only, as the dashboard counts them.
        let due = try connection.query(("""
            SELECT c.question_id, c.due FROM cards_by_domain c
            JOIN questions q ON q.id = c.question_id AND NOT q.exam_only AND q.status = 'published' AND q.deleted_at IS NULL
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

    /// Every studied question of an exam a review may take (published, not exam-only), with its
    /// domain, when it is due and its recall at `now`: what final-days review chooses from.
    public func studiedCards(examID: Int, at now: Date, _ connection: PostgresConnection) throws -> [StudiedCard] {
        try connection.query(("""
            SELECT c.question_id, d.slug, c.due,
                   fsrs_retrievability(c.stability, c.last_review, \(now),
                       coalesce((SELECT f.weights[21] FROM fsrs_weights f WHERE f.user_id = c.user_id), 0.1542)) AS recall
            FROM cards_by_domain c JOIN domains d ON d.id = c.domain_id
            JOIN questions q ON q.id = c.question_id AND NOT q.exam_only AND q.status = 'published' AND q.deleted_at IS NULL
            WHERE c.user_id = (SELECT app_user_id()) AND c.exam_id = \(examID)
            """ as SQL).prepared()).rows.map { row in
            StudiedCard(
                id: try row.decode("question_id", as: UUID.self), domain: try row.decode("slug", as: String.self),
                due: try row.decode("due", as: Date.self), recall: try row.decode("recall", as: Double.self))
        }
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
    /// The end of the reader's day (their time zone) at `now`: what "due today" counts up to.
    public func endOfDay(at now: Date, _ connection: PostgresConnection) throws -> Date {
        try connection.query(("""
            SELECT (date_trunc('day', \(now)::timestamptz AT TIME ZONE u.time_zone) + interval '1 day') AT TIME ZONE u.time_zone AS day_end
            FROM users u WHERE u.id = (SELECT app_user_id())
            """ as SQL).prepared()).first?.decode("day_end", as: Date.self) ?? now
    }

    public func startOfDay(at now: Date, _ connection: PostgresConnection) throws -> Date {
        try connection.query(("""
            SELECT (date_trunc('day', \(now)::timestamptz AT TIME ZONE u.time_zone) AT TIME ZONE u.time_zone) AS start
            FROM users u WHERE u.id = (SELECT app_user_id())
            """ as SQL).prepared()).first?.decode("start", as: Date.self) ?? now
    }
}
