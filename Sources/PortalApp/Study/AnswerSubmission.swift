import Foundation
import HTTPServer

/// What a question page's form sends besides the response itself: the answer's one-time id,
/// the question, the signed moment it was shown, the flag button (mock exams) and "Previous" or
/// "Next". The response's own fields take the question's shape (`AnswerForm`), which is read
/// from `fields`.
struct AnswerSubmission: PostedForm {
    let fields: FormFields
    let answerID: UUID
    let questionID: UUID
    /// The signed "shown at" stamp, checked against the session and question (`FormClock`).
    let shownStamp: String
    /// The flag button, when it sent the form: flag (`1`) or unflag.
    let flag: Bool?
    /// The option whose strike-out button sent the form (a mock exam's), if one did.
    let strike: Int?
    /// Whether "Previous" or "Next" sent the form, and the number of the question it moves to
    /// (nil when that is not a number).
    let movesOn: Bool
    let then: Int?

    init(_ form: FormReader) throws(PageRefusal) {
        fields = form.fields
        guard let answerID = form.uuid("answer_id") else { throw PageRefusal(.badRequest, "sessions.bad_answer_id") }
        guard let questionID = form.uuid("question") else { throw PageRefusal(.badRequest, "sessions.not_in_session") }
        (self.answerID, self.questionID, shownStamp) = (answerID, questionID, form.text("shown_at"))
        flag = form.optional("flag").map { $0 == "1" }
        if let option = form.optional("strike") {
            guard let index = Int(option), index >= 0 else { throw PageRefusal(.badRequest, "sessions.bad_strike") }
            strike = index
        } else {
            strike = nil
        }
        (movesOn, then) = (form.has("then"), form.int("then"))
    }

    /// The question "Previous" or "Next" moves to from question `number` of `count`; nil when
    /// neither sent the form, or it names no other question of the session.
    func move(from number: Int, of count: Int) -> Int? {
        then.flatMap { (1...count).contains($0) && $0 != number ? $0 : nil }
    }

    /// Whether the form is a plain answer: no flag, no strike, no move.
    var isPlain: Bool { flag == nil && strike == nil && !movesOn }
}
