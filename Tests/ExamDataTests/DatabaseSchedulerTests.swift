import Foundation
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// The database schedules review cards itself (`fsrs_review`, a port of QuestionEngine's
/// FSRSScheduler): it must replay the reference implementation's histories to their states, and
/// agree with the Swift scheduler on any history, weights and retention.
@Suite("FSRS-6 in the database", .onTestThreads)
struct DatabaseSchedulerTests {
    struct Vectors: Decodable {
        struct Review: Decodable { var rating: Int; var at: Date }
        struct State: Decodable { var state: String; var step: Int?; var stability: Double; var difficulty: Double; var due: Date }
        struct Card: Decodable { var reviews: [Review]; var states: [State] }
        var parameters: [Double]
        var desiredRetention: Double
        var cards: [Card]
    }

    /// One review in the database: the card's state after it.
    static func review(_ card: FSRSCard, rating: Int, at: Date, weights: [Double], retention: Double, _ connection: PostgresConnection) throws -> FSRSCard {
        let row = try connection.query("""
            SELECT state, step, stability, difficulty, due FROM fsrs_review(
                \(card.stability == nil ? "learning" : card.state.rawValue), \(card.step), \(card.stability)::float8, \(card.difficulty)::float8,
                \(card.lastReview)::timestamptz, \(rating), \(at), \("{" + weights.map { "\($0)" }.joined(separator: ",") + "}")::float8[], \(retention)::float8)
            """).single()
        var next = FSRSCard(due: try row.decode("due", as: Date.self))
        next.state = FSRSState(rawValue: try row.decode("state", as: String.self)) ?? .learning
        next.step = try row.decode("step", as: Int?.self)
        next.stability = try row.decode("stability", as: Double.self)
        next.difficulty = try row.decode("difficulty", as: Double.self)
        next.lastReview = at
        return next
    }

    @Test("every reference history replays in the database to the reference states")
    func referenceVectors() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let vectors = try decoder.decode(Vectors.self, from: Data(contentsOf: URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/fsrs-vectors.json")))
        let database = try TestDatabase(migrated: true)
        let connection = try database.adminConnection()
        var checked = 0
        for (cardIndex, reference) in vectors.cards.enumerated() {
            var card = FSRSCard(due: reference.reviews[0].at)
            for (reviewIndex, (review, expected)) in zip(reference.reviews, reference.states).enumerated() {
                card = try Self.review(card, rating: review.rating, at: review.at, weights: vectors.parameters, retention: vectors.desiredRetention, connection)
                let place = "card \(cardIndex) review \(reviewIndex)"
                #expect(card.state.rawValue == expected.state && card.step == expected.step, "\(place)")
                #expect(abs(card.stability! - expected.stability) <= 1e-4 * max(1, expected.stability), "\(place): stability")
                #expect(abs(card.difficulty! - expected.difficulty) <= 1e-4 * max(1, expected.difficulty), "\(place): difficulty")
                #expect(abs(card.due.timeIntervalSince(expected.due)) < 1, "\(place): due")
                checked += 1
            }
        }
        #expect(checked >= 60)
    }

    @Test("on random histories, with other weights and retentions, the database and the Swift scheduler agree at every review")
    func agreesWithSwift() throws {
        let database = try TestDatabase(migrated: true)
        let connection = try database.adminConnection()
        // Seeded, and the seed said with every failure: a failing history can be run again.
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        for history in 0..<12 {
            // The defaults, or weights nudged within a few percent (as fitting moves them).
            let weights = history % 3 == 0 ? FSRSParameters.defaultWeights
                : FSRSParameters.defaultWeights.map { $0 * Double.random(in: 0.95...1.05, using: &random) }
            let retention = [0.70, 0.85, 0.90, 0.97][history % 4]
            let scheduler = FSRSScheduler(parameters: FSRSParameters(weights: weights, desiredRetention: retention))
            var swift = FSRSCard(due: start), sql = FSRSCard(due: start), at = start
            for step in 0..<25 {
                let rating = Int.random(in: 1...4, using: &random)
                swift = scheduler.review(swift, rating: FSRSRating(rawValue: rating)!, at: at)
                sql = try Self.review(sql, rating: rating, at: at, weights: weights, retention: retention, connection)
                let place = "seed \(seed), history \(history) review \(step)"
                #expect(swift.state == sql.state && swift.step == sql.step, "\(place): \(swift.state) vs \(sql.state)")
                #expect(abs(swift.stability! - sql.stability!) <= 1e-9 * max(1, swift.stability!), "\(place): stability")
                #expect(abs(swift.difficulty! - sql.difficulty!) <= 1e-9 * max(1, swift.difficulty!), "\(place): difficulty")
                #expect(abs(swift.due.timeIntervalSince(sql.due)) < 0.001, "\(place): due \(swift.due) vs \(sql.due)")
                // Reviewed when due, early or late by up to a day (a due moment, to the microsecond).
                at = sql.due.addingTimeInterval(Double(Int.random(in: -86_400...86_400, using: &random)))
                if at <= sql.lastReview! { at = sql.lastReview!.addingTimeInterval(60) }
                at = Date(timeIntervalSince1970: (at.timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000)
            }
        }
    }
}
