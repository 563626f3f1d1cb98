import Foundation
import PostgresClient
import QuestionEngine

/// A live event as stored, with what its pages need of its exam.
public struct LiveEvent: Sendable, Equatable {
    public var id: UUID
    public var code: String
    public var hostID: UUID
    public var title: String
    public var questionIDs: [UUID]
    public var secondsPerQuestion: Int
    public var pauseSeconds: Int
    public var startsAt: Date?
    public var endedAt: Date?
    public var examTitle: String
    public var examLanguage: String

    /// The event's clock, once it has started.
    public var schedule: LiveSchedule? {
        startsAt.map { LiveSchedule(startsAt: $0, questionCount: questionIDs.count, secondsPerQuestion: secondsPerQuestion, pauseSeconds: pauseSeconds) }
    }
}

/// Someone in a live event.
public struct LiveParticipant: Sendable, Equatable {
    public var id: UUID
    public var nickname: String
}

/// One live answer as stored.
public struct LiveAnswerRecord: Sendable, Equatable {
    public var participantID: UUID
    public var questionIndex: Int
    public var questionID: UUID
    public var questionVersion: Int
    public var response: AnswerResponse
    public var correct: Bool
    public var milliseconds: Int
    /// Points for correctness and speed, before any streak bonus.
    public var basePoints: Int
    public var answeredAt: Date
    /// When just stored: the bonus this answer earns if right, by the length of the run of right
    /// answers it ends (element 0 for a run of one), as the database's `live_answer_run_bonus` says;
    /// the live scoreboard adds it without a rule of its own. Empty when read back.
    public var runBonuses: [Int]

    public init(
        participantID: UUID, questionIndex: Int, questionID: UUID, questionVersion: Int, response: AnswerResponse, correct: Bool, milliseconds: Int,
        basePoints: Int, answeredAt: Date, runBonuses: [Int] = []
    ) {
        self.participantID = participantID
        self.questionIndex = questionIndex
        self.questionID = questionID
        self.questionVersion = questionVersion
        self.response = response
        self.correct = correct
        self.milliseconds = milliseconds
        self.basePoints = basePoints
        self.answeredAt = answeredAt
        self.runBonuses = runBonuses
    }
}

/// A line of a finished event's results.
public struct LiveResult: Sendable, Equatable {
    public var participantID: UUID
    public var nickname: String
    public var rank: Int
    public var points: Int
    public var correct: Int

    public init(participantID: UUID, nickname: String, rank: Int, points: Int, correct: Int) {
        self.participantID = participantID
        self.nickname = nickname
        self.rank = rank
        self.points = points
        self.correct = correct
    }
}

/// One participant's place on an event's board as the stored answers give it.
public struct LiveBoardEntry: Sendable, Equatable {
    public var participantID: UUID
    public var nickname: String
    public var points: Int
    public var correct: Int
    /// The length of the run of right answers that ends at `lastRight`.
    public var streak: Int
    /// The last question (by index) answered right, if any.
    public var lastRight: Int?
}

/// Live events in PostgreSQL: what must outlast the event. Row-level security lets a host
/// read their event's participants and answers, and a participant only their own.
public struct LiveStore: Sendable {
    public init() {}

    /// Creates an event with this join code; nil when the code is taken (draw another).
    public func create(
        code: String, examID: Int, hostID: UUID, title: String, questionIDs: [UUID], secondsPerQuestion: Int, pauseSeconds: Int, at date: Date,
        _ connection: PostgresConnection
    ) throws -> UUID? {
        do {
            return try connection.query(("""
                INSERT INTO live_events (code, exam_id, host_id, title, question_ids, seconds_per_question, pause_seconds, created_at)
                VALUES (\(code), \(examID), \(hostID), \(title), \(questionIDs)::uuid[], \(secondsPerQuestion), \(pauseSeconds), \(date))
                RETURNING id
                """ as SQL).prepared()).single().decode("id", as: UUID.self)
        } catch let error as PostgresError where error.isUniqueViolation {
            return nil
        }
    }

    /// The event with this join code.
    public func event(code: String, _ connection: PostgresConnection) throws -> LiveEvent? {
        guard let row = try connection.query(("""
            SELECT v.id, v.code, v.host_id, v.title, v.question_ids, v.seconds_per_question, v.pause_seconds, v.starts_at, v.ended_at,
                   e.title AS exam_title, e.language
            FROM live_events v JOIN exams e ON e.id = v.exam_id
            WHERE v.code = \(code)
            """ as SQL).prepared()).first else { return nil }
        return LiveEvent(
            id: try row.decode("id", as: UUID.self), code: try row.decode("code", as: String.self), hostID: try row.decode("host_id", as: UUID.self),
            title: try row.decode("title", as: String.self), questionIDs: try row.decode("question_ids", as: [UUID].self),
            secondsPerQuestion: try row.decode("seconds_per_question", as: Int.self), pauseSeconds: try row.decode("pause_seconds", as: Int.self),
            startsAt: try row.decode("starts_at", as: Date?.self), endedAt: try row.decode("ended_at", as: Date?.self),
            examTitle: try row.decode("exam_title", as: String.self), examLanguage: try row.decode("language", as: String.self))
    }

    /// Starts the event at `date` (the host's side); false when it had already started.
    public func start(eventID: UUID, at date: Date, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("UPDATE live_events SET starts_at = \(date) WHERE id = \(eventID) AND starts_at IS NULL" as SQL).prepared()) == 1
    }

    /// The caller's own participation in the event, if they joined.
    public func participant(eventID: UUID, _ connection: PostgresConnection) throws -> LiveParticipant? {
        try connection.query(("""
            SELECT id, nickname FROM live_participants
            WHERE event_id = \(eventID) AND (user_id = (SELECT app_user_id()) OR guest_key = (SELECT app_guest_key()))
            """ as SQL).prepared()).first.map { LiveParticipant(id: try $0.decode("id", as: UUID.self), nickname: try $0.decode("nickname", as: String.self)) }
    }

    /// Joins the caller (a student, or else the transaction's guest cookie) under a nickname; nil
    /// when the nickname is taken in this event.
    public func join(eventID: UUID, userID: UUID?, nickname: String, at date: Date, _ connection: PostgresConnection) throws -> LiveParticipant? {
        do {
            let id = try connection.query(("""
                INSERT INTO live_participants (event_id, user_id, guest_key, nickname, joined_at)
                VALUES (\(eventID), \(userID), CASE WHEN \(userID)::uuid IS NULL THEN (SELECT app_guest_key()) END, \(nickname), \(date))
                RETURNING id
                """ as SQL).prepared()).single().decode("id", as: UUID.self)
            return LiveParticipant(id: id, nickname: nickname)
        } catch let error as PostgresError where error.isUniqueViolation {
            return nil
        }
    }

    /// Everyone who joined (the host's view).
    public func participants(eventID: UUID, _ connection: PostgresConnection) throws -> [LiveParticipant] {
        try connection.query(("SELECT id, nickname FROM live_participants WHERE event_id = \(eventID) ORDER BY joined_at, id" as SQL).prepared()).rows.map {
            LiveParticipant(id: try $0.decode("id", as: UUID.self), nickname: try $0.decode("nickname", as: String.self))
        }
    }

    /// Stores an answer to the open question, received by the server at `receivedAt`; the
    /// database decides whether the question was open then, whether the answer is right, how long
    /// it took (from the question's opening) and its points. The stored
    /// answer, or nil when the participant had already answered that question.
    public func record(
        participantID: UUID, questionIndex: Int, questionID: UUID, response: AnswerResponse, receivedAt: Date, eventID: UUID,
        _ connection: PostgresConnection
    ) throws -> LiveAnswerRecord? {
        // live_answers_admit fills in the rest: the version, the judgement, the time and the
        // points, from when the server received the answer (believed within a second).
        guard let row = try connection.query(("""
            INSERT INTO live_answers (event_id, participant_id, question_index, question_id, response, answered_at)
            VALUES (\(eventID), \(participantID), \(questionIndex), \(questionID), \(try PostgresJSON(encoding: response))::jsonb, \(receivedAt))
            ON CONFLICT (participant_id, question_index) DO NOTHING
            RETURNING correct, time_ms, base_points, answered_at, question_version, live_answer_run_bonuses(question_index) AS run_bonuses
            """ as SQL).prepared()).first else { return nil }
        return LiveAnswerRecord(
            participantID: participantID, questionIndex: questionIndex, questionID: questionID,
            questionVersion: try row.decode("question_version", as: Int.self), response: response, correct: try row.decode("correct", as: Bool.self),
            milliseconds: try row.decode("time_ms", as: Int.self), basePoints: try row.decode("base_points", as: Int.self),
            answeredAt: try row.decode("answered_at", as: Date.self), runBonuses: try row.decode("run_bonuses", as: [Int].self))
    }

    /// Whether the participant's answer to question `index` was right; nil when they sent none.
    public func answerCorrectness(participantID: UUID, index: Int, _ connection: PostgresConnection) throws -> Bool? {
        try connection.query(("""
            SELECT correct FROM live_answers WHERE participant_id = \(participantID) AND question_index = \(index)
            """ as SQL).prepared()).first?.decode("correct", as: Bool.self)
    }

    /// Every answer of the event (the host's view).
    public func answers(eventID: UUID, _ connection: PostgresConnection) throws -> [LiveAnswerRecord] {
        try connection.query(("""
            SELECT participant_id, question_index, question_id, question_version, response, correct, time_ms, base_points, answered_at
            FROM live_answers WHERE event_id = \(eventID) ORDER BY participant_id, question_index
            """ as SQL).prepared()).rows.map { row in
            LiveAnswerRecord(
                participantID: try row.decode("participant_id", as: UUID.self), questionIndex: try row.decode("question_index", as: Int.self),
                questionID: try row.decode("question_id", as: UUID.self), questionVersion: try row.decode("question_version", as: Int.self),
                response: try row.decodeJSON("response", as: AnswerResponse.self), correct: try row.decode("correct", as: Bool.self),
                milliseconds: try row.decode("time_ms", as: Int.self), basePoints: try row.decode("base_points", as: Int.self),
                answeredAt: try row.decode("answered_at", as: Date.self))
        }
    }

    /// Ends an event whose last answer has been shown and writes its results, computed by the
    /// database from the stored answers, once; false when it is not over yet or had ended.
    /// Anyone may ask: the outcome depends only on the stored answers and the clock.
    public func finish(eventID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT live_record_results(\(eventID)) AS finished" as SQL).prepared()).single().decode("finished", as: Bool.self)
    }

    /// The board of an event from its stored answers (anyone may read it: nicknames and points).
    public func board(eventID: UUID, _ connection: PostgresConnection) throws -> [LiveBoardEntry] {
        try connection.query(("""
            SELECT participant_id, nickname, points, correct, streak, last_right FROM live_board(\(eventID))
            """ as SQL).prepared()).rows.map { row in
            LiveBoardEntry(
                participantID: try row.decode("participant_id", as: UUID.self), nickname: try row.decode("nickname", as: String.self),
                points: try row.decode("points", as: Int.self), correct: try row.decode("correct", as: Int.self),
                streak: try row.decode("streak", as: Int.self), lastRight: try row.decode("last_right", as: Int?.self))
        }
    }

    /// A finished event's results, best first.
    public func results(eventID: UUID, _ connection: PostgresConnection) throws -> [LiveResult] {
        try connection.query(("""
            SELECT participant_id, nickname, rank, points, correct FROM event_results WHERE event_id = \(eventID) ORDER BY rank, nickname
            """ as SQL).prepared()).rows.map { row in
            LiveResult(
                participantID: try row.decode("participant_id", as: UUID.self), nickname: try row.decode("nickname", as: String.self),
                rank: try row.decode("rank", as: Int.self), points: try row.decode("points", as: Int.self), correct: try row.decode("correct", as: Int.self))
        }
    }
}
