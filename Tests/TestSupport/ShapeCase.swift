import Foundation
import QuestionEngine

/// One row of `Tests/Fixtures/question-shapes.json`: a question shape and the problem it must
/// get, or nil for a sound one. The Swift validator and the database CHECK are both held to it.
public struct ShapeCase: Decodable, CustomStringConvertible, Sendable {
    public var name: String
    public var type: String
    public var options: JSONValue
    public var correct: JSONValue
    /// The kind's own fields (targets, accepted answers, an image), when it has any.
    public var details: JSONValue?
    public var problem: String?
    /// The stem to store it with (a cloze question's marks its gaps), "Stem" when absent.
    public var stem: String?
    public var description: String { name }
    /// The details as stored (an empty object when the case has none).
    public var detailsJSON: JSONValue { details ?? .object([:]) }

    /// Every row of the fixture.
    public static let all: [ShapeCase] = {
        let url = URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/question-shapes.json")
        return (try? JSONDecoder().decode([ShapeCase].self, from: Data(contentsOf: url))) ?? []
    }()
}
