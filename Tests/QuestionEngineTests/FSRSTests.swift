import Foundation
import QuestionEngine
import TestSupport
import Testing

/// The reference histories in `Tests/Fixtures/fsrs-vectors.json`, produced by py-fsrs 6.3.2.
struct FSRSVectors: Decodable {
    struct Review: Decodable { var rating: Int; var at: Date }
    struct State: Decodable { var state: String; var step: Int?; var stability: Double; var difficulty: Double; var due: Date }
    struct Card: Decodable { var reviews: [Review]; var states: [State] }
    var parameters: [Double]
    var desiredRetention: Double
    var cards: [Card]

    static func load() throws -> FSRSVectors {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(FSRSVectors.self, from: Data(contentsOf: URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/fsrs-vectors.json")))
    }
}

@Suite("FSRS-6 scheduling", .onTestThreads)
struct FSRSTests {
    @Test("every reference history replays to the reference states: stability and difficulty to 1e-4, due to the second")
    func referenceVectors() throws {
        let vectors = try FSRSVectors.load()
        #expect(vectors.cards.count >= 10)
        let scheduler = FSRSScheduler(parameters: FSRSParameters(weights: vectors.parameters, desiredRetention: vectors.desiredRetention))
        for (cardIndex, reference) in vectors.cards.enumerated() {
            var card = FSRSCard(due: reference.reviews[0].at)
            for (reviewIndex, (review, expected)) in zip(reference.reviews, reference.states).enumerated() {
                card = scheduler.review(card, rating: FSRSRating(rawValue: review.rating)!, at: review.at)
                let place = "card \(cardIndex) review \(reviewIndex)"
                #expect(card.state.rawValue == expected.state, "\(place): state")
                #expect(card.step == expected.step, "\(place): step")
                #expect(abs(card.stability! - expected.stability) <= 1e-4 * max(1, expected.stability), "\(place): stability \(card.stability!) vs \(expected.stability)")
                #expect(abs(card.difficulty! - expected.difficulty) <= 1e-4 * max(1, expected.difficulty), "\(place): difficulty \(card.difficulty!) vs \(expected.difficulty)")
                #expect(abs(card.due.timeIntervalSince(expected.due)) < 1, "\(place): due \(card.due) vs \(expected.due)")
            }
        }
    }

    @Test("retrievability falls with time and is 0.9 after one stability")
    func retrievability() {
        let scheduler = FSRSScheduler()
        var card = FSRSCard(due: Date(timeIntervalSince1970: 0))
        card.lastReview = Date(timeIntervalSince1970: 0)
        card.stability = 10
        let r = (0...40).map { scheduler.retrievability(of: card, at: Date(timeIntervalSince1970: Double($0) * 86_400)) }
        #expect(r.first == 1)
        #expect(zip(r, r.dropFirst()).allSatisfy { $0 > $1 })
        #expect(abs(r[10] - 0.9) < 1e-9)
    }
}
