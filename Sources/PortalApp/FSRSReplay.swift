import Foundation
import QuestionEngine

/// `portal fsrs-replay`: review histories in, the scheduler's states out, in the shape of the
/// reference vectors, so anyone can cross-check the scheduler against another implementation;
/// `portal fsrs-optimize`: the same histories in, fitted weights out.
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

    /// The review histories of `input`, refused with a message when a rating is not 1–4.
    static func histories(_ input: Data) throws -> [[FSRSReview]] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Input.self, from: input).cards.map { card in
            try card.reviews.map { review in
                guard let rating = FSRSRating(rawValue: review.rating) else {
                    throw ConfigurationError("a rating must be 1 (again) to 4 (easy), not \(review.rating)")
                }
                return FSRSReview(rating: rating, at: review.at)
            }
        }
    }

    /// `portal fsrs-optimize`: the same histories in, the weights fitted to them out
    /// (`{"parameters": [21 numbers], "logLoss": …, "logLossBefore": …, "reviews": …}`), so the
    /// optimizer can be checked against other implementations on the same data.
    static func optimize(_ input: Data) throws -> Data {
        struct Output: Encodable { var parameters: [Double]; var logLoss: Double; var logLossBefore: Double; var reviews: Int }
        let fit = FSRSOptimizer.fit(try histories(input))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(Output(parameters: fit.weights, logLoss: fit.logLoss, logLossBefore: fit.logLossBefore, reviews: fit.reviews))
    }

    static func run(_ input: Data) throws -> Data {
        let scheduler = FSRSScheduler()
        let histories = try histories(input)
        var cards: [Output.Card] = []
        for history in histories {
            guard let first = history.first else {
                cards.append(Output.Card(states: []))
                continue
            }
            var card = FSRSCard(due: first.at)
            var states: [Output.State] = []
            for review in history {
                card = scheduler.review(card, rating: review.rating, at: review.at)
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
