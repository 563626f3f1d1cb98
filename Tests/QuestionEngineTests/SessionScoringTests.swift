import Foundation
import QuestionEngine
import Testing
import TestSupport

@Suite("Results tallies and readiness", .onTestThreads)
struct SessionScoringTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the results show the stored score as it is; each domain tallies its wholly right answers, a half-right one among the wrong; unanswered questions count in the total but not as answered")
    func tallies() {
        let right = AnswerOutcome(isCorrect: true, score: 1), halfRight = AnswerOutcome(isCorrect: false, score: 0.5)
        let items = [
            ScoredItem(domain: "a", outcome: right), ScoredItem(domain: "b", outcome: halfRight), ScoredItem(domain: "a", outcome: right),
            ScoredItem(domain: "b", outcome: nil), ScoredItem(domain: "a", outcome: nil),
        ]
        let stored = SessionScorer.Stored(correct: 2, percent: 40, passed: true)
        let score = SessionScorer.score(items, stored: stored, startedAt: start, endedAt: start.addingTimeInterval(125))
        #expect(score.correct == 2 && score.percent == 40 && score.passed)
        #expect(score.answered == 3 && score.total == 5)
        #expect(score.domains.map(\.domain) == ["a", "b"])
        #expect(score.domains[0].correct == 2 && score.domains[0].total == 3)
        #expect(score.domains[1].correct == 0 && score.domains[1].total == 2 && score.domains[1].percent == 0)
        #expect(score.timeUsed == 125)
    }

    @Test("a mock exam's time used never exceeds its limit")
    func limits() {
        let stored = SessionScorer.Stored(correct: 0, percent: 0, passed: false)
        let score = SessionScorer.score([ScoredItem(domain: "a", outcome: nil)], stored: stored, startedAt: start, endedAt: start.addingTimeInterval(5000), timeLimit: 3600)
        #expect(score.timeUsed == 3600)
    }

    @Test("readiness weights domains by the blueprint and counts unseen questions at the prior")
    func readiness() {
        let fresh = [DomainRecall(weight: 60, questions: 10, seen: 0, recallSum: 0), DomainRecall(weight: 40, questions: 10, seen: 0, recallSum: 0)]
        #expect(abs(Readiness.predict(fresh) - Readiness.unseenPrior) < 1e-12)
        let mastered = [DomainRecall(weight: 60, questions: 10, seen: 10, recallSum: 10), DomainRecall(weight: 40, questions: 10, seen: 0, recallSum: 0)]
        #expect(abs(Readiness.predict(mastered) - (0.6 + 0.4 * Readiness.unseenPrior)) < 1e-12)
        #expect(Readiness.predict([]) == Readiness.unseenPrior)
    }

    @Test("readiness never falls when any card's retrievability rises", arguments: 0..<50)
    func readinessIsMonotonic(_ seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        var retrievability = (0..<12).map { _ in Double.random(in: 0...1, using: &random) }
        let domainOf = (0..<12).map { $0 % 3 }
        let weights = [50, 30, 20]
        func predict() -> Double {
            Readiness.predict((0..<3).map { domain in
                let cards = retrievability.indices.filter { domainOf[$0] == domain }
                return DomainRecall(weight: weights[domain], questions: 8, seen: cards.count, recallSum: cards.reduce(0) { $0 + retrievability[$1] })
            })
        }
        var previous = predict()
        for _ in 0..<40 {
            let card = Int.random(in: 0..<12, using: &random)
            retrievability[card] = min(1, retrievability[card] + Double.random(in: 0...0.3, using: &random))
            let next = predict()
            #expect(next >= previous - 1e-12)
            previous = next
        }
    }
}
