import ExamData
import Foundation
import HTTPServer
import PostgresClient
import QuestionEngine

/// `POST /api/progress`: answers recorded offline, uploaded in a batch. Each answer is checked
/// here against the answer key (the browser's verdict is never trusted) and stored with its
/// client id, so a batch sent twice stores nothing twice. Every item stands alone: a bad one is
/// rejected with its reason and the others still go in — never a 500 for one bad item.
struct ProgressUpload: Sendable {
    let database: ConnectionPool
    let clock: @Sendable () -> Date

    /// At most this many answers per batch (and 1 MiB of body).
    static let maximumAnswers = 500
    static let bodyLimit = 1024 * 1024

    struct Batch: Decodable {
        struct Session: Decodable {
            var id: UUID
            var region: String
            var exam: String
            /// "practice" (the default) or "review".
            var mode: String?
            var questionIds: [UUID]
            var startedAt: Date
            var finishedAt: Date?
        }

        struct Answer: Decodable {
            var id: UUID
            var sessionId: UUID
            var questionId: UUID
            var questionVersion: Int
            var response: [Int]
            var timeMs: Int
            var answeredAt: Date
        }

        var sessions: [Session]?
        var answers: [Answer]
    }

    struct Outcome: Encodable {
        struct Rejection: Encodable {
            var id: String
            var reason: String
        }
        var accepted: [String] = []
        var duplicates: [String] = []
        var rejected: [Rejection] = []
        var finishedSessions: [String] = []
    }

    private static func error(_ status: HTTPStatus, _ message: String) -> Response {
        var response = Response.json(Array("{\"error\":\(String(decoding: try! JSONEncoder().encode(message), as: UTF8.self))}".utf8), status: status)
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    func upload(_ request: Request) throws -> Response {
        guard let user = request.user else { return Self.error(.unauthorized, "Sign in to upload progress; your answers stay on this device until then.") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let batch: Batch
        do {
            batch = try decoder.decode(Batch.self, from: Data(request.body))
        } catch {
            return Self.error(.badRequest, "The batch is not JSON of the progress format: \(error)".prefix(300).description)
        }
        guard batch.answers.count <= Self.maximumAnswers else {
            return Self.error(.contentTooLarge, "At most \(Self.maximumAnswers) answers per batch; send the rest in another.")
        }
        let now = clock()
        let outcome = try StudyActor(user: user).transaction(database) { connection -> Outcome in
            var outcome = Outcome()
            let store = StudyStore(), cards = ReviewCardStore(), catalog = ExamCatalog()
            // Sessions first: made with the client's id, once.
            for session in batch.sessions ?? [] {
                try item(connection) {
                    let mode = session.mode ?? "practice"
                    guard mode == "practice" || mode == "review", (1...500).contains(session.questionIds.count), session.startedAt <= now.addingTimeInterval(300),
                          let exam = try catalog.examHeading(region: session.region, slug: session.exam, connection),
                          Set(session.questionIds).isSubset(of: Set(try store.candidates(examID: exam.id, connection).map(\.id))) else { return }
                    try store.createOffline(
                        id: session.id, userID: user.userID, examID: exam.id, mode: mode, questionIDs: session.questionIds, startedAt: session.startedAt, connection)
                }
            }
            let sessionIDs = Set(batch.answers.map(\.sessionId))
            var sessions: [UUID: StudySession] = [:]
            for id in sessionIDs { sessions[id] = try store.session(id: id, connection) }
            let questions = Dictionary(
                try store.questions(ids: Array(Set(batch.answers.map(\.questionId))), connection).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for answer in batch.answers {
                let id = answer.id.uuidString.lowercased()
                func reject(_ reason: String) { outcome.rejected.append(.init(id: id, reason: reason)) }
                guard let session = sessions[answer.sessionId], session.userID == user.userID else { reject("unknown session"); continue }
                guard session.questionIDs.contains(answer.questionId) else { reject("the question is not part of the session"); continue }
                guard let question = questions[answer.questionId] else { reject("the question is no longer published"); continue }
                guard (0...86_400_000).contains(answer.timeMs), answer.answeredAt <= now.addingTimeInterval(300) else { reject("the time is impossible"); continue }
                let outcomeOfAnswer: AnswerOutcome
                do {
                    outcomeOfAnswer = try AnswerChecker.check(kind: question.kind, key: question.correct, optionCount: question.options.count, response: answer.response)
                } catch {
                    reject("the response is not an answer to this question (\(error))")
                    continue
                }
                let rating = RatingPolicy.rating(correct: outcomeOfAnswer.isCorrect, milliseconds: answer.timeMs, typicalMilliseconds: nil, samples: 0, cardState: nil)
                let recorded = RecordedAnswer(
                    id: answer.id, sessionID: session.id, questionID: question.id, questionVersion: answer.questionVersion, response: answer.response,
                    correct: outcomeOfAnswer.isCorrect, score: outcomeOfAnswer.score, rating: rating, milliseconds: answer.timeMs, answeredAt: answer.answeredAt)
                // A repeat is found before inserting: the session may have ended since, and a
                // finished session takes no insert at all, not even one that would conflict.
                if let earlier = try store.answer(id: answer.id, connection) {
                    if earlier.isReplay(of: recorded) { outcome.duplicates.append(id) } else { reject("this id was stored before with a different answer") }
                    continue
                }
                var result: AnswerInsertResult = .conflict
                let stored = try item(connection) {
                    result = try store.insert(recorded, userID: user.userID, connection)
                    if result == .inserted {
                        let current = try cards.cards(questionIDs: [question.id], connection)[question.id]
                        _ = try cards.apply(questionID: question.id, rating: rating, at: answer.answeredAt, current: current, connection)
                    }
                }
                switch (stored, result) {
                case (false, _): reject("the answer could not be stored (its session may have ended)")
                case (true, .inserted): outcome.accepted.append(id)
                case (true, .replayed): outcome.duplicates.append(id)
                case (true, .conflict): reject("this id was stored before with a different answer")
                }
            }
            // Sessions the device finished are finished here too, scored from what is stored.
            for session in batch.sessions ?? [] {
                guard let finishedAt = session.finishedAt, let stored = try store.session(id: session.id, connection), !stored.isFinished,
                      stored.userID == user.userID else { continue }
                if try item(connection, { try SessionFinisher(cards: cards).finish(stored, at: min(finishedAt, now), connection) }) {
                    outcome.finishedSessions.append(session.id.uuidString.lowercased())
                }
            }
            return outcome
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var response = Response.json(Array(try encoder.encode(outcome)))
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// Runs one item's statements under a savepoint: a database error undoes that item only.
    @discardableResult
    private func item(_ connection: PostgresConnection, _ body: () throws -> Void) throws -> Bool {
        try connection.execute("SAVEPOINT item")
        do {
            try body()
            try connection.execute("RELEASE SAVEPOINT item")
            return true
        } catch let error as PostgresError where error.kind == .server {
            try connection.execute("ROLLBACK TO SAVEPOINT item")
            return false
        }
    }
}
