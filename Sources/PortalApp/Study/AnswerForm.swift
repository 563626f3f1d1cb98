import ExamData
import HTTPServer
import QuestionEngine

/// Reads an answer from a question form: `choice` values (option indexes) or, for ordering, a
/// `position_<index>` for every option. Study sessions and live events share it.
enum AnswerForm {
    /// The chosen option indexes (for ordering, the options in the order given). `message`
    /// words a problem from the catalogue.
    static func response(
        _ form: FormFields, question: Question, message: (String, [String: String]) -> String
    ) throws(HTTPError) -> [Int] {
        if question.kind == .ordering {
            var placed: [(position: Int, option: Int)] = []
            for index in question.options.indices {
                guard let position = Int(form["position_\(index)"] ?? ""), (1...question.options.count).contains(position) else {
                    throw HTTPError(.unprocessableContent, message("sessions.order_incomplete", ["count": String(question.options.count)]))
                }
                placed.append((position, index))
            }
            guard Set(placed.map(\.position)).count == placed.count else {
                throw HTTPError(.unprocessableContent, message("sessions.order_duplicate", [:]))
            }
            return placed.sorted { $0.position < $1.position }.map(\.option)
        }
        var choices: [Int] = []
        for value in form.values("choice") {
            guard let index = Int(value) else { throw HTTPError(.badRequest, message("sessions.bad_choice", ["value": String(value.prefix(20))])) }
            choices.append(index)
        }
        return choices
    }
}
