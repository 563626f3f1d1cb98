import Foundation
import QuestionEngine
import TestSupport
import Testing

@Suite("Answer checking")
struct AnswerCheckerTests {
    @Test("the shared table is there")
    func tableLoads() { #expect(CheckingCase.all.count >= 15) }

    @Test("each response gets its verdict and partial credit, or is refused as no answer", arguments: CheckingCase.all)
    func table(_ row: CheckingCase) {
        let kind = QuestionKind(rawValue: row.kind)!
        do {
            let outcome = try AnswerChecker.check(kind: kind, key: row.key, optionCount: row.options, response: row.response)
            #expect(row.error == nil, "expected \(row.error ?? "") but got a verdict")
            #expect(outcome.isCorrect == row.correct)
            #expect(abs(outcome.score - (row.score ?? -1)) < 1e-9)
        } catch {
            let name = switch error {
            case .empty: "empty"
            case .outOfRange: "outOfRange"
            case .duplicate: "duplicate"
            case .wrongCount: "wrongCount"
            }
            #expect(name == row.error)
        }
    }

    @Test("partial credit for ordering never exceeds full credit and is full only for the key")
    func orderingProperties() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 2...8, using: &random)
            let key = Array(0..<count).shuffled(using: &random)
            let response = Array(0..<count).shuffled(using: &random)
            let outcome = try AnswerChecker.check(kind: .ordering, key: key, optionCount: count, response: response)
            #expect(outcome.score > 0 && outcome.score <= 1)
            #expect((outcome.score == 1) == (response == key))
        }
    }
}
