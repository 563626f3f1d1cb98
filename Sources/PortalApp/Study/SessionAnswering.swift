import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine
import TemplateEngine

/// Answering a session's question: the form read once, the database's verdict (stored,
/// replayed or refused with its reason) turned into where the student goes next.
extension SessionPages {
    /// Whether a form sent by flagging or moving on holds nothing new to save: nothing chosen, the
    /// answer already saved, or, before anything was saved, an order left as shown.
    private func nothingNew(_ draft: AnswerResponse, saved: AnswerResponse?, question: Question) -> Bool {
        draft.isBlank || draft == saved || (question.kind.answerShape == .order && saved == nil && draft == .indexes(Array(question.options.indices)))
    }

    /// Where an answer takes the student once it is stored: practice shows its feedback on the
    /// question; a mock exam moves on to the next question, or to finishing after the last.
    private func onward(_ sessionID: UUID, mode: StudyMode, number: Int, count: Int) -> String {
        let base = "/sessions/" + sessionID.lowercasedText
        guard mode == .mock else { return "\(base)?q=\(number)" }
        return number < count ? "\(base)?q=\(number + 1)" : base + "/finish"
    }

    /// An answer sent from a question page. The database judges it: whether the session takes
    /// it (open, the caller's, the question in it, not answered yet outside mock exams), what it
    /// is worth and the card it reviews, all in the statement that stores it, which names its
    /// reason when it refuses (`AnswerRefusal`). A plain answer — no flag, no move — whose form
    /// fields say it alone is one round trip; flagging, moving on and what the form cannot say
    /// without the question first read the session and the question.
    func answer(_ request: PortalRequest, session sessionID: UUID) throws -> Response {
        let form = try request.form(AnswerSubmission.self)
        let (answerID, questionID) = (form.answerID, form.questionID)
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: false) else { throw notFound(request) }
        let now = clock()
        // The time spent is the server's: from the signed moment the question was shown to now.
        guard let shownAt = try formClock.shownAt(form.shownStamp, session: sessionID, question: questionID, request.database) else {
            throw PageRefusal(.badRequest, "sessions.bad_time")
        }
        let milliseconds = Int((min(max(0, now.timeIntervalSince(shownAt)), Self.longestAnswer) * 1000).rounded(.down))
        func submission(_ response: AnswerResponse) throws -> SQL {
            try AnswerRecorder.submission(
                id: answerID, sessionID: sessionID, questionID: questionID, response: response, userID: actor.user?.userID,
                milliseconds: milliseconds, answeredAt: now)
        }
        if form.isPlain, let response = AnswerForm.responseByFields(form.fields), !response.isBlank {
            do {
                guard let placed = try AnswerRecorder.placement(request.database.write([submission(response)])[0]) else { throw notFound(request) }
                return .redirect(to: onward(sessionID, mode: placed.mode, number: placed.number, count: placed.count))
            } catch {
                guard let refusal = AnswerRefusal(error) else { throw error }
                // A response that is not an answer to the question is read again with the
                // question, which says beside the form what is wrong with it.
                if case .notAnAnswer = refusal {} else {
                    return try refused(refusal, request, sessionID: sessionID, questionID: questionID, draft: response, actor: actor, now: now)
                }
            }
        }
        return try answerWithQuestion(request, form, sessionID: sessionID, questionID: questionID, actor: actor, now: now, submission: submission)
    }

    /// The answer form read with its question and session: the flag button and the moves of a
    /// mock exam (which save what is chosen with them unless it is nothing new), and a form
    /// whose fields need the question to be read. What a browser's form can get wrong goes back
    /// to the question's own address, with what was chosen: a reload then sends nothing again.
    private func answerWithQuestion(
        _ request: PortalRequest, _ form: AnswerSubmission, sessionID: UUID, questionID: UUID, actor: StudyActor, now: Date,
        submission: (AnswerResponse) throws -> SQL
    ) throws -> Response {
        let context = StudyStore.answerContextStatement(sessionID: sessionID, questionID: questionID)
        var sent: AnswerResponse?
        let outcome: Result<Response, AnswerRefusal> = try request.database.transaction(first: [context]) { connection, rows in
            let store = StudyStore()
            let (session, number, question) = try located(rows[0], actor: actor, questionID: questionID, request)
            // The answer form's own "flag for review" and strike-out buttons (mock exams) send
            // what is chosen with them: that is saved too, and the student stays on the question.
            let flagging = session.mode == .mock ? form.flag : nil
            let striking = session.mode == .mock ? form.strike : nil
            if let striking, striking >= question.options.count { throw PageRefusal(.badRequest, "sessions.bad_strike") }
            let marking = flagging != nil || striking != nil
            let here = "\(base(session))?q=\(number)"
            // "Previous" or "Next" sent the form: what is chosen is answered first (practice then
            // shows its feedback here; a mock exam moves on); nothing chosen only moves.
            let movedTo = form.move(from: number, of: session.questionIDs.count).map { "\(base(session))?q=\($0)" }
            // The flag and the strike the form asked for.
            func mark() throws {
                if let flagging { try store.setFlag(sessionID: session.id, questionID: questionID, flagged: flagging, connection) }
                if let striking {
                    let struck = session.struck[questionID]?.contains(striking) ?? false
                    try store.setStrike(sessionID: session.id, questionID: questionID, option: striking, struck: !struck, connection)
                }
            }
            func markOnly() throws -> Response {
                try mark()
                return .redirect(to: here)
            }
            func refuse(_ reason: RefusedAnswer.Reason, _ chosen: [Int]) -> Response { .redirect(to: here + "&" + RefusedAnswer(reason: reason, chosen: chosen).query) }
            switch Self.shapeVerdict(form.fields, question, flagging: marking, moving: movedTo != nil) {
            case .refuse(let reason, let chosen): return .success(refuse(reason, chosen))
            case .flagOnly: return .success(try markOnly())
            case .move: if let movedTo { return .success(.redirect(to: movedTo)) }
            case nil: break
            }
            let draft: AnswerResponse
            do throws(PageRefusal) {
                draft = try AnswerForm.response(form.fields, question: question)
            } catch {
                return .success(try questionPage(
                    request, session: session, number: number, answers: store.finalAnswers(sessionID: session.id, connection),
                    isGuest: actor.isGuest, draft: nil, notice: nil, error: error.worded(by: pages, for: request).message, reported: false, now: now,
                    status: error.status, connection))
            }
            // Nothing new to save (nothing chosen, the order left as shown, or the saved answer):
            // the flag or the move alone.
            let unchanged = { try nothingNew(draft, saved: store.finalAnswers(sessionID: session.id, connection)[questionID]?.response, question: question) }
            if marking {
                if try unchanged() { return .success(try markOnly()) }
                try mark()
            } else if let movedTo, try unchanged() {
                return .success(.redirect(to: movedTo))
            } else if draft.isBlank {
                return .success(refuse(.empty, []))
            }
            // Practice shows the feedback first, whichever button sent the answer.
            let onward = onward(session.id, mode: session.mode, number: number, count: session.questionIDs.count)
            let after = marking ? here : session.mode == .mock ? movedTo ?? onward : onward
            sent = draft
            return try Self.store(submission(draft), then: after, connection)
        }
        switch outcome {
        case .success(let response): return response
        case .failure(let refusal):
            return try refused(refusal, request, sessionID: sessionID, questionID: questionID, draft: sent, actor: actor, now: now)
        }
    }

    /// Stores the answer (or finds it a replay of what was stored: either way the student moves
    /// on to `after`), or the database's reason for refusing it.
    private static func store(_ submission: SQL, then after: String, _ connection: PostgresConnection) throws -> Result<Response, AnswerRefusal> {
        do {
            _ = try connection.withSavepoint { try connection.query(submission) }
            return .success(.redirect(to: after))
        } catch {
            guard let refusal = AnswerRefusal(error) else { throw error }
            return .failure(refusal)
        }
    }

    /// The session, the question's number in it and the question, from the answer's context
    /// row: 404 for a session not the caller's, 400 for a question not in it, 410 for one gone.
    private func located(
        _ row: QueryResult, actor: StudyActor, questionID: UUID, _ request: PortalRequest
    ) throws -> (session: StudySession, number: Int, question: Question) {
        guard let context = try StudyStore().answerContext(row), context.session.userID == actor.user?.userID else { throw notFound(request) }
        guard let index = context.session.questionIDs.firstIndex(of: questionID) else { throw PageRefusal(.badRequest, "sessions.not_in_session") }
        guard let question = context.question else { throw PageRefusal(.gone, "sessions.question_gone") }
        return (context.session, index + 1, question)
    }

    /// What the fields of an order, a matching or a picture question say before a response is
    /// read from them.
    private enum ShapeVerdict {
        /// Back to the question, with why and what was chosen.
        case refuse(RefusedAnswer.Reason, [Int])
        /// Flagged with nothing matched yet: only the flag is saved.
        case flagOnly
        /// Moved on with nothing matched yet: only the move.
        case move
    }

    /// An order needs every item placed once; a matching needs every item matched (unless
    /// nothing is, when the flag or the move alone is meant); a tap outside every part of a
    /// picture is asked again, not scored: on a phone it is more often a slip of the thumb than
    /// an answer. Nil: the form goes on to be read as a response.
    private static func shapeVerdict(_ form: FormFields, _ question: Question, flagging: Bool, moving: Bool) -> ShapeVerdict? {
        switch question.kind.answerShape {
        case .order:
            let count = question.options.count
            let positions = AnswerForm.positions(form, count: count)
            if positions.contains(0) { return .refuse(.incomplete, positions) }
            if Set(positions).count < count { return .refuse(.duplicate, positions) }
        case .pairs:
            let targets = question.details.targets?.count ?? 0
            let given = AnswerForm.targets(form, items: question.options.count, targets: targets)
            if flagging, given.allSatisfy({ $0 == 0 }) { return .flagOnly }
            if moving, given.allSatisfy({ $0 == 0 }) { return .move }
            if given.contains(0) { return .refuse(.unmatched, given) }
        case .region:
            if let (x, y) = AnswerForm.point(form), !question.options.contains(where: { $0.region?.contains(x: x, y: y) == true }) {
                return .refuse(.outside, [])
            }
        case .oneOption, .someOptions, .text, .gaps:
            break
        }
        return nil
    }

    /// What the student is shown when the database refused their answer, by its reason: the
    /// results when the session has ended (finishing it first when its time ran out), the
    /// question again with why when the response is not an answer to it, and a conflict when
    /// another tab or the same answer's id got there first.
    private func refused(
        _ refusal: AnswerRefusal, _ request: PortalRequest, sessionID: UUID, questionID: UUID, draft: AnswerResponse?, actor: StudyActor, now: Date
    ) throws -> Response {
        switch refusal {
        case .noSuchSession:
            throw notFound(request)
        case .idTaken, .notAdmitted(.versionUnknown), .notAdmitted(.optionGone), .notAdmitted(.itemsChanged), .notAdmitted(.closed), .notAdmitted(.other):
            throw PageRefusal(.conflict, "sessions.answer_conflict")
        case .notAdmitted(.notInSession):
            throw PageRefusal(.badRequest, "sessions.not_in_session")
        case .notAdmitted(.questionGone):
            throw PageRefusal(.gone, "sessions.question_gone")
        case .notAdmitted(.finished), .notAdmitted(.overdue):
            // Past its deadline, the session is finished now, with what it holds.
            return try withSession(request, sessionID, locking: true) { _, session, connection in
                if !session.isFinished { try finisher.finish(session, at: now, connection) }
                return .redirect(to: base(session) + "/results?late=1")
            }
        case .notAdmitted(.answered):
            return try withSession(request, sessionID) { _, session, _ in
                let number = (session.questionIDs.firstIndex(of: questionID) ?? 0) + 1
                return .redirect(to: "\(base(session))?q=\(number)&already=1")
            }
        case .notAnAnswer(let code):
            return try withSession(request, sessionID) { actor, session, connection in
                let store = StudyStore()
                guard let index = session.questionIDs.firstIndex(of: questionID),
                      let question = try store.questions(ids: [questionID], connection).first
                else { throw PageRefusal(.gone, "sessions.question_gone") }
                let shown = draft.flatMap { $0.isBlank ? nil : $0 }
                return try questionPage(
                    request, session: session, number: index + 1, answers: store.finalAnswers(sessionID: session.id, connection),
                    isGuest: actor.isGuest, draft: shown, notice: nil, error: AnswerProblemWording(pages: pages).sentence(code, draft: draft ?? .indexes([]), question: question, request),
                    reported: false, now: now, status: .unprocessableContent, connection)
            }
        }
    }
}
