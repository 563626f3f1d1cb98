import ExamData
import HTTPServer
import QuestionEngine

/// Reads an answer from a question form, in the shape the question's kind takes: `choice` values
/// (option indexes), a `position_<index>` for every step of an ordering, a `target_<index>` for
/// every prompt of a matching question, the typed `answer`, a hotspot's clicked `point_x` and
/// `point_y` (else its region chosen from the list, a `choice`), or a cloze question's `gap_<n>`
/// for each gap (numbered from 1; one not sent is left blank). Study sessions and live events
/// share it.
enum AnswerForm {
    /// `message` words a problem from the catalogue.
    static func response(
        _ form: FormFields, question: Question, message: (String, [String: String]) -> String
    ) throws(HTTPError) -> AnswerResponse {
        switch question.kind.answerShape {
        case .oneOption, .someOptions:
            return .indexes(try choices(form, message))
        case .order:
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
            return .indexes(placed.sorted { $0.position < $1.position }.map(\.option))
        case .pairs:
            let targets = question.details.targets?.count ?? 0
            var pairs: [Int] = []
            for index in question.options.indices {
                // The select offers "choose" (empty) and the targets numbered from 1.
                guard let target = Int(form["target_\(index)"] ?? ""), (1...max(1, targets)).contains(target) else {
                    throw HTTPError(.unprocessableContent, message("sessions.match_incomplete", ["count": String(question.options.count)]))
                }
                pairs.append(target - 1)
            }
            return .pairs(pairs)
        case .text:
            return .text(form["answer"] ?? "")
        case .gaps:
            return .gaps((question.details.gaps ?? []).indices.map { form["gap_\($0 + 1)"] ?? "" })
        case .region:
            if let (x, y) = point(form) { return .point(x: x, y: y) }
            return .indexes(try choices(form, message))
        }
    }

    /// A hotspot's tapped point, when the form carries one (the page script sets it).
    static func point(_ form: FormFields) -> (x: Double, y: Double)? {
        guard let x = form["point_x"].flatMap(Double.init), let y = form["point_y"].flatMap(Double.init), x.isFinite, y.isFinite else { return nil }
        return (x, y)
    }

    private static func choices(_ form: FormFields, _ message: (String, [String: String]) -> String) throws(HTTPError) -> [Int] {
        var choices: [Int] = []
        for value in form.values("choice") {
            guard let index = Int(value) else { throw HTTPError(.badRequest, message("sessions.bad_choice", ["value": String(value.prefix(20))])) }
            choices.append(index)
        }
        return choices
    }
}
