import Foundation
import QuestionEngine
import TestSupport
import Testing

@Suite("Answer checking", .onTestThreads)
struct AnswerCheckerTests {
    @Test("the shared table is there")
    func tableLoads() { #expect(CheckingCase.all.count >= 15) }

    @Test("each response gets its verdict and partial credit, or is refused as no answer", arguments: CheckingCase.all)
    func table(_ row: CheckingCase) throws {
        let kind = try #require(QuestionKind(rawValue: row.kind))
        let coder = JSONEncoder()
        let options = try JSONDecoder().decode([QuestionOption].self, from: coder.encode(row.optionsJSON))
        let details = try JSONDecoder().decode(QuestionDetails.self, from: coder.encode(row.detailsJSON))
        let correct = try JSONDecoder().decode([Int].self, from: coder.encode(row.key))
        do {
            let outcome = try AnswerChecker.check(AnswerKey(kind: kind, options: options, correct: correct, details: details), AnswerResponse(json: row.response))
            #expect(row.error == nil, "expected \(row.error ?? "") but got a verdict")
            #expect(outcome.isCorrect == row.correct)
            #expect(abs(outcome.score - (row.score ?? -1)) < 1e-9)
        } catch {
            #expect(error.code == row.error)
        }
    }

    @Test("every kind has cases in the shared table")
    func everyKind() {
        #expect(Set(CheckingCase.all.map(\.kind)) == Set(QuestionKind.allCases.map(\.rawValue)))
    }

    @Test("partial credit for ordering never exceeds full credit and is full only for the key")
    func orderingProperties() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 2...8, using: &random)
            let key = Array(0..<count).shuffled(using: &random)
            let response = Array(0..<count).shuffled(using: &random)
            let outcome = try AnswerChecker.check(.order(key: key), .indexes(response))
            #expect(outcome.score > 0 && outcome.score <= 1)
            #expect((outcome.score == 1) == (response == key))
        }
    }
}
