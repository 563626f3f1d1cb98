import Foundation
import PostgresClient
import QuestionEngine

/// The signed-in student's FSRS review cards: derived from their answers, kept current as
/// answers arrive, and rebuildable from the answer history at any time.
public struct ReviewCardStore: Sendable {
    public let scheduler: FSRSScheduler

    public init(scheduler: FSRSScheduler = FSRSScheduler()) {
        self.scheduler = scheduler
    }

    /// A store scheduling as `schedule` says (the student's retention and weights).
    public init(schedule: StudentSchedule) {
        scheduler = schedule.scheduler
    }

    /// A store scheduling as the student (the caller when nil) chose, with their fitted weights.
    public static func forStudent(_ student: UUID? = nil, _ connection: PostgresConnection) throws -> ReviewCardStore {
        ReviewCardStore(schedule: try StudentSchedule.of(student, connection))
    }

    /// The student's cards for these questions.
    public func cards(questionIDs: [UUID], for student: UUID? = nil, _ connection: PostgresConnection) throws -> [UUID: StoredCard] {
        let rows = try connection.query(("""
            SELECT question_id, state, step, stability, difficulty, due, last_review, first_review, reviews, lapses
            FROM review_cards WHERE user_id = coalesce(\(student)::uuid, (SELECT app_user_id())) AND question_id = ANY (\(questionIDs)::uuid[])
            """ as SQL).prepared()).rows
        var cards: [UUID: StoredCard] = [:]
        for row in rows {
            let card = try Self.card(row)
            cards[card.questionID] = card
        }
        return cards
    }

    /// The card after one rated answer, as the scheduler in Swift computes it; due in time for
    /// `examDay` when the student sits the question's exam then (`ExamDayPlan.aim`). Cards are
    /// the database's to write (`review_card_apply`, the same formulas): this is what the tests
    /// hold them to, and what previews and simulations use.
    public func next(questionID: UUID, rating: FSRSRating, at date: Date, current: StoredCard?, examDay: Date? = nil) -> StoredCard {
        var next = current?.reviewed(rating, at: date, scheduler: scheduler)
            ?? StoredCard.first(questionID: questionID, rating: rating, at: date, scheduler: scheduler)
        next.card = ExamDayPlan.aim(next.card, at: examDay, scheduler: scheduler)
        return next
    }

    /// One rated answer that shapes a card, with the start of the day the student sits the
    /// question's exam (nil when they have not said).
    public struct HistoryReview: Sendable, Equatable {
        public var questionID: UUID
        public var rating: FSRSRating
        public var at: Date
        public var examDay: Date?
    }

    /// The rated answers that shape the student's cards, in the order they were reviewed: each
    /// practice answer when given; a mock exam's final answer per question when the exam ended.
    public func reviewHistory(for student: UUID? = nil, _ connection: PostgresConnection) throws -> [HistoryReview] {
        try connection.query(("""
            WITH me AS (SELECT u.id, u.time_zone FROM users u WHERE u.id = coalesce(\(student)::uuid, (SELECT app_user_id())))
            SELECT a.question_id, a.rating, CASE WHEN s.mode = 'mock' THEN s.finished_at ELSE a.answered_at END AS reviewed_at,
                   (SELECT x.sits_on::timestamp AT TIME ZONE me.time_zone FROM exam_dates x JOIN domains d ON d.exam_id = x.exam_id
                    JOIN questions q ON q.domain_id = d.id WHERE q.id = a.question_id AND x.user_id = me.id) AS exam_day
            FROM me JOIN answers a ON a.user_id = me.id JOIN study_sessions s ON s.id = a.session_id
            WHERE a.rating IS NOT NULL
              AND (s.mode <> 'mock'
                   OR (s.finished_at IS NOT NULL
                       AND a.id = (SELECT c.id FROM counted_answers c WHERE c.session_id = a.session_id AND c.question_id = a.question_id)))
            ORDER BY a.question_id, reviewed_at, a.answered_at, a.id
            """ as SQL).prepared()).rows.map { row in
            HistoryReview(
                questionID: try row.decode("question_id", as: UUID.self),
                rating: FSRSRating(rawValue: try row.decode("rating", as: Int.self)) ?? .good,
                at: try row.decode("reviewed_at", as: Date.self), examDay: try row.decode("exam_day", as: Date?.self))
        }
    }

    /// Every card the history implies, computed afresh (each due in time for its exam's day).
    public func derivedCards(for student: UUID? = nil, _ connection: PostgresConnection) throws -> [UUID: StoredCard] {
        var cards: [UUID: StoredCard] = [:]
        for review in try reviewHistory(for: student, connection) {
            cards[review.questionID] = next(
                questionID: review.questionID, rating: review.rating, at: review.at, current: cards[review.questionID], examDay: review.examDay)
        }
        return cards
    }

    /// Every stored card of the student.
    public func storedCards(for student: UUID? = nil, _ connection: PostgresConnection) throws -> [UUID: StoredCard] {
        var cards: [UUID: StoredCard] = [:]
        for row in try connection.query(("""
            SELECT question_id, state, step, stability, difficulty, due, last_review, first_review, reviews, lapses
            FROM review_cards WHERE user_id = coalesce(\(student)::uuid, (SELECT app_user_id()))
            """ as SQL).prepared()).rows {
            let card = try Self.card(row)
            cards[card.questionID] = card
        }
        return cards
    }

    /// Rebuilds the student's cards (the caller's when nil; another's only on the owner's
    /// connection) from their answers, in the database (`review_cards_rebuild`); returns how
    /// many cards there are and how many stored ones differed (0 when the updates as answers
    /// arrived agree with the history, as they should).
    public func rebuild(for student: UUID? = nil, _ connection: PostgresConnection) throws -> (cards: Int, differing: Int) {
        let row = try connection.query(("SELECT cards, differing FROM review_cards_rebuild(\(student)::uuid)" as SQL).prepared()).single()
        return (try row.decode("cards", as: Int.self), try row.decode("differing", as: Int.self))
    }

    /// Rebuilds every student's cards, one transaction per student, on the owner's connection
    /// (`portal rebuild-cards` runs as the owner: no app-role connection may act as another
    /// student, and the owner reaches the rows through portal_auth's policies).
    public func rebuildAll(_ owner: PostgresConnection) throws -> (students: Int, cards: Int, differing: Int) {
        let students = try owner.query("SELECT DISTINCT user_id FROM answers WHERE user_id IS NOT NULL ORDER BY user_id").rows
            .map { try $0.decode("user_id", as: UUID.self) }
        var cards = 0, differing = 0
        for student in students {
            let result = try owner.withTransaction { try rebuild(for: student, $0) }
            cards += result.cards
            differing += result.differing
        }
        return (students.count, cards, differing)
    }

    /// Equal up to the storage's rounding of times to microseconds and floats to 15 digits.
    public static func agree(_ left: StoredCard, _ right: StoredCard) -> Bool {
        func close(_ a: Double?, _ b: Double?) -> Bool { abs((a ?? 0) - (b ?? 0)) <= 1e-9 * max(1, abs(a ?? 0)) }
        func same(_ a: Date?, _ b: Date?) -> Bool { abs((a ?? .distantPast).timeIntervalSince(b ?? .distantPast)) < 0.001 }
        return left.card.state == right.card.state && left.card.step == right.card.step
            && close(left.card.stability, right.card.stability) && close(left.card.difficulty, right.card.difficulty)
            && same(left.card.due, right.card.due) && same(left.card.lastReview, right.card.lastReview)
            && same(left.firstReview, right.firstReview) && left.reviews == right.reviews && left.lapses == right.lapses
    }

    /// Reads a card from a row of `review_cards` columns, each name after `prefix`.
    static func card(_ row: PostgresRow, prefix: String = "") throws -> StoredCard {
        var card = FSRSCard(due: try row.decode(prefix + "due", as: Date.self))
        card.state = FSRSState(rawValue: try row.decode(prefix + "state", as: String.self)) ?? .learning
        card.step = try row.decode(prefix + "step", as: Int?.self)
        card.stability = try row.decode(prefix + "stability", as: Double.self)
        card.difficulty = try row.decode(prefix + "difficulty", as: Double.self)
        card.lastReview = try row.decode(prefix + "last_review", as: Date.self)
        return StoredCard(
            questionID: try row.decode(prefix + "question_id", as: UUID.self), card: card,
            firstReview: try row.decode(prefix + "first_review", as: Date.self),
            reviews: try row.decode(prefix + "reviews", as: Int.self), lapses: try row.decode(prefix + "lapses", as: Int.self))
    }
}
