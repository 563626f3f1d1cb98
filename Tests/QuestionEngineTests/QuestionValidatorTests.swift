import Foundation
import QuestionEngine
import TestSupport
import Testing

@Suite("Question shape validator", .onTestThreads)
struct QuestionValidatorTests {
    @Test("the fixture table is there")
    func fixtureLoads() {
        #expect(ShapeCase.all.count >= 20)
    }

    @Test("each shape gets exactly the expected problem, or none", arguments: ShapeCase.all)
    func shapes(_ shape: ShapeCase) {
        #expect(QuestionValidator.problem(type: shape.type, options: shape.options, correct: shape.correct, details: shape.detailsJSON) == shape.problem)
    }
}
