import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine

/// Taking part in a live event: joining with a nickname, the question, answering it and the
/// stream of what happens.
extension LivePages {
    func play(_ request: PortalRequest, code: String) throws -> Response {
        try playPage(request, code)
    }

    /// A nickname that was refused, shown again beside its field with the reason.
    struct RefusedNickname {
        var typed: String
        var problem: String
    }

    private func playPage(_ request: PortalRequest, _ code: String, refused: RefusedNickname? = nil, status: HTTPStatus = .ok) throws -> Response {
        let scoreboard = try liveScoreboard(request)
        let now = clock()
        let actor = StudyActor.resolve(request, settings: settings, createGuest: false)
        let (event, participant, answered, question, results) = try withEvent(request, code) {
            event, connection -> (LiveEvent, LiveParticipant?, Bool?, Question?, [LiveResult]) in
            let store = LiveStore()
            let participant = actor == nil ? nil : try store.participant(eventID: event.id, connection)
            var question: Question?
            var answered: Bool?
            switch event.schedule?.phase(at: now) {
            case .open(let index, _, _)?, .reveal(let index, _)?:
                question = try StudyStore().questions(ids: [event.questionIDs[index]], connection).first
                if let participant { answered = try store.answerCorrectness(participantID: participant.id, index: index, connection) }
            default: break
            }
            let results = event.endedAt != nil ? try store.results(eventID: event.id, connection) : []
            return (event, participant, answered, question, results)
        }
        if event.endedAt == nil, let schedule = event.schedule, now >= schedule.endsAt {
            Self.finish(event, database: database)
            return .redirect(to: "/live/\(event.code)")
        }
        restoreBoard(event, scoreboard, request)
        let standing = participant.flatMap { try? scoreboard.standing(code: event.code, participant: $0.id) }
        let top = (try? scoreboard.top(code: event.code, count: 10)) ?? []
        var value = LivePlayPage(
            event: event, participant: participant, answered: answered, question: question, results: results, standing: standing, top: top,
            signedInName: request.user?.displayName, now: now)
        if let refused {
            value.suggestedNickname = refused.typed
            value.nicknameError = refused.problem
        }
        return try pages.privatePage("live/play", value, request, status: status)
    }

    /// The nickname a player joins an event with.
    struct JoinForm: PostedForm {
        let nickname: String

        init(_ form: FormReader) throws(PageRefusal) { nickname = form.trimmed("nickname") }
    }

    /// A live answer's question number; the response's own fields take the question's shape
    /// (`AnswerForm`).
    struct LiveAnswerForm: PostedForm {
        let index: Int?

        init(_ form: FormReader) throws(PageRefusal) { index = form.int("index") }
    }

    func join(_ request: PortalRequest, code: String) throws -> Response {
        let scoreboard = try liveScoreboard(request)
        let nickname = try request.form(JoinForm.self).nickname
        if let problem = NicknamePolicy.problem(nickname) {
            let refused = RefusedNickname(typed: String(nickname.prefix(64)), problem: pages.message(problem, for: request))
            return try playPage(request, code, refused: refused, status: .unprocessableContent)
        }
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: true) else { throw noEvent(request, code) }
        let now = clock()
        let joined = try withEvent(request, code) { event, connection -> (LiveEvent, LiveParticipant)? in
            guard event.endedAt == nil, event.schedule.map({ now < $0.endsAt }) ?? true else {
                throw PageRefusal(.gone, "live.over")
            }
            let store = LiveStore()
            if let existing = try store.participant(eventID: event.id, connection) { return (event, existing) }
            return try store.join(eventID: event.id, userID: actor.user?.userID, nickname: nickname, at: now, connection).map { (event, $0) }
        }
        guard let (event, participant) = joined else {
            let refused = RefusedNickname(typed: nickname, problem: pages.message("live.nickname_taken", for: request, ["nickname": nickname]))
            var response = try playPage(request, code, refused: refused, status: .conflict)
            if let token = actor.newGuestToken { response.setCookie(settings.guestCookie(token)) }
            return response
        }
        restoreBoard(event, scoreboard, request)
        try scoreboard.register(code: event.code, participant: participant.id, nickname: participant.nickname)
        try? scoreboard.publish(code: event.code, scoresMessage(event.code, scoreboard))
        var response = Response.redirect(to: "/live/\(event.code)")
        if let token = actor.newGuestToken { response.setCookie(settings.guestCookie(token)) }
        return response
    }

    func answer(_ request: PortalRequest, code: String) throws -> Response {
        // The server's clock says when the answer came: the bell is the database's to apply.
        let receivedAt = clock()
        let scoreboard = try liveScoreboard(request)
        let form = request.formFields
        guard StudyActor.resolve(request, settings: settings, createGuest: false) != nil else { throw noEvent(request, code) }
        guard let index = try request.form(LiveAnswerForm.self).index else { throw PageRefusal(.badRequest, "live.bad_index") }
        let (event, stored): (LiveEvent, LiveAnswerRecord?)
        do {
            (event, _, stored) = try answerStored(request, code, index: index, form: form, receivedAt: receivedAt)
        } catch let refusal as LiveRefusal {
            throw try refused(refusal, request)
        }
        guard let stored else { return .redirect(to: "/live/\(event.code)?already=1") }
        // Stored first, with the points the database gave it; the live board follows (the
        // results are computed from what is stored).
        // The restore, if needed, already counts this answer (it is stored): then it is not added again.
        if !(try scoreboard.restoreIfLost(code: event.code, board: { try request.database.run { try LiveStore().board(eventID: event.id, $0) } })) {
            _ = try scoreboard.score(code: event.code, stored)
        }
        try? scoreboard.publish(code: event.code, scoresMessage(event.code, scoreboard))
        return .redirect(to: "/live/\(event.code)")
    }

    /// Stores the participant's answer to question `index` of the event; nil when they had
    /// answered it already. A refusal of the database's comes out as a `LiveRefusal`.
    private func answerStored(
        _ request: PortalRequest, _ code: String, index: Int, form: FormFields, receivedAt: Date
    ) throws -> (LiveEvent, LiveParticipant, LiveAnswerRecord?) {
        try withEvent(request, code) { event, connection -> (LiveEvent, LiveParticipant, LiveAnswerRecord?) in
            let store = LiveStore()
            guard let participant = try store.participant(eventID: event.id, connection) else {
                throw PageRefusal(.forbidden, "live.join_first")
            }
            guard event.questionIDs.indices.contains(index) else { throw PageRefusal(.badRequest, "live.bad_index") }
            let questionID = event.questionIDs[index]
            // The form's fields say the answer (else, or when nothing was chosen, the question's
            // kind reads it and says what is missing); the database decides whether the question
            // is open by its clock, and judges, times and scores it.
            let response: AnswerResponse
            if let fields = AnswerForm.responseByFields(form), !fields.isBlank {
                response = fields
            } else {
                guard let question = try StudyStore().questions(ids: [questionID], connection).first else {
                    throw PageRefusal(.gone, "sessions.question_gone")
                }
                response = try AnswerForm.response(form, question: question)
            }
            do {
                let stored = try store.record(
                    participantID: participant.id, questionIndex: index, questionID: questionID, response: response, receivedAt: receivedAt,
                    eventID: event.id, connection)
                return (event, participant, stored)
            } catch let error {
                guard let refusal = AnswerRefusal(error) else { throw error }
                throw LiveRefusal(refusal: refusal, questionID: questionID, response: response)
            }
        }
    }

    /// What a participant is told when the database refused their answer: the question closed
    /// (its bell rang first), was withdrawn, or the response is not an answer to it.
    private func refused(_ refused: LiveRefusal, _ request: PortalRequest) throws -> any Error {
        switch refused.refusal {
        case .notAdmitted(.questionGone):
            return PageRefusal(.gone, "sessions.question_gone")
        case .notAdmitted, .noSuchSession, .idTaken:
            return PageRefusal(.conflict, "live.closed")
        case .notAnAnswer(let code):
            guard let question = try request.database.run({ try StudyStore().questions(ids: [refused.questionID], $0).first }) else {
                return PageRefusal(.gone, "sessions.question_gone")
            }
            return HTTPError(.unprocessableContent, AnswerProblemWording(pages: pages).sentence(code, draft: refused.response, question: question, request))
        }
    }

    /// The database's refusal of a live answer, carried out of the event's transaction (which
    /// it ended) with what is needed to word it.
    private struct LiveRefusal: Error {
        var refusal: AnswerRefusal
        var questionID: UUID
        var response: AnswerResponse
    }

    /// The event's join link and code page, absolute, from the site's public address.
    func links(_ code: String, _ request: PortalRequest) -> String {
        site.url("/live/\(code)", for: request.head, peer: request.http.remoteAddress)
    }

    /// `{"count":42,"top":[{"name":"Aiko","points":2750},…]}`.
    func scoresMessage(_ code: String, _ scoreboard: LiveScoreboard) -> String {
        struct Entry: Encodable { var name: String; var points: Int }
        struct Message: Encodable { var count: Int; var top: [Entry] }
        let top = (try? scoreboard.top(code: code, count: 10)) ?? []
        let message = Message(count: (try? scoreboard.size(code: code)) ?? top.count, top: top.map { Entry(name: $0.nickname, points: $0.points) })
        return (try? String(decoding: JSONEncoder().encode(message), as: UTF8.self)) ?? "{}"
    }

    func events(_ request: PortalRequest, code: String) throws -> Response {
        let scoreboard = try liveScoreboard(request)
        let event = try withEvent(request, code) { event, _ in event }
        restoreBoard(event, scoreboard, request)
        let scores = scoresMessage(event.code, scoreboard)
        let hub = self.hub
        return .eventStream { stream in hub.attach(event, stream: stream, scores: scores) }
    }

    func screen(_ request: PortalRequest, _ user: SessionUser, code: String) throws -> Response {
        let scoreboard = try liveScoreboard(request)
        let now = clock()
        let (event, question, results) = try withEvent(request, code) { event, connection -> (LiveEvent, Question?, [LiveResult]) in
            _ = try hostOnly(request, event, code)
            var question: Question?
            switch event.schedule?.phase(at: now) {
            case .open(let index, _, _)?, .reveal(let index, _)?:
                question = try StudyStore().questions(ids: [event.questionIDs[index]], connection).first
            default: break
            }
            return (event, question, event.endedAt != nil ? try LiveStore().results(eventID: event.id, connection) : [])
        }
        restoreBoard(event, scoreboard, request)
        let top = (try? scoreboard.top(code: event.code, count: 10)) ?? []
        let joined = (try? scoreboard.size(code: event.code)) ?? 0
        let value = LiveScreenPage(
            event: event, question: question, results: results, top: top, joined: joined, links: links(event.code, request),
            qrLabel: pages.message("live.qr_label", for: request), now: now)
        return try pages.privatePage("live/screen", value, request)
    }
}
