import Foundation
import PostgresClient
import QuestionEngine

/// What the signed-in student's schedule is fitted to, as their dashboard tells it.
public struct FittedWeights: Sendable, Equatable {
    /// The fitted weights; nil while the defaults apply.
    public var weights: [Double]?
    /// Scored reviews fitted to (or counted at the last check).
    public var reviews: Int
    public var logLossBefore: Double?
    public var logLossAfter: Double?
    public var fittedAt: Date?
}

/// Fits each student's FSRS weights to their own history: at least `minimumReviews` scored
/// reviews (made on a later day than the card's previous one), and again after every
/// `refitAfter` more. Runs on a connection scoped to the student (their rows only); the caller
/// holds the job's lock.
public struct FittedWeightsStore: Sendable {
    /// Scored reviews before a student's weights are fitted.
    public static let minimumReviews = 400
    /// Further scored reviews before they are fitted again.
    public static let refitAfter = 500
    /// Further reviews of any kind before a history found too short is counted again.
    static let recheckAfter = 100

    public init() {}

    /// What happened when the student's history was looked at.
    public enum Outcome: Sendable, Equatable {
        /// Not enough new reviews since the last look to look again (nothing read).
        case notDue
        /// Counted, not yet enough: the scored reviews there are.
        case tooFew(Int)
        /// Fitted: the fit, and the cards rescheduled with it.
        case fitted(FSRSFit, rescheduled: Int)
    }

    /// The statement `fitted` reads, for a caller that sends it with others in one flight.
    public static let fittedStatement: SQL = ("""
        SELECT to_jsonb(weights) AS weights, reviews, log_loss_before, log_loss_after, fitted_at FROM fsrs_weights WHERE user_id = (SELECT app_user_id())
        """ as SQL).prepared()

    /// The student's fit, from the rows of `fittedStatement` (nil before the first look).
    public static func fitted(_ result: QueryResult) throws -> FittedWeights? {
        guard let row = result.first else { return nil }
        let weights = try row.decode("weights", as: PostgresJSON?.self) == nil ? nil : try row.decodeJSON("weights", as: [Double].self)
        return FittedWeights(
            weights: weights, reviews: try row.decode("reviews", as: Int.self),
            logLossBefore: try row.decode("log_loss_before", as: Double?.self), logLossAfter: try row.decode("log_loss_after", as: Double?.self),
            fittedAt: try row.decode("fitted_at", as: Date?.self))
    }

    /// The advisory lock's key ("fsrs" as four bytes), shared by every instance.
    static let lockKey: Int64 = 0x6673_7273

    /// Takes the fitting job's turn for the caller's transaction: false while another instance
    /// (or thread) is fitting. One fit at a time keeps the CPU work off a small machine's cores.
    public func takeTurn(_ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT pg_try_advisory_xact_lock(\(Self.lockKey)) AS locked" as SQL).prepared()).single().decode("locked", as: Bool.self)
    }

    /// Looks at the signed-in student's history and fits their weights when it has grown
    /// enough; a fit is stored with both log losses and reschedules their cards from history.
    public func fitIfDue(at now: Date, _ connection: PostgresConnection) throws -> Outcome {
        // Every rated review so far, counted from the cards (one indexed read), against the
        // count at the last look: a cheap test before any history is read. Scored reviews never
        // outnumber reviews, nor grow faster.
        let row = try connection.query(("""
            SELECT coalesce((SELECT sum(c.reviews) FROM review_cards c WHERE c.user_id = (SELECT app_user_id())), 0)::bigint AS total,
                   f.history_reviews, f.reviews, f.weights IS NOT NULL AS fitted, f.checked_at
            FROM (SELECT 1) AS one LEFT JOIN fsrs_weights f ON f.user_id = (SELECT app_user_id())
            """ as SQL).prepared()).single()
        let total = try row.decode("total", as: Int.self)
        let lastTotal = try row.decode("history_reviews", as: Int?.self)
        let lastReviews = try row.decode("reviews", as: Int?.self) ?? 0
        let wasFitted = try row.decode("fitted", as: Bool?.self) ?? false
        let checkedAt = try row.decode("checked_at", as: Date?.self) ?? .distantPast
        let threshold: Int
        if wasFitted {
            // `history_reviews` is the count when the weights were fitted; a look that finds
            // too few new scored reviews is repeated a day later at the soonest.
            threshold = lastReviews + Self.refitAfter
            guard total >= (lastTotal ?? 0) + Self.refitAfter, now.timeIntervalSince(checkedAt) >= 86_400 || lastTotal == nil else { return .notDue }
        } else {
            threshold = Self.minimumReviews
            guard total >= threshold, lastTotal.map({ total >= $0 + Self.recheckAfter }) ?? true else { return .notDue }
        }

        let cards = ReviewCardStore()
        let histories = Dictionary(grouping: try cards.reviewHistory(connection), by: \.questionID).values
            .sorted { $0[0].questionID.uuidString < $1[0].questionID.uuidString }
            .map { $0.map { FSRSReview(rating: $0.rating, at: $0.at) } }
        let scored = FSRSOptimizer.scoredReviews(histories)
        guard scored >= threshold else {
            // Fitted weights keep the counts they were fitted at; unfitted ones the latest.
            try connection.execute(("""
                INSERT INTO fsrs_weights (user_id, weights, reviews, history_reviews, checked_at)
                VALUES ((SELECT app_user_id()), NULL, \(scored), \(total), \(now))
                ON CONFLICT (user_id) DO UPDATE SET checked_at = EXCLUDED.checked_at,
                    reviews = CASE WHEN fsrs_weights.weights IS NULL THEN EXCLUDED.reviews ELSE fsrs_weights.reviews END,
                    history_reviews = CASE WHEN fsrs_weights.weights IS NULL THEN EXCLUDED.history_reviews ELSE fsrs_weights.history_reviews END
                """ as SQL).prepared())
            return .tooFew(scored)
        }
        let fit = FSRSOptimizer.fit(histories)
        try connection.execute(("""
            INSERT INTO fsrs_weights (user_id, weights, reviews, log_loss_before, log_loss_after, history_reviews, fitted_at, checked_at)
            VALUES ((SELECT app_user_id()), \(Self.arrayText(fit.weights))::float8[], \(fit.reviews), \(fit.logLossBefore), \(fit.logLoss),
                    \(total), \(now), \(now))
            ON CONFLICT (user_id) DO UPDATE SET weights = EXCLUDED.weights, reviews = EXCLUDED.reviews,
                log_loss_before = EXCLUDED.log_loss_before, log_loss_after = EXCLUDED.log_loss_after,
                history_reviews = EXCLUDED.history_reviews, fitted_at = EXCLUDED.fitted_at, checked_at = EXCLUDED.checked_at
            """ as SQL).prepared())
        // From here on the student's cards follow their own weights.
        let rebuilt = try cards.rebuild(connection)
        return .fitted(fit, rescheduled: rebuilt.differing)
    }

    /// An array literal PostgreSQL reads exactly: every weight with 17 significant digits.
    static func arrayText(_ weights: [Double]) -> String {
        "{" + weights.map { "\($0)" }.joined(separator: ",") + "}"
    }
}
