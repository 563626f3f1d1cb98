/// A template that cannot be parsed or rendered, with where: `exams/show.html:12:5`.
public struct TemplateError: Error, CustomStringConvertible, Sendable, Equatable {
    public let template: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(template: String, line: Int, column: Int, message: String) {
        self.template = template
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(template):\(line):\(column): \(message)" }
}
