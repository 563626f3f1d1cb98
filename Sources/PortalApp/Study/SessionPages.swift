import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine
import TemplateEngine

/// The pages of a study session: the current question, answering it, flags, finishing and
/// the results. Each request runs in one transaction scoped to the student (or guest), so
/// another student's session is simply not there: 404.
struct SessionPages: Sendable {
    let pages: PageRenderer
    let settings: SessionSettings
    let clock: @Sendable () -> Date
    let formClock: FormClock
    let finisher: SessionFinisher
    /// Kept question and results pages, and the versions that key the readings kept.
    let keeper: PageKeeper
    let readings = SessionReadingCache()
    /// Told of each student who finishes a session: their history may now be long enough to fit.
    let fitter: WeightFitter?
    /// Woken when a session finishes: a graded one's score goes to its LMS now.
    let scores: ScoreSender?

    /// The longest time an answer is taken to have needed: a tab left open overnight is not a
    /// measure of effort.
    static let longestAnswer: TimeInterval = 30 * 60

    init(
        pages: PageRenderer, settings: SessionSettings, clock: @escaping @Sendable () -> Date, formClock: FormClock, keeper: PageKeeper,
        fitter: WeightFitter? = nil, scores: ScoreSender? = nil
    ) {
        self.fitter = fitter
        self.scores = scores
        self.pages = pages
        self.settings = settings
        self.clock = clock
        self.formClock = formClock
        self.keeper = keeper
        finisher = SessionFinisher()
    }

    // MARK: Loading

    private func notFound(_ request: PortalRequest) -> HTTPError {
        HTTPError(.notFound, pages.message("sessions.not_found", for: request))
    }

    /// Runs `body` with the caller's session `:id` in one transaction; 404 when the id is not
    /// a session of theirs.
    private func withSession<Value>(
        _ request: PortalRequest, _ id: UUID, locking: Bool = false, _ body: (StudyActor, StudySession, PostgresConnection) throws -> Value
    ) throws -> Value {
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: false) else { throw notFound(request) }
        return try request.database.transaction { connection in
            let store = StudyStore()
            if locking, try !store.lock(sessionID: id, connection) { throw notFound(request) }
            // Row-level security already hides others' sessions; an admin's wider view still
            // does not make another student's session theirs to take.
            guard let session = try store.session(id: id, connection), session.userID == actor.user?.userID else { throw notFound(request) }
            return try body(actor, session, connection)
        }
    }

    private func base(_ session: StudySession) -> String { "/sessions/" + session.id.lowercasedText }

    /// A session's reading for `page` (`question|<number>` or `results`) and, for a signed-in
    /// student, the versions it is kept by (those a page made from it alone is kept by too):
    /// their data version and the catalogue's (the data version is read in the same flight as
    /// the reading when it is not remembered); a guest's is read every time.
    private func keyedReading(
        _ request: PortalRequest, actor: StudyActor, sessionID: UUID, page: String, statements: [SQL]
    ) throws -> (reading: SessionReading, versions: PageVersions?) {
        guard let user = actor.user else { return (try SessionReading(request.database.read(statements)), nil) }
        let (versions, fresh) = try keeper.versions(request, Self.cachedReading(sessionID, page: page), alongside: statements)
        let key = Self.readingKey(user.userID, sessionID, page: page, versions)
        if let fresh {
            let read = try SessionReading(fresh)
            readings.keep(key, read)
            return (read, versions)
        }
        if let kept = readings.reading(key) { return (kept, versions) }
        let read = try SessionReading(request.database.read(statements))
        readings.keep(key, read)
        return (read, versions)
    }

    /// What a session's reading for `page` is kept by: the student's data version and the
    /// catalogue's.
    private static func cachedReading(_ session: UUID, page: String) -> CachedPage {
        CachedPage(name: "reading|\(session.lowercasedText)|\(page)", dependsOn: [.catalogue, .readerData], visitors: .builtEachTime)
    }

    /// Where a reading is kept: by the student and the reading's versioned name.
    private static func readingKey(_ user: UUID, _ session: UUID, page: String, _ versions: PageVersions) -> String {
        user.lowercasedText + "|" + cachedReading(session, page: page).key(versions)
    }

    /// How a finished session's results page is kept: for its reader's sign-in, by their data
    /// version and the catalogue's; a page that says something for this visit only (time up, a
    /// late answer, a report's thanks) is built each time.
    static func cachedResults(_ session: UUID, _ query: FormFields) -> CachedPage {
        let forThisVisit = query["timeup"] != nil || query["late"] != nil || query["reported"] != nil
        return CachedPage(
            name: "results|\(session.lowercasedText)|\(query["show"] == "missed")", dependsOn: [.catalogue, .readerData],
            visitors: .builtEachTime, readers: forThisVisit ? .builtEachTime : .kept)
    }

    // MARK: The question

    /// How a showing of a question page is kept, with holes for what each showing puts in it
    /// (the answer's id, the signed moment it was shown, the seconds left): for its reader's
    /// sign-in, by their data version and the catalogue's, the question's number, what the
    /// address asks to show beside it (a refused answer brought back, a notice, a report's
    /// thanks) and the countdown's minutes.
    static func cachedQuestion(_ session: UUID, asked: Int?, _ query: FormFields, minutesLeft: Int?) -> CachedPage {
        let shown = "\(query["refused"] ?? "")|\(query["chosen"] ?? "")|\(query["already"] != nil)|\(query["reported"] != nil)"
        return CachedPage(
            name: "question|\(session.lowercasedText)|\(asked ?? 0)|\(shown)|\(minutesLeft ?? -1)", dependsOn: [.catalogue, .readerData],
            visitors: .builtEachTime)
    }

    /// A kept question page for this showing: its own answer id, stamp and seconds left.
    private static func showing(_ document: SplicedDocument, answerID: String, stamp: String, secondsLeft: Int?, _ headers: HTTPHeaders) -> Response {
        PageKeeper.showing(document, QuestionShell.markerValues(answerID: answerID, stamp: stamp, secondsLeft: secondsLeft), headers)
    }

    /// A student's question page from what is kept, on the event loop (see `PageKeeper`):
    /// their reading of the session, its page with holes and the signing key all in memory,
    /// and the session still open. Anything else goes to `show`.
    func questionCopy(_ request: Request, session id: UUID) -> Response? {
        keeper.readerAnswer(request) { user, locale in
            let query = request.query, asked = query["q"].flatMap { Int($0) }
            guard query["q"] == nil || asked != nil,
                  let versions = keeper.remembered(Self.cachedReading(id, page: "question|\(asked ?? 0)"), for: user) else { return nil }
            let now = clock()
            guard let reading = readings.reading(Self.readingKey(user.userID, id, page: "question|\(asked ?? 0)", versions)),
                  let session = reading.session, session.userID == user.userID,
                  !session.isOverdue(at: now), !session.isFinished, let number = reading.questionNumber, let question = reading.questions.first,
                  asked == nil || (1...session.questionIDs.count).contains(number) else { return nil }
            let secondsLeft = QuestionPage.secondsLeft(session.deadline, now: now)
            let page = Self.cachedQuestion(id, asked: asked, query, minutesLeft: QuestionPage.minutesLeft(secondsLeft))
            guard let document = keeper.keptWithHoles(user, locale: locale, page, versions),
                  let stamp = formClock.knownStamp(session: session.id, question: question.id, at: now) else { return nil }
            return Self.showing(document, answerID: Crypto.randomUUID().lowercasedText, stamp: stamp, secondsLeft: secondsLeft, request.headers)
        }
    }

    /// The question page. Usually one pipelined read: the session, its answers and the question
    /// to show; a session that is over (or whose deadline passed) goes the transactional way.
    func show(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock(), query = request.query
        if let actor = StudyActor.resolve(request, settings: settings, createGuest: false) {
            let asked = query["q"].flatMap { Int($0) }
            if query["q"] == nil || asked != nil {
                let (reading, versions) = try keyedReading(
                    request, actor: actor, sessionID: id, page: "question|\(asked ?? 0)",
                    statements: SessionReading.questionPageStatements(sessionID: id, number: asked))
                guard let session = reading.session, session.userID == actor.user?.userID else { throw notFound(request) }
                if !session.isOverdue(at: now), !session.isFinished, let number = reading.questionNumber, let question = reading.questions.first,
                   asked == nil || (1...session.questionIDs.count).contains(number) {
                    let locale = pages.locale(for: request), timeZone = request.user?.timeZone ?? "UTC"
                    let stamp = try formClock.stamp(session: session.id, question: question.id, at: now, request.database)
                    let notice = query["already"] != nil ? pages.message("sessions.already_answered", for: request) : nil
                    let refused = RefusedAnswer(query: query, question: question)
                    // Made only when the page is rendered: a kept page needs none of it.
                    let shell = {
                        QuestionShell(
                            session: session, question: question, number: number, answers: reading.answers, isGuest: actor.isGuest, now: now,
                            shownStamp: stamp, notice: notice, reported: query["reported"] != nil, refused: refused, pages: pages, locale: locale,
                            timeZone: timeZone)
                    }
                    // The question, its form and the list of questions are one fragment; what
                    // changes with each showing (the signed "shown at", the answer's id, the
                    // countdown) is outside it, in the shell.
                    let question = Fragment(key: "") {
                        QuestionPage(
                            session: session, question: question, number: number, answers: reading.answers, isGuest: actor.isGuest, now: now,
                            shownStamp: stamp, draft: nil, notice: notice, error: nil, reported: false, pages: pages, locale: locale,
                            refused: refused, timeZone: timeZone, csrfToken: request.viewer.csrfToken, cardDue: reading.cardDue)
                    }
                    if let versions, let user = request.user {
                        // A signed-in student's whole page is kept for this sign-in (its forms
                        // carry the reader's token) and reading, with holes for what changes
                        // with each showing: the next showing is filled in, not rendered.
                        let secondsLeft = QuestionPage.secondsLeft(session.deadline, now: now)
                        let page = Self.cachedQuestion(id, asked: asked, query, minutesLeft: QuestionPage.minutesLeft(secondsLeft))
                        let document = try keeper.keptWithHoles(request, user, page, versions, markers: QuestionShell.markers) {
                            try pages.render(
                                "sessions/question", shell().withMarkers, locale: locale, viewer: request.viewer, fragments: ["question": question],
                                keepFragments: false)
                        }
                        return Self.showing(
                            document, answerID: Crypto.randomUUID().lowercasedText, stamp: stamp, secondsLeft: secondsLeft, request.headers)
                    }
                    return try questionResponse(shell(), question, request)
                }
            }
        }
        return try withSession(request, id) { actor, session, connection in
            if session.isOverdue(at: now) {
                try finisher.finish(session, at: now, connection)
                return .redirect(to: base(session) + "/results?timeup=1")
            }
            if session.isFinished { return .redirect(to: base(session) + "/results") }
            let answers = try StudyStore().finalAnswers(sessionID: session.id, connection)
            let number: Int
            if let text = query["q"] {
                guard let value = Int(text), (1...session.questionIDs.count).contains(value) else {
                    throw HTTPError(.notFound, pages.message("sessions.no_such_question", for: request, ["count": String(session.questionIDs.count)]))
                }
                number = value
            } else if let next = session.questionIDs.firstIndex(where: { answers[$0] == nil }) {
                number = next + 1
            } else {
                return .redirect(to: base(session) + "/finish")
            }
            let notice = query["already"] != nil ? pages.message("sessions.already_answered", for: request) : nil
            return try questionPage(
                request, session: session, number: number, answers: answers, isGuest: actor.isGuest, draft: nil, notice: notice,
                error: nil, reported: query["reported"] != nil, now: now, refusedFrom: query, connection)
        }
    }

    private func questionPage(
        _ request: PortalRequest, session: StudySession, number: Int, answers: [UUID: RecordedAnswer], isGuest: Bool, draft: AnswerResponse?,
        notice: String?, error: String?, reported: Bool, now: Date, status: HTTPStatus = .ok, refusedFrom query: FormFields? = nil,
        _ connection: PostgresConnection
    ) throws -> Response {
        guard let question = try StudyStore().questions(ids: [session.questionIDs[number - 1]], connection).first else {
            throw HTTPError(.gone, pages.message("sessions.question_gone", for: request))
        }
        let value = QuestionPage(
            session: session, question: question, number: number, answers: answers, isGuest: isGuest, now: now,
            shownStamp: try formClock.stamp(session: session.id, question: question.id, at: now, request.database), draft: draft,
            notice: notice, error: error, reported: reported, pages: pages, locale: pages.locale(for: request),
            refused: query.flatMap { RefusedAnswer(query: $0, question: question) },
            timeZone: request.user?.timeZone ?? "UTC", csrfToken: request.viewer.csrfToken)
        return try questionResponse(QuestionShell(value), Fragment(key: "") { value }, request, status: status)
    }

    /// A question page rendered for this showing only: the shell around the question's fragment
    /// (a guest's, or one that says something for this request).
    private func questionResponse(_ shell: QuestionShell, _ question: Fragment, _ request: PortalRequest, status: HTTPStatus = .ok) throws -> Response {
        var response = Response.html(try pages.render(
            "sessions/question", shell, locale: pages.locale(for: request), viewer: request.viewer, fragments: ["question": question],
            keepFragments: false), status: status)
        response.headers.set("Cache-Control", "private, no-store")
        return response
    }

    // MARK: Answering

    /// What the database's refusal of a response (`answer_outcome`'s reason) means to the
    /// student, worded for this question.
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
        let form = FormFields(body: request.body)
        guard let answerID = UUID(uuidString: form["answer_id"] ?? "") else { throw HTTPError(.badRequest, pages.message("sessions.bad_answer_id", for: request)) }
        guard let questionID = UUID(uuidString: form["question"] ?? "") else { throw HTTPError(.badRequest, pages.message("sessions.not_in_session", for: request)) }
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: false) else { throw notFound(request) }
        let now = clock()
        // The time spent is the server's: from the signed moment the question was shown to now.
        guard let shownAt = try formClock.shownAt(form["shown_at"] ?? "", session: sessionID, question: questionID, request.database) else {
            throw HTTPError(.badRequest, pages.message("sessions.bad_time", for: request))
        }
        let milliseconds = Int((min(max(0, now.timeIntervalSince(shownAt)), Self.longestAnswer) * 1000).rounded(.down))
        func submission(_ response: AnswerResponse) throws -> SQL {
            try AnswerRecorder.submission(
                id: answerID, sessionID: sessionID, questionID: questionID, response: response, userID: actor.user?.userID,
                milliseconds: milliseconds, answeredAt: now)
        }
        if form["flag"] == nil, form["then"] == nil, let response = AnswerForm.responseByFields(form), !response.isBlank {
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
        _ request: PortalRequest, _ form: FormFields, sessionID: UUID, questionID: UUID, actor: StudyActor, now: Date,
        submission: (AnswerResponse) throws -> SQL
    ) throws -> Response {
        let context = StudyStore.answerContextStatement(sessionID: sessionID, questionID: questionID)
        var sent: AnswerResponse?
        let outcome: Result<Response, AnswerRefusal> = try request.database.transaction(first: [context]) { connection, rows in
            let store = StudyStore()
            guard let context = try store.answerContext(rows[0]), context.session.userID == actor.user?.userID else { throw notFound(request) }
            let session = context.session
            guard let index = session.questionIDs.firstIndex(of: questionID) else {
                throw HTTPError(.badRequest, pages.message("sessions.not_in_session", for: request))
            }
            let number = index + 1
            guard let question = context.question else { throw HTTPError(.gone, pages.message("sessions.question_gone", for: request)) }
            // The answer form's own "flag for review" button (mock exams) sends what is chosen
            // with it: that is saved too, and the student stays on the question.
            let flagging = session.mode == .mock ? form["flag"].map { $0 == "1" } : nil
            let here = "\(base(session))?q=\(number)"
            // "Previous" or "Next" sent the form: what is chosen is answered first (practice then
            // shows its feedback here; a mock exam moves on); nothing chosen only moves.
            let moving = Int(form["then"] ?? "").flatMap { (1...session.questionIDs.count).contains($0) && $0 != number ? $0 : nil }
            let movedTo = moving.map { "\(base(session))?q=\($0)" }
            func flagOnly() throws -> Response {
                try store.setFlag(sessionID: session.id, questionID: questionID, flagged: flagging ?? false, connection)
                return .redirect(to: here)
            }
            func refuse(_ reason: RefusedAnswer.Reason, _ chosen: [Int]) -> Response {
                .redirect(to: here + "&" + RefusedAnswer(reason: reason, chosen: chosen).query)
            }
            switch question.kind.answerShape {
            case .order:
                let count = question.options.count
                let positions = question.options.indices.map { index in
                    Int(form["position_\(index)"] ?? "").flatMap { (1...count).contains($0) ? $0 : nil } ?? 0
                }
                if positions.contains(0) { return .success(refuse(.incomplete, positions)) }
                if Set(positions).count < count { return .success(refuse(.duplicate, positions)) }
            case .pairs:
                let targets = question.details.targets?.count ?? 0
                let given = question.options.indices.map { index in
                    Int(form["target_\(index)"] ?? "").flatMap { (1...max(1, targets)).contains($0) ? $0 : nil } ?? 0
                }
                // Flagging with nothing matched yet only flags; moving on only moves.
                if flagging != nil, given.allSatisfy({ $0 == 0 }) { return .success(try flagOnly()) }
                if let movedTo, given.allSatisfy({ $0 == 0 }) { return .success(.redirect(to: movedTo)) }
                if given.contains(0) { return .success(refuse(.unmatched, given)) }
            case .region:
                // A tap outside every part is asked again, not scored: on a phone it is more
                // often a slip of the thumb than an answer.
                if let (x, y) = AnswerForm.point(form), !question.options.contains(where: { $0.region?.contains(x: x, y: y) == true }) {
                    return .success(refuse(.outside, []))
                }
            case .oneOption, .someOptions, .text, .gaps:
                break
            }
            let draft: AnswerResponse
            do throws(HTTPError) {
                draft = try AnswerForm.response(form, question: question) { pages.message($0, for: request, $1) }
            } catch {
                return .success(try questionPage(
                    request, session: session, number: number, answers: store.finalAnswers(sessionID: session.id, connection),
                    isGuest: actor.isGuest, draft: nil, notice: nil, error: error.message, reported: false, now: now, status: error.status, connection))
            }
            if flagging != nil {
                // Nothing new to save: nothing chosen, the order left as shown, or the saved answer.
                let saved = try store.finalAnswers(sessionID: session.id, connection)[questionID]?.response
                if nothingNew(draft, saved: saved, question: question) { return .success(try flagOnly()) }
                try store.setFlag(sessionID: session.id, questionID: questionID, flagged: flagging ?? false, connection)
            } else if let movedTo, try nothingNew(draft, saved: store.finalAnswers(sessionID: session.id, connection)[questionID]?.response, question: question) {
                return .success(.redirect(to: movedTo))
            } else if draft.isBlank {
                return .success(refuse(.empty, []))
            }
            // Practice shows the feedback first, whichever button sent the answer.
            let onward = onward(session.id, mode: session.mode, number: number, count: session.questionIDs.count)
            let after = flagging != nil ? here : session.mode == .mock ? movedTo ?? onward : onward
            sent = draft
            do {
                // Stored now or a replay of what was stored: either way the student moves on.
                _ = try connection.withSavepoint { try connection.query(submission(draft)) }
                return .success(.redirect(to: after))
            } catch {
                guard let refusal = AnswerRefusal(error) else { throw error }
                return .failure(refusal)
            }
        }
        switch outcome {
        case .success(let response): return response
        case .failure(let refusal):
            return try refused(refusal, request, sessionID: sessionID, questionID: questionID, draft: sent, actor: actor, now: now)
        }
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
            throw HTTPError(.conflict, pages.message("sessions.answer_conflict", for: request))
        case .notAdmitted(.notInSession):
            throw HTTPError(.badRequest, pages.message("sessions.not_in_session", for: request))
        case .notAdmitted(.questionGone):
            throw HTTPError(.gone, pages.message("sessions.question_gone", for: request))
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
                else { throw HTTPError(.gone, pages.message("sessions.question_gone", for: request)) }
                let shown = draft.flatMap { $0.isBlank ? nil : $0 }
                return try questionPage(
                    request, session: session, number: index + 1, answers: store.finalAnswers(sessionID: session.id, connection),
                    isGuest: actor.isGuest, draft: shown, notice: nil, error: AnswerProblemWording(pages: pages).sentence(code, draft: draft ?? .indexes([]), question: question, request),
                    reported: false, now: now, status: .unprocessableContent, connection)
            }
        }
    }

    // MARK: Flags and finishing

    func flag(_ request: PortalRequest, session id: UUID) throws -> Response {
        let form = FormFields(body: request.body)
        return try withSession(request, id, locking: true) { _, session, connection in
            guard let questionID = UUID(uuidString: form["question"] ?? ""), let index = session.questionIDs.firstIndex(of: questionID) else {
                throw HTTPError(.badRequest, pages.message("sessions.not_in_session", for: request))
            }
            if session.isFinished { return .redirect(to: base(session) + "/results") }
            try StudyStore().setFlag(sessionID: session.id, questionID: questionID, flagged: form["flagged"] == "1", connection)
            return .redirect(to: "\(base(session))?q=\(index + 1)")
        }
    }

    struct FinishPage: Encodable {
        struct Item: Encodable {
            var ordinal: Int
            var href: String
        }
        var sessionID: String
        var examTitle: String
        var language: String
        var total: Int
        var unanswered: [Item]
        var flagged: [Item]
        var hasUnanswered: Bool
        var unansweredCount: Int
        var hasFlagged: Bool
        var secondsLeft: Int?
        var minutesLeft: Int?
        var deadline: String?
        var endsAt: String?
        var isMock: Bool
    }

    func confirmFinish(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock()
        return try withSession(request, id) { _, session, connection in
            if session.isOverdue(at: now) {
                try finisher.finish(session, at: now, connection)
                return .redirect(to: base(session) + "/results?timeup=1")
            }
            if session.isFinished { return .redirect(to: base(session) + "/results") }
            let answers = try StudyStore().finalAnswers(sessionID: session.id, connection)
            let items = session.questionIDs.enumerated().map { ($0.offset + 1, $0.element) }
            let unanswered = items.filter { answers[$0.1] == nil }.map { FinishPage.Item(ordinal: $0.0, href: "\(base(session))?q=\($0.0)") }
            let flagged = items.filter { session.flagged.contains($0.1) }.map { FinishPage.Item(ordinal: $0.0, href: "\(base(session))?q=\($0.0)") }
            let value = FinishPage(
                sessionID: session.id.lowercasedText, examTitle: session.examTitle, language: session.examLanguage,
                total: session.questionIDs.count, unanswered: unanswered, flagged: flagged, hasUnanswered: !unanswered.isEmpty,
                unansweredCount: unanswered.count, hasFlagged: !flagged.isEmpty,
                secondsLeft: session.deadline.map { max(0, Int($0.timeIntervalSince(now).rounded())) },
                minutesLeft: session.deadline.map { (max(0, Int($0.timeIntervalSince(now).rounded())) + 59) / 60 },
                deadline: session.deadline.map { $0.ISO8601Format() },
                endsAt: session.deadline.map { QuestionPage.clockTime($0, zone: request.user?.timeZone ?? "UTC") }, isMock: session.mode == .mock)
            return try pages.privatePage("sessions/finish", value, request)
        }
    }

    func finish(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock()
        let response = try withSession(request, id, locking: true) { _, session, connection in
            if !session.isFinished { try finisher.finish(session, at: now, connection) }
            fitter?.enqueue(sessionToken: request.database.sessionToken)
            return Response.redirect(to: base(session) + "/results")
        }
        // Committed by now: the sender finds the score if the session was graded.
        scores?.wake()
        return response
    }

    // MARK: Results

    /// The results page. A finished session's is one pipelined read; one still open (or past
    /// its deadline) goes the transactional way.
    func results(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock(), query = request.query
        let locale = pages.locale(for: request)
        let notice = query["timeup"] != nil ? "sessions.time_up" : query["late"] != nil ? "sessions.late_answer" : nil
        if let actor = StudyActor.resolve(request, settings: settings, createGuest: false) {
            let (reading, versions) = try keyedReading(
                request, actor: actor, sessionID: id, page: "results", statements: SessionReading.resultsStatements(sessionID: id))
            guard let session = reading.session, session.userID == actor.user?.userID else { throw notFound(request) }
            if let endedAt = session.finishedAt {
                let onlyMissed = query["show"] == "missed"
                let render = {
                    let score = finisher.score(session, questions: reading.questions, answers: reading.answers, endedAt: endedAt)
                    let value = ResultsPage(
                        session: session, score: score, questions: reading.questions, answers: reading.answers, domainTitles: reading.domainTitles,
                        isGuest: actor.isGuest, notice: notice.map { pages.message($0, locale: locale) }, reported: query["reported"] != nil,
                        onlyMissed: onlyMissed, csrfToken: request.viewer.csrfToken, pages: pages, locale: locale)
                    return try pages.render("sessions/results", value, for: request)
                }
                // A finished session's page changes only with the reader's data or the catalogue
                // (the reading's versions): kept whole for this sign-in (it carries the reader's
                // name, menu and form token), unless it says something for this visit only.
                if let versions, let user = request.user {
                    return try keeper.readerPage(request, user, Self.cachedResults(id, query), versions, render: render)
                }
                var response = Response.html(try render())
                response.headers.set("Cache-Control", "private, no-store")
                return response
            }
        }
        return try withSession(request, id) { actor, session, connection in
            var session = session
            if session.isOverdue(at: now) {
                try finisher.finish(session, at: now, connection)
                session = try StudyStore().session(id: session.id, connection) ?? session
            }
            guard let endedAt = session.finishedAt else { return .redirect(to: base(session) + "/finish") }
            let store = StudyStore()
            let questions = try store.questions(ids: session.questionIDs, connection)
            let answers = try store.finalAnswers(sessionID: session.id, connection)
            let domains = try store.domainTitles(examID: session.examID, connection)
            let score = finisher.score(session, questions: questions, answers: answers, endedAt: endedAt)
            let value = ResultsPage(
                session: session, score: score, questions: questions, answers: answers, domainTitles: domains, isGuest: actor.isGuest,
                notice: notice.map { pages.message($0, locale: locale) }, reported: query["reported"] != nil,
                onlyMissed: query["show"] == "missed", csrfToken: request.viewer.csrfToken, pages: pages, locale: locale)
            return try pages.privatePage("sessions/results", value, request)
        }
    }
}
