import Foundation
import QuestionEngine

/// `portal fsrs-replay`: review histories in, the scheduler's states out, in the shape of the
/// reference vectors, so anyone can cross-check the scheduler against another implementation.
enum FSRSReplay {
    struct Input: Decodable {
        struct Card: Decodable { var reviews: [Review] }
        struct Review: Decodable { var rating: Int; var at: Date }
        var cards: [Card]
    }

    struct Output: Encodable {
        struct Card: Encodable { var states: [State] }
        struct State: Encodable { var state: String; var step: Int?; var stability: Double; var difficulty: Double; var due: Date }
        var cards: [Card]
    }

    static func run(_ input: Data) throws -> Data {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let histories = try decoder.decode(Input.self, from: input)
        let scheduler = FSRSScheduler()
        var cards: [Output.Card] = []
        for history in histories.cards {
            guard let first = history.reviews.first else {
                cards.append(Output.Card(states: []))
                continue
            }
            var card = FSRSCard(due: first.at)
            var states: [Output.State] = []
            for review in history.reviews {
                guard let rating = FSRSRating(rawValue: review.rating) else {
                    throw ConfigurationError("a rating must be 1 (again) to 4 (easy), not \(review.rating)")
                }
                card = scheduler.review(card, rating: rating, at: review.at)
                states.append(Output.State(
                    state: card.state.rawValue, step: card.step, stability: card.stability ?? 0, difficulty: card.difficulty ?? 0, due: card.due))
            }
            cards.append(Output.Card(states: states))
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(Output(cards: cards))
    }
}
