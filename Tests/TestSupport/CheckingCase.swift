import Foundation
import QuestionEngine

/// One row of `Tests/Fixtures/answer-checking.json`: the answer-checking cases that the Swift
/// checker, the database's `answer_outcome` and the browser's offline checker are all held to.
/// `options` is the question's options, or for the choice kinds just how many there are.
public struct CheckingCase: Decodable, CustomStringConvertible, Sendable {
    public var name: String
    public var kind: String
    public var options: JSONValue
    public var key: JSONValue
    public var details: JSONValue?
    public var response: JSONValue
    public var correct: Bool?
    public var score: Double?
    public var error: String?
    public var description: String { name }

    /// The options as stored: a count becomes that many plain options.
    public var optionsJSON: JSONValue {
        if case .number(let count) = options {
            return .array((0..<Int(count)).map { .object(["id": .string("o\($0)"), "text": .string("Option \($0 + 1)")]) })
        }
        return options
    }

    /// The details as stored (an empty object when the case has none).
    public var detailsJSON: JSONValue { details ?? .object([:]) }

    public static let all: [CheckingCase] = {
        let url = URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/answer-checking.json")
        return (try? JSONDecoder().decode([CheckingCase].self, from: Data(contentsOf: url))) ?? []
    }()
}
