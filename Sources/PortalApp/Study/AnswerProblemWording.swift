import ExamData
import QuestionEngine

/// What a student reads when the database found their response is not an answer to the
/// question (`answer_outcome`'s reason, carried by `AnswerRefusal.notAnAnswer`): worded for the
/// question's kind, the same for a study session and a live event.
struct AnswerProblemWording {
    let pages: PageRenderer

    /// The sentence for `code` (empty, outOfRange, duplicate, wrongCount, tooLong, wrongShape).
    func sentence(_ code: String, draft: AnswerResponse, question: Question, _ request: PortalRequest) -> String {
        switch code {
        case "empty":
            return pages.message(question.kind.answerShape == .text || question.kind.answerShape == .gaps ? "sessions.type_something" : "sessions.choose_something", for: request)
        case "outOfRange":
            let value = if case .indexes(let picks) = draft { picks.first { !question.options.indices.contains($0) } } else { nil as Int? }
            return value.map { pages.message("sessions.bad_choice", for: request, ["value": String($0)]) } ?? pages.message("sessions.wrong_shape", for: request)
        case "duplicate": return pages.message("sessions.order_duplicate", for: request)
        case "wrongCount":
            return switch question.kind.answerShape {
            case .oneOption, .region: pages.message("sessions.choose_one", for: request)
            case .order: pages.message("sessions.order_incomplete", for: request, ["count": String(question.options.count)])
            case .pairs: pages.message("sessions.match_incomplete", for: request, ["count": String(question.options.count)])
            case .someOptions, .text, .gaps: pages.message("sessions.wrong_shape", for: request)
            }
        case "tooLong": return pages.message("sessions.answer_too_long", for: request, ["count": String(FillInRule.maximumLength)])
        default: return pages.message("sessions.wrong_shape", for: request)
        }
    }
}
