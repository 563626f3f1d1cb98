import Foundation
import QuestionEngine
import Testing
import TestSupport

@Suite("Question selection", .onTestThreads)
struct QuestionSelectorTests {
    /// 7 domains × 5 difficulties × 12 questions.
    static let pool: [Candidate] = (0..<7).flatMap { domain in
        (1...5).flatMap { level in (0..<12).map { _ in Candidate(id: UUID(), domain: "d\(domain)", difficulty: level) } }
    }
    static let blueprint = ["d0": 20, "d1": 20, "d2": 15, "d3": 15, "d4": 10, "d5": 10, "d6": 10]

    @Test("practice respects its filters, never repeats, and the same seed gives the same session")
    func practice() {
        for seed in UInt64(0)..<200 {
            let ids = QuestionSelector.practice(Self.pool, domains: ["d1", "d3"], difficulty: 2...4, count: 30, seed: seed)
            #expect(ids.count == 30)
            #expect(Set(ids).count == ids.count)
            let chosen = Self.pool.filter { ids.contains($0.id) }
            #expect(chosen.allSatisfy { ["d1", "d3"].contains($0.domain) && (2...4).contains($0.difficulty) })
            #expect(QuestionSelector.practice(Self.pool, domains: ["d1", "d3"], difficulty: 2...4, count: 30, seed: seed) == ids)
        }
        #expect(QuestionSelector.practice(Self.pool, count: 30, seed: 1) != QuestionSelector.practice(Self.pool, count: 30, seed: 2))
    }

    @Test("a mock exam follows the blueprint within rounding, spreads difficulty and never repeats")
    func mockExam() {
        for seed in UInt64(0)..<200 {
            let ids = QuestionSelector.mockExam(Self.pool, blueprint: Self.blueprint, count: 65, seed: seed)
            #expect(ids.count == 65)
            #expect(Set(ids).count == 65)
            let chosen = Self.pool.filter { ids.contains($0.id) }
            for (domain, weight) in Self.blueprint {
                let share = chosen.filter { $0.domain == domain }.count
                #expect(abs(Double(share) - 65.0 * Double(weight) / 100) < 1, "\(domain): \(share)")
            }
            #expect(Set(chosen.map(\.difficulty)) == Set(1...5))
        }
    }

    @Test("review takes due questions most overdue first, then new ones up to the daily limit")
    func review() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let due = (0..<5).map { (id: UUID(), due: now.addingTimeInterval(Double(-$0) * 86_400)) }
        let later = (id: UUID(), due: now.addingTimeInterval(86_400))
        let ids = QuestionSelector.review(due: due + [later], dueBy: now, unseen: Array(Self.pool.prefix(20)), newLimit: 3, count: 50, seed: 7)
        #expect(Array(ids.prefix(5)) == due.reversed().map(\.id))
        #expect(!ids.contains(later.id))
        #expect(ids.count == 8)
    }

    @Test("weak spots start with the domain recalled worst")
    func weakSpots() {
        let recall = ["d0": 0.9, "d1": 0.3, "d2": 0.6, "d3": 0.95, "d4": 0.8, "d5": 0.7, "d6": 0.5]
        let ids = QuestionSelector.weakSpots(Self.pool, recallByDomain: recall, count: 70, seed: 3)
        let domains = ids.map { id in Self.pool.first { $0.id == id }!.domain }
        #expect(Array(domains.prefix(60)).allSatisfy { $0 == "d1" })
        #expect(Array(domains.dropFirst(60)).allSatisfy { $0 == "d6" })
        #expect(Set(ids).count == ids.count)
    }
}
