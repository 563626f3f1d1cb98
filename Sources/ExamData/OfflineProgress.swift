import Foundation
import Identifiers
import PostgresClient
import QuestionEngine

/// Answers recorded offline, uploaded in a batch. The database judges each answer as it stores
/// the batch (`answers_admit`: the session, the question, its version, the response; the
/// device's verdict is never sent), with its client id, so a batch sent twice stores nothing
/// twice. Every item stands alone: one the database refuses is refused with the reason it
/// names, and the others still go in.
///
/// The device's clock is information, not authority: its times are kept, clamped to the
/// session's window and the upload's arrival; points count by the day the server received the
/// answer; only practice and review sessions take answers this way (a mock exam, an assignment
/// or a live event is online only); one answer per question per session counts, the first.
public struct OfflineProgress: Sendable {
    public init() {}

    /// At most this many answers and sessions per batch.
    public static let maximumAnswers = 500
    public static let maximumSessions = 50
    /// The most time an offline answer is taken to have needed (the device's own measure).
    static let longestAnswerMilliseconds = 30 * 60 * 1000

    /// What a device uploads (the progress format).
    public struct Batch: Decodable, Sendable {
        public struct Session: Decodable, Sendable {
            var id: UUID
            var region: String
            var exam: String
            /// "practice" (the default) or "review".
            var mode: String?
            var questionIds: [UUID]
            var startedAt: Date
            var finishedAt: Date?
        }

        public struct Answer: Decodable, Sendable {
            var id: UUID
            var sessionId: UUID
            var questionId: UUID
            var questionVersion: Int
            var response: AnswerResponse
            var timeMs: Int
            var answeredAt: Date
        }

        public var sessions: [Session]?
        public var answers: [Answer]
    }

    /// Why an answer was not stored: a message key (`offline.reason.<key>`) and its arguments, for
    /// the caller to word in the uploader's language.
    public struct Refusal: Sendable, Equatable {
        public var key: String
        public var arguments: [String: String]

        init(_ key: String, _ arguments: [String: String] = [:]) {
            self.key = key
            self.arguments = arguments
        }
    }

    /// What became of each answer and session, by id.
    public struct Outcome: Sendable {
        public struct Rejection: Sendable {
            public var id: String
            public var reason: Refusal
        }
        public var accepted: [String] = []
        public var duplicates: [String] = []
        public var rejected: [Rejection] = []
        public var finishedSessions: [String] = []
    }

    /// An uploaded answer as it will be stored, or why it cannot be.
    enum Verdict {
        case valid(RecordedAnswer)
        case rejected(Refusal)
    }

    /// Stores what it can of `batch` for `userID`, in the caller's transaction.
    public func record(_ batch: Batch, userID: UUID, now: Date, _ connection: PostgresConnection) throws -> Outcome {
        var outcome = Outcome()
        let store = StudyStore(), catalog = ExamCatalog()
        // Sessions first: made with the client's id, once.
        for session in batch.sessions ?? [] {
            try item(connection) {
                let mode = session.mode ?? "practice"
                guard mode == "practice" || mode == "review", (1...500).contains(session.questionIds.count),
                      let exam = try catalog.examHeading(region: session.region, slug: session.exam, connection) else { return }
                // A question retired since the device downloaded the exam drops out of the
                // session (its answer is refused alone); the rest of the session stands.
                let questionIDs = try store.published(examID: exam.id, ids: session.questionIds, connection)
                guard !questionIDs.isEmpty else { return }
                // A device's start time is kept, but never later than the upload.
                try store.createOffline(
                    id: session.id, userID: userID, examID: exam.id, mode: mode, questionIDs: questionIDs,
                    startedAt: min(session.startedAt, now), connection)
            }
        }
        let sessionIDs = Set(batch.answers.map(\.sessionId))
        var sessions: [UUID: StudySession] = [:]
        for id in sessionIDs { sessions[id] = try store.session(id: id, connection) }
        // What is already stored, read once for the batch.
        let earlier = try store.answers(ids: batch.answers.map(\.id), connection)

        // What the upload's own rules and the stored answers settle already; the rest is for the
        // database to judge.
        var fresh: [RecordedAnswer] = []
        for answer in batch.answers {
            let id = answer.id.lowercasedText
            switch Self.verdict(answer, sessions: sessions, userID: userID, now: now) {
            case .rejected(let reason): outcome.rejected.append(.init(id: id, reason: reason))
            case .valid(let recorded):
                // A repeat is found before inserting: the session may have ended since, and
                // a finished session takes no insert at all, not even a conflicting one.
                if let stored = earlier[answer.id] {
                    if stored.isReplay(of: recorded) { outcome.duplicates.append(id) } else { outcome.rejected.append(.init(id: id, reason: Refusal("reused"))) }
                } else {
                    fresh.append(recorded)
                }
            }
        }

        // The batch in one statement: every new answer inserted at once, each judged, rated and
        // its card reviewed by the database as it is admitted (in the order they were given).
        func storeTogether() throws -> Outcome {
            var outcome = outcome
            let inserted = try AnswerRecorder().recordAll(fresh, userID: userID, connection)
            // Not inserted: the id came twice in this batch, or arrived meanwhile by another way.
            let others = fresh.filter { !inserted.contains($0.id) }
            let storedNow = others.isEmpty ? [:] : try store.answers(ids: others.map(\.id), connection)
            var acceptedNow: [UUID: RecordedAnswer] = [:]
            for recorded in fresh {
                let id = recorded.id.lowercasedText
                if inserted.contains(recorded.id), acceptedNow[recorded.id] == nil {
                    acceptedNow[recorded.id] = recorded
                    outcome.accepted.append(id)
                } else if let stored = acceptedNow[recorded.id] ?? storedNow[recorded.id], stored.isReplay(of: recorded) {
                    outcome.duplicates.append(id)
                } else {
                    outcome.rejected.append(.init(id: id, reason: Refusal("reused")))
                }
            }
            return outcome
        }

        // When the database refused one of them, the statement stored none: then one answer at a
        // time, each under its own savepoint, so a refused one undoes only itself and comes back
        // with the reason the database gave.
        func storeOneByOne() throws -> Outcome {
            var outcome = outcome
            for recorded in fresh.sorted(by: { ($0.answeredAt, $0.id.uuidString) < ($1.answeredAt, $1.id.uuidString) }) {
                let id = recorded.id.lowercasedText
                do {
                    switch try AnswerRecorder().record(recorded, userID: userID, connection) {
                    case .inserted: outcome.accepted.append(id)
                    case .replayed: outcome.duplicates.append(id)
                    case .conflict: outcome.rejected.append(.init(id: id, reason: Refusal("reused")))
                    }
                } catch let error as PostgresError where error.kind == .server {
                    let reason = AnswerRefusal(error).map { Self.reason($0, version: recorded.questionVersion) }
                    outcome.rejected.append(.init(id: id, reason: reason ?? Refusal("not_stored")))
                }
            }
            return outcome
        }

        do {
            outcome = try connection.withSavepoint { try storeTogether() }
        } catch let error as PostgresError where error.kind == .server {
            outcome = try storeOneByOne()
        }
        // Sessions the device finished are finished here too, scored from what is stored.
        for session in batch.sessions ?? [] {
            guard let finishedAt = session.finishedAt, let stored = try store.session(id: session.id, connection), !stored.isFinished,
                  stored.userID == userID else { continue }
            if try item(connection, { _ = try store.finish(sessionID: stored.id, at: min(max(finishedAt, stored.startedAt), now), connection) }) {
                outcome.finishedSessions.append(session.id.lowercasedText)
            }
        }
        return outcome
    }

    /// The upload's own rules for one answer, before the database judges it: a session of the
    /// uploader's, one that takes answers offline, a time that can be. The answer goes to the
    /// database as given (its response, the version it was given for), its device time kept as
    /// information within the session's window and the upload's arrival.
    static func verdict(_ answer: Batch.Answer, sessions: [UUID: StudySession], userID: UUID, now: Date) -> Verdict {
        guard let session = sessions[answer.sessionId], session.userID == userID else { return .rejected(Refusal("unknown_session")) }
        // Mock exams, assignments and live events are online only: their clock is the server's.
        guard session.mode == .practice || session.mode == .review, session.shareLinkID == nil else {
            return .rejected(Refusal("online_only"))
        }
        guard answer.timeMs >= 0 else { return .rejected(Refusal("impossible_time")) }
        return .valid(RecordedAnswer(
            id: answer.id, sessionID: session.id, questionID: answer.questionId, questionVersion: answer.questionVersion, response: answer.response,
            // Judged by the database as it is stored (AnswerRecorder sends neither).
            correct: false, score: 0, rating: nil,
            milliseconds: min(answer.timeMs, Self.longestAnswerMilliseconds), answeredAt: min(max(answer.answeredAt, session.startedAt), now)))
    }

    /// The upload's reason for the database's refusal of an answer given for `version`.
    static func reason(_ refusal: AnswerRefusal, version: Int) -> Refusal {
        switch refusal {
        case .noSuchSession: Refusal("unknown_session")
        case .idTaken: Refusal("reused")
        case .notAnAnswer(let code): Refusal("not_an_answer", ["detail": code])
        case .notAdmitted(.finished), .notAdmitted(.overdue): Refusal("session_ended")
        case .notAdmitted(.answered): Refusal("answered_already")
        case .notAdmitted(.notInSession): Refusal("not_in_session")
        case .notAdmitted(.questionGone): Refusal("unpublished")
        case .notAdmitted(.versionUnknown): Refusal("never_published", ["version": String(version)])
        case .notAdmitted(.optionGone): Refusal("option_gone")
        case .notAdmitted(.itemsChanged): Refusal("items_changed")
        case .notAdmitted(.closed), .notAdmitted(.other): Refusal("not_stored")
        }
    }

    /// Runs one item's statements under a savepoint: a database error undoes that item only.
    @discardableResult
    private func item(_ connection: PostgresConnection, _ body: () throws -> Void) throws -> Bool {
        do {
            try connection.withSavepoint(body)
            return true
        } catch let error as PostgresError where error.kind == .server {
            return false
        }
    }
}
