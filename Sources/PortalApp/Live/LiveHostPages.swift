import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine

/// A live event made, hosted, started and shown on the room's screen (teachers and admins).
extension LivePages {
    func newEventForm(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let exams = try request.database.run { try ExamCatalog().regions($0) }
        return try pages.privatePage("live/new", LiveNewPage(regions: exams), request)
    }

    /// The form that makes a live event: its title, exam (`region/slug`), how many questions
    /// and seconds each, and the questions chosen by id (none: drawn from the exam).
    struct EventForm: PostedForm {
        let fields: FormFields
        let title: String
        let region: String
        let slug: String
        let count: Int
        let seconds: Int
        let chosen: [UUID]

        init(_ form: FormReader) throws(PageRefusal) {
            fields = form.fields
            title = form.trimmed("title")
            guard (1...120).contains(title.count) else { throw PageRefusal(.badRequest, "live.bad_title") }
            guard let count = form.int("count"), (1...50).contains(count) else { throw PageRefusal(.badRequest, "live.bad_count") }
            guard let seconds = form.int("seconds"), (5...300).contains(seconds) else { throw PageRefusal(.badRequest, "live.bad_seconds") }
            (self.count, self.seconds) = (count, seconds)
            let parts = form.text("exam").split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw PageRefusal(.badRequest, "live.bad_exam") }
            (region, slug) = (parts[0], parts[1])
            var chosen: [UUID] = []
            for text in form.text("question_ids").split(whereSeparator: { $0.isWhitespace || $0 == "," }) {
                guard let id = UUID(uuidString: String(text)) else { throw PageRefusal(.badRequest, "live.bad_question_id", ["value": String(text.prefix(40))]) }
                if !chosen.contains(id) { chosen.append(id) }
            }
            self.chosen = chosen
        }
    }

    func create(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(EventForm.self)
        let (title, count, seconds, parts, chosen) = (form.title, form.count, form.seconds, [form.region, form.slug], form.chosen)
        let now = clock()
        // Made once per showing of the form: the same send again leads to the same event.
        let location = try SentOnce.send(request, form: form.fields) { connection -> String in
            guard let exam = try ExamCatalog().examHeading(region: parts[0], slug: parts[1], connection) else {
                throw PageRefusal(.badRequest, "live.bad_exam")
            }
            let pool = try StudyStore().candidates(examID: exam.id, includingExamOnly: true, connection)
            let questionIDs: [UUID]
            if chosen.isEmpty {
                let seed = Crypto.randomBytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                questionIDs = QuestionSelector.practice(pool, count: count, seed: seed)
            } else {
                let published = Set(pool.map(\.id))
                if let stranger = chosen.first(where: { !published.contains($0) }) {
                    throw PageRefusal(.badRequest, "live.foreign_question", ["value": stranger.lowercasedText])
                }
                questionIDs = Array(chosen.prefix(50))
            }
            guard !questionIDs.isEmpty else { throw PageRefusal(.unprocessableContent, "live.no_questions") }
            for _ in 0..<10 {
                let code = Crypto.code(length: 6)
                if try LiveStore().create(
                    code: code, examID: exam.id, hostID: user.userID, title: title, questionIDs: questionIDs, secondsPerQuestion: seconds,
                    pauseSeconds: 5, at: now, connection) != nil {
                    return "/live/\(code)/host"
                }
            }
            throw PageRefusal(.serviceUnavailable, "live.no_code")
        }?.location
        if let location { return .redirect(to: location) }
        throw PageRefusal(.conflict, "error.form_resent_again")
    }

    func host(_ request: PortalRequest, _ user: SessionUser, code: String) throws -> Response {
        let now = clock()
        let (event, value) = try withEvent(request, code) { event, connection -> (LiveEvent, LiveHostPage) in
            _ = try hostOnly(request, event, code)
            let store = LiveStore()
            let participants = try store.participants(eventID: event.id, connection)
            let results = event.endedAt != nil ? try store.results(eventID: event.id, connection) : []
            return (event, LiveHostPage(event: event, participants: participants, results: results, links: links(event.code, request), now: now))
        }
        // An event whose last question closed is finished by whoever looks first: the host too.
        if event.endedAt == nil, let schedule = event.schedule, now >= schedule.endsAt, Self.finish(event, database: database) {
            return .redirect(to: "/live/\(event.code)/host")
        }
        return try pages.privatePage("live/host", value, request)
    }

    func start(_ request: PortalRequest, _ user: SessionUser, code: String) throws -> Response {
        let scoreboard = try liveScoreboard(request)
        let now = clock()
        let event = try withEvent(request, code) { event, connection -> LiveEvent in
            _ = try hostOnly(request, event, code)
            var event = event
            // On a whole second: the same instant in memory, in the database and on every instance.
            let startsAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + TimeInterval(Self.getReadySeconds)).rounded(.up))
            if try LiveStore().start(eventID: event.id, at: startsAt, connection) { event.startsAt = startsAt }
            return event
        }
        if let startsAt = event.startsAt {
            hub.started(event)
            try? scoreboard.publish(code: event.code, "{\"type\":\"started\",\"startsAt\":\(startsAt.timeIntervalSince1970)}")
        }
        return .redirect(to: "/live/\(event.code)/screen")
    }
}
