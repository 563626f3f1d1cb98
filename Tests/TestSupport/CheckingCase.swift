import Foundation

/// One row of `Tests/Fixtures/answer-checking.json`: the answer-checking cases that the Swift
/// checker, the database's `answer_outcome` and the browser's offline checker are all held to.
public struct CheckingCase: Decodable, CustomStringConvertible, Sendable {
    public var name: String
    public var kind: String
    public var key: [Int]
    public var options: Int
    public var response: [Int]
    public var correct: Bool?
    public var score: Double?
    public var error: String?
    public var description: String { name }

    public static let all: [CheckingCase] = {
        let url = URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/answer-checking.json")
        return (try? JSONDecoder().decode([CheckingCase].self, from: Data(contentsOf: url))) ?? []
    }()
}
