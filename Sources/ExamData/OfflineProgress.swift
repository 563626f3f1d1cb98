import Foundation
import Identifiers
import PostgresClient
import QuestionEngine

/// Answers recorded offline, uploaded in a batch. Each answer is checked here against the
/// answer key (the device's verdict is never trusted; the database checks again) and stored with
/// its client id, so a batch sent twice stores nothing twice. Every item stands alone: a bad one
/// is refused with its reason and the others still go in.
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
        let questionIDs = Array(Set(batch.answers.map(\.questionId)))
        let questions = Dictionary(try store.questions(ids: questionIDs, connection).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // What is already stored, read once for the batch.
        let earlier = try store.answers(ids: batch.answers.map(\.id), connection)
        // Answers to a version that has changed since: what their indexes meant then.
        let older = batch.answers.filter { answer in questions[answer.questionId].map { answer.questionVersion < $0.version } ?? false }
        let olderOptions = try store.publishedOptionIDs(older.map { ($0.questionId, $0.questionVersion) }, connection)
        // A new answer (not a replay, not a repeat within this batch) goes only into an open
        // session, and only for a question that session has no answer to yet: the first counts.
        var answered = try store.answeredQuestions(sessionIDs: Array(sessionIDs), connection)
        var seen = Set<UUID>()
        let checked = batch.answers.map { answer -> Verdict in
            let verdict = Self.verdict(answer, sessions: sessions, questions: questions, olderOptions: olderOptions, userID: userID, now: now)
            guard case .valid = verdict, earlier[answer.id] == nil, seen.insert(answer.id).inserted else { return verdict }
            if sessions[answer.sessionId]?.isFinished == true { return .rejected(Refusal("session_ended")) }
            guard answered.insert(SessionQuestion(session: answer.sessionId, question: answer.questionId)).inserted else {
                return .rejected(Refusal("answered_already"))
            }
            return verdict
        }

        // What the checks and the stored answers settle already; the rest is to be stored.
        var fresh: [RecordedAnswer] = []
        for (answer, verdict) in zip(batch.answers, checked) {
            let id = answer.id.lowercasedText
            switch verdict {
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

        // The clean batch in one statement: every new answer inserted at once, each rated and
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

        // One answer at a time, each under its own savepoint, so a failing one (its session
        // ended meanwhile, say) undoes only itself: what a batch the database refused gets.
        func storeOneByOne() throws -> Outcome {
            var outcome = outcome
            for recorded in fresh.sorted(by: { ($0.answeredAt, $0.id.uuidString) < ($1.answeredAt, $1.id.uuidString) }) {
                let id = recorded.id.lowercasedText
                var result: AnswerInsertResult = .conflict
                let stored = try item(connection) {
                    result = try AnswerRecorder().record(recorded, userID: userID, connection)
                }
                switch (stored, result) {
                case (false, _): outcome.rejected.append(.init(id: id, reason: Refusal("not_stored")))
                case (true, .inserted): outcome.accepted.append(id)
                case (true, .replayed): outcome.duplicates.append(id)
                case (true, .conflict): outcome.rejected.append(.init(id: id, reason: Refusal("reused")))
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

    /// Checks one answer against its session and the current answer key (never the device's
    /// verdict). An answer to an earlier version is first mapped onto the current options by
    /// their ids, so a reordered question is checked by what was chosen, and a corrected key
    /// counts; it is stored as given, with the version it was given for.
    static func verdict(
        _ answer: Batch.Answer, sessions: [UUID: StudySession], questions: [UUID: Question], olderOptions: [VersionedQuestion: [String]], userID: UUID,
        now: Date
    ) -> Verdict {
        guard let session = sessions[answer.sessionId], session.userID == userID else { return .rejected(Refusal("unknown_session")) }
        // Mock exams, assignments and live events are online only: their clock is the server's.
        guard session.mode == .practice || session.mode == .review, session.shareLinkID == nil else {
            return .rejected(Refusal("online_only"))
        }
        guard let question = questions[answer.questionId] else { return .rejected(Refusal("unpublished")) }
        guard session.questionIDs.contains(answer.questionId) else { return .rejected(Refusal("not_in_session")) }
        guard answer.timeMs >= 0 else { return .rejected(Refusal("impossible_time")) }
        var response = answer.response
        if answer.questionVersion != question.version {
            guard answer.questionVersion < question.version, let options = olderOptions[VersionedQuestion(question: question.id, version: answer.questionVersion)] else {
                return .rejected(Refusal("never_published", ["version": String(answer.questionVersion)]))
            }
            // Option indexes meant that version's options: mapped onto today's by id. A matching
            // answer stands only while the prompts are as they were; typed answers, gaps'
            // answers and points need no mapping.
            switch answer.response {
            case .indexes(let indexes):
                let current = Dictionary(question.options.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
                var mapped: [Int] = []
                for index in indexes {
                    guard options.indices.contains(index) else { return .rejected(Refusal("not_an_answer", ["detail": "outOfRange(\(index))"])) }
                    guard let now = current[options[index]] else { return .rejected(Refusal("option_gone")) }
                    mapped.append(now)
                }
                if question.kind.answerShape == .order, mapped.count != question.options.count {
                    return .rejected(Refusal("items_changed"))
                }
                response = .indexes(mapped)
            case .pairs:
                guard options == question.options.map(\.id) else { return .rejected(Refusal("items_changed")) }
            case .text, .point, .gaps:
                break
            }
        }
        let outcome: AnswerOutcome
        do {
            outcome = try AnswerChecker.check(question.answerKey, response)
        } catch {
            return .rejected(Refusal("not_an_answer", ["detail": error.code]))
        }
        let milliseconds = min(answer.timeMs, Self.longestAnswerMilliseconds)
        // The device's time, kept as information within the session's window and the upload's arrival.
        let answeredAt = min(max(answer.answeredAt, session.startedAt), now)
        return .valid(RecordedAnswer(
            id: answer.id, sessionID: session.id, questionID: question.id, questionVersion: answer.questionVersion, response: answer.response,
            correct: outcome.isCorrect, score: outcome.score, rating: nil, milliseconds: milliseconds, answeredAt: answeredAt))
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
