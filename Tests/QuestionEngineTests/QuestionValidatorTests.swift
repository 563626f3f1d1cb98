import Foundation
import QuestionEngine
import Testing

/// One row of `Tests/Fixtures/question-shapes.json`: a shape and the problem it must get
/// (the database's CHECK is held to the same table in ExamDataTests).
struct ShapeCase: Decodable, CustomStringConvertible, Sendable {
    var name: String
    var type: String
    var options: JSONValue
    var correct: JSONValue
    var problem: String?
    var description: String { name }

    static let all: [ShapeCase] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/question-shapes.json")
        return (try? JSONDecoder().decode([ShapeCase].self, from: Data(contentsOf: url))) ?? []
    }()
}

@Suite("Question shape validator")
struct QuestionValidatorTests {
    @Test("the fixture table is there")
    func fixtureLoads() {
        #expect(ShapeCase.all.count >= 20)
    }

    @Test("each shape gets exactly the expected problem, or none", arguments: ShapeCase.all)
    func shapes(_ shape: ShapeCase) {
        #expect(QuestionValidator.problem(type: shape.type, options: shape.options, correct: shape.correct) == shape.problem)
    }
}
