import Foundation
import PostgresClient
import QuestionEngine

/// Study sessions and their answers. Every statement runs as the app role in the caller's
/// request scope (`app.user_id`, or `app.guest_key` for a guest), so row-level security keeps
/// each student to their own sessions whatever the caller asks for.
public struct StudyStore: Sendable {
    public init() {}

    /// The published questions of an exam as selection sees them.
    public func candidates(examID: Int, _ connection: PostgresConnection) throws -> [Candidate] {
        try connection.query(("""
            SELECT q.id, d.slug, q.difficulty FROM domains d
            JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL
            WHERE d.exam_id = \(examID)
            ORDER BY q.id
            """ as SQL).prepared()).rows.map { row in
            Candidate(id: try row.decode("id", as: UUID.self), domain: try row.decode("slug", as: String.self), difficulty: try row.decode("difficulty", as: Int.self))
        }
    }

    /// An exam's domain titles by slug.
    public func domainTitles(examID: Int, _ connection: PostgresConnection) throws -> [String: String] {
        var titles: [String: String] = [:]
        for row in try connection.query(("SELECT slug, title FROM domains WHERE exam_id = \(examID)" as SQL).prepared()).rows {
            titles[try row.decode("slug", as: String.self)] = try row.decode("title", as: String.self)
        }
        return titles
    }

    /// Stores a new session and returns its id.
    public func create(_ session: NewStudySession, _ connection: PostgresConnection) throws -> UUID {
        let config = try PostgresJSON(encoding: session.config)
        let guestKey = session.guestKey.map(AccountStore.hex)
        return try connection.query(("""
            INSERT INTO study_sessions (user_id, guest_key, exam_id, mode, config, question_ids, started_at, deadline_at)
            VALUES (\(session.userID), decode(\(guestKey), 'hex'), \(session.examID), \(session.mode.rawValue), \(config)::jsonb,
                    \(session.questionIDs)::uuid[], \(session.startedAt), \(session.deadline))
            RETURNING id
            """ as SQL).prepared()).first!.decode("id", as: UUID.self)
    }

    /// Locks a session's row until the transaction ends, so one student's concurrent answers
    /// to a session are taken one at a time; false when the caller has no such session.
    public func lock(sessionID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT 1 AS locked FROM study_sessions WHERE id = \(sessionID) FOR UPDATE" as SQL).prepared()).count == 1
    }

    /// A session the caller may see, or nil.
    public func session(id: UUID, _ connection: PostgresConnection) throws -> StudySession? {
        guard let row = try connection.query(("""
            SELECT s.id, s.user_id, s.mode, s.question_ids, s.flagged, s.started_at, s.deadline_at, s.finished_at,
                   s.score_correct, s.score_percent, s.passed, e.id AS exam_id, r.code, e.slug, e.title, e.language,
                   e.pass_mark, e.time_limit_s
            FROM study_sessions s JOIN exams e ON e.id = s.exam_id JOIN regions r ON r.id = e.region_id
            WHERE s.id = \(id)
            """ as SQL).prepared()).first else { return nil }
        return StudySession(
            id: try row.decode("id", as: UUID.self), userID: try row.decode("user_id", as: UUID?.self),
            mode: StudyMode(rawValue: try row.decode("mode", as: String.self)) ?? .practice,
            questionIDs: try row.decode("question_ids", as: [UUID].self), flagged: Set(try row.decode("flagged", as: [UUID].self)),
            startedAt: try row.decode("started_at", as: Date.self), deadline: try row.decode("deadline_at", as: Date?.self),
            finishedAt: try row.decode("finished_at", as: Date?.self), scoreCorrect: try row.decode("score_correct", as: Int?.self),
            scorePercent: try row.decode("score_percent", as: Double?.self), passed: try row.decode("passed", as: Bool?.self),
            examID: try row.decode("exam_id", as: Int.self), regionCode: try row.decode("code", as: String.self),
            examSlug: try row.decode("slug", as: String.self), examTitle: try row.decode("title", as: String.self),
            examLanguage: try row.decode("language", as: String.self), passMark: try row.decode("pass_mark", as: Int.self),
            timeLimitSeconds: try row.decode("time_limit_s", as: Int.self))
    }

    /// The questions with these ids, in the order given (ones no longer visible are left out).
    public func questions(ids: [UUID], _ connection: PostgresConnection) throws -> [Question] {
        try connection.query(("""
            SELECT q.id, d.slug AS domain_slug, q.type, q.stem, q.code, q.code_language, q.options, q.correct,
                   q.explanation, q.difficulty, q.version
            FROM unnest(\(ids)::uuid[]) WITH ORDINALITY AS item(id, position)
            JOIN questions q ON q.id = item.id JOIN domains d ON d.id = q.domain_id
            ORDER BY item.position
            """ as SQL).prepared()).rows.map(Question.init(row:))
    }

    /// The answer that counts for each question of a session: the latest (a mock exam's
    /// answers may change until it ends; practice takes one answer per question).
    public func finalAnswers(sessionID: UUID, _ connection: PostgresConnection) throws -> [UUID: RecordedAnswer] {
        let rows = try connection.query(("""
            SELECT DISTINCT ON (question_id) id, session_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at
            FROM answers WHERE session_id = \(sessionID)
            ORDER BY question_id, answered_at DESC, received_at DESC, id
            """ as SQL).prepared()).rows
        var answers: [UUID: RecordedAnswer] = [:]
        for row in rows {
            let answer = try Self.answer(row)
            answers[answer.questionID] = answer
        }
        return answers
    }

    /// Whether the session has an answer to this question.
    public func hasAnswer(sessionID: UUID, questionID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("""
            SELECT EXISTS (SELECT 1 FROM answers WHERE session_id = \(sessionID) AND question_id = \(questionID)) AS answered
            """ as SQL).prepared()).first!.decode("answered", as: Bool.self)
    }

    /// A stored answer by its id, if the caller may see it.
    public func answer(id: UUID, _ connection: PostgresConnection) throws -> RecordedAnswer? {
        try connection.query(("""
            SELECT id, session_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at
            FROM answers WHERE id = \(id)
            """ as SQL).prepared()).first.map(Self.answer)
    }

    /// Appends an answer. The id is the client's: a retry of the same answer changes nothing,
    /// and an id already used for something else is a conflict.
    public func insert(_ answer: RecordedAnswer, userID: UUID?, _ connection: PostgresConnection) throws -> AnswerInsertResult {
        let response = try PostgresJSON(encoding: answer.response)
        let inserted = try connection.execute(("""
            INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at)
            VALUES (\(answer.id), \(answer.sessionID), \(userID), \(answer.questionID), \(answer.questionVersion), \(response)::jsonb,
                    \(answer.correct), \(answer.score), \(answer.rating?.rawValue), \(answer.milliseconds), \(answer.answeredAt))
            ON CONFLICT (id) DO NOTHING
            """ as SQL).prepared())
        if inserted == 1 { return .inserted }
        guard let stored = try self.answer(id: answer.id, connection), stored.isReplay(of: answer) else { return .conflict }
        return .replayed
    }

    /// Flags or unflags a question of an unfinished session for review.
    public func setFlag(sessionID: UUID, questionID: UUID, flagged: Bool, _ connection: PostgresConnection) throws {
        try connection.execute(("""
            UPDATE study_sessions
            SET flagged = CASE WHEN \(flagged) THEN array_append(array_remove(flagged, \(questionID)::uuid), \(questionID)::uuid)
                               ELSE array_remove(flagged, \(questionID)::uuid) END
            WHERE id = \(sessionID) AND finished_at IS NULL
            """ as SQL).prepared())
    }

    /// Ends a session with its score; false when it had already ended.
    public func finish(sessionID: UUID, at date: Date, score: SessionScore, _ connection: PostgresConnection) throws -> Bool {
        let percent = (score.percent * 100).rounded() / 100
        return try connection.execute(("""
            UPDATE study_sessions SET finished_at = \(date), score_correct = \(score.correct), score_percent = \(percent), passed = \(score.passed)
            WHERE id = \(sessionID) AND finished_at IS NULL
            """ as SQL).prepared()) == 1
    }

    /// Files a report on a question for the content team; the question's current version is kept.
    public func report(questionID: UUID, reason: ReportReason, comment: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("""
            INSERT INTO question_reports (question_id, question_version, user_id, reason, comment)
            SELECT q.id, q.version, app_user_id(), \(reason.rawValue), \(comment) FROM questions q WHERE q.id = \(questionID)
            """ as SQL).prepared()) == 1
    }

    static func answer(_ row: PostgresRow) throws -> RecordedAnswer {
        RecordedAnswer(
            id: try row.decode("id", as: UUID.self), sessionID: try row.decode("session_id", as: UUID.self),
            questionID: try row.decode("question_id", as: UUID.self), questionVersion: try row.decode("question_version", as: Int.self),
            response: try row.decodeJSON("response", as: [Int].self), correct: try row.decode("correct", as: Bool.self),
            score: try row.decode("score", as: Double.self), rating: try row.decode("rating", as: Int?.self).flatMap(FSRSRating.init(rawValue:)),
            milliseconds: try row.decode("time_ms", as: Int.self), answeredAt: try row.decode("answered_at", as: Date.self))
    }
}
