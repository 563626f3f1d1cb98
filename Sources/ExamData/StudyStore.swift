import Foundation
import PostgresClient
import QuestionEngine

/// Study sessions and their answers. Every statement runs as the app role in the caller's
/// request scope (`app.user_id`, or `app.guest_key` for a guest), so row-level security keeps
/// each student to their own sessions whatever the caller asks for.
public struct StudyStore: Sendable {
    /// The key that signs the moment a question was shown (`app_form_key()`), the same for
    /// every instance.
    public static func formKey(_ connection: PostgresConnection) throws -> [UInt8] {
        try connection.query("SELECT app_form_key() AS key").single().decode("key", as: PostgresBytes.self).bytes
    }

    public init() {}

    /// The published questions of an exam as selection sees them; exam-only questions only
    /// for a mock exam or a live event (`includingExamOnly`).
    public func candidates(examID: Int, includingExamOnly: Bool, _ connection: PostgresConnection) throws -> [Candidate] {
        try connection.query(("""
            SELECT q.id, d.slug, q.difficulty, q.type FROM domains d
            JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL
            WHERE d.exam_id = \(examID) AND (\(includingExamOnly) OR NOT q.exam_only)
            ORDER BY q.id
            """ as SQL).prepared()).rows.map { row in
            Candidate(
                id: try row.decode("id", as: UUID.self), domain: try row.decode("slug", as: String.self), difficulty: try row.decode("difficulty", as: Int.self),
                kind: try row.decode("type", as: String.self))
        }
    }

    /// Those of these ids that are published questions of the exam for practice (not exam-only),
    /// in the order given.
    public func published(examID: Int, ids: [UUID], _ connection: PostgresConnection) throws -> [UUID] {
        let found = Set(try connection.query(("""
            SELECT q.id FROM domains d
            JOIN questions q ON q.domain_id = d.id AND q.status = 'published' AND q.deleted_at IS NULL AND NOT q.exam_only
            WHERE d.exam_id = \(examID) AND q.id = ANY (\(ids)::uuid[])
            """ as SQL).prepared()).rows.map { try $0.decode("id", as: UUID.self) })
        var seen = Set<UUID>()
        return ids.filter { found.contains($0) && seen.insert($0).inserted }
    }

    /// An exam's domain titles by slug.
    public func domainTitles(examID: Int, _ connection: PostgresConnection) throws -> [String: String] {
        var titles: [String: String] = [:]
        for row in try connection.query(("SELECT slug, title FROM domains WHERE exam_id = \(examID)" as SQL).prepared()).rows {
            titles[try row.decode("slug", as: String.self)] = try row.decode("title", as: String.self)
        }
        return titles
    }

    /// Stores a new session and returns its id. A guest's session belongs to the guest key of
    /// the transaction (`app_guest_key()`); the database sets a mock exam's deadline.
    public func create(_ session: NewStudySession, _ connection: PostgresConnection) throws -> UUID {
        let config = try PostgresJSON(encoding: session.config)
        guard let row = try connection.query(("""
            INSERT INTO study_sessions (user_id, guest_key, exam_id, mode, config, question_ids, started_at, share_link_id)
            VALUES (\(session.userID), CASE WHEN \(session.userID)::uuid IS NULL THEN (SELECT app_guest_key()) END, \(session.examID),
                    \(session.mode.rawValue), \(config)::jsonb, \(session.questionIDs)::uuid[], \(session.startedAt), \(session.shareLinkID))
            RETURNING id
            """ as SQL).prepared()).first else {
            throw PostgresError(kind: .server, message: "inserting a study session returned no row")
        }
        return try row.decode("id", as: UUID.self)
    }

    /// Records a session (practice or review) made on a device while offline, under the
    /// device's id; nothing when it is stored already.
    public func createOffline(id: UUID, userID: UUID, examID: Int, mode: String, questionIDs: [UUID], startedAt: Date, _ connection: PostgresConnection) throws {
        try connection.execute(("""
            INSERT INTO study_sessions (id, user_id, exam_id, mode, config, question_ids, started_at)
            VALUES (\(id), \(userID), \(examID), \(mode), '{"offline": "true"}'::jsonb, \(questionIDs)::uuid[], \(startedAt))
            ON CONFLICT (id) DO NOTHING
            """ as SQL).prepared())
    }

    /// Whether the caller's session is running with nothing answered yet (a start sent again
    /// leads to it rather than beginning another).
    public func isUntouched(sessionID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("""
            SELECT 1 AS untouched FROM study_sessions s
            WHERE s.id = \(sessionID) AND s.finished_at IS NULL AND (s.deadline_at IS NULL OR s.deadline_at > app_now())
              AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.session_id = s.id)
            """ as SQL).prepared()).count == 1
    }

    /// Locks a session's row until the transaction ends (finishing waits for an answer being
    /// stored, and the other way round); false when the caller has no such session.
    public func lock(sessionID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT 1 AS locked FROM study_sessions WHERE id = \(sessionID) FOR UPDATE" as SQL).prepared()).count == 1
    }

    /// A session the caller may see, or nil.
    public func session(id: UUID, _ connection: PostgresConnection) throws -> StudySession? {
        try connection.query(SessionReading.sessionStatement(id)).first.map(StudySession.init(row:))
    }

    /// The session, locked (answers to one session are taken one at a time), and the question
    /// (nil unless it is in the session and visible), for reading an answer form with its
    /// question. Nil when the caller has no such session.
    public func answerContext(sessionID: UUID, questionID: UUID, _ connection: PostgresConnection) throws -> AnswerContext? {
        try answerContext(try connection.query(Self.answerContextStatement(sessionID: sessionID, questionID: questionID)))
    }

    /// The statement `answerContext` runs, for a caller that sends it with others in one flight.
    public static func answerContextStatement(sessionID: UUID, questionID: UUID) -> SQL {
        ("""
            SELECT s.id, s.user_id, s.mode, s.question_ids, s.flagged, s.struck, s.started_at, s.deadline_at, s.finished_at,
                   s.score_correct, s.score_percent, s.passed, s.share_link_id, e.id AS exam_id, r.code, e.slug, e.title, e.language,
                   e.pass_mark, coalesce(share_link_time_limit(s.share_link_id), e.time_limit_s) AS time_limit_s, e.scaled_min, e.scaled_pass, e.scaled_max,
                   q.id AS q_id, d.slug AS q_domain_slug, q.type AS q_type, q.stem AS q_stem, q.rich AS q_rich, q.code AS q_code,
                   q.code_language AS q_code_language, q.options AS q_options, q.correct AS q_correct, q.details AS q_details,
                   q.explanation AS q_explanation, q.difficulty AS q_difficulty, q.version AS q_version
            FROM study_sessions s
            JOIN exams e ON e.id = s.exam_id
            JOIN regions r ON r.id = e.region_id
            LEFT JOIN questions q ON q.id = \(questionID) AND q.id = ANY (s.question_ids)
            LEFT JOIN domains d ON d.id = q.domain_id
            WHERE s.id = \(sessionID)
            FOR UPDATE OF s
            """ as SQL).prepared()
    }

    /// The context from the rows of `answerContextStatement` (nil when the session is not the caller's).
    public func answerContext(_ result: QueryResult) throws -> AnswerContext? {
        guard let row = result.first else { return nil }
        let hasQuestion = try row.decode("q_id", as: UUID?.self) != nil
        return AnswerContext(session: try StudySession(row: row), question: hasQuestion ? try Question(row: row, prefix: "q_") : nil)
    }

    /// The questions with these ids, in the order given (ones no longer visible are left out).
    public func questions(ids: [UUID], _ connection: PostgresConnection) throws -> [Question] {
        try connection.query(("""
            SELECT q.id, d.slug AS domain_slug, q.type, q.stem, q.rich, q.code, q.code_language, q.options, q.correct, q.details,
                   q.explanation, q.difficulty, q.version
            FROM unnest(\(ids)::uuid[]) WITH ORDINALITY AS item(id, position)
            JOIN questions q ON q.id = item.id JOIN domains d ON d.id = q.domain_id
            ORDER BY item.position
            """ as SQL).prepared()).rows.map { try Question(row: $0) }
    }

    /// The answer that counts for each question of a session (`counted_answers`): in a mock
    /// exam the latest to arrive before the deadline, elsewhere the first.
    public func finalAnswers(sessionID: UUID, _ connection: PostgresConnection) throws -> [UUID: RecordedAnswer] {
        let rows = try connection.query(SessionReading.answersStatement(sessionID)).rows
        var answers: [UUID: RecordedAnswer] = [:]
        for row in rows {
            let answer = try Self.answer(row)
            answers[answer.questionID] = answer
        }
        return answers
    }

    /// A stored answer by its id, if the caller may see it.
    public func answer(id: UUID, _ connection: PostgresConnection) throws -> RecordedAnswer? {
        try connection.query(("""
            SELECT id, session_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at
            FROM answers WHERE id = \(id)
            """ as SQL).prepared()).first.map(Self.answer)
    }

    /// The stored answers among these ids that the caller may see, by id.
    public func answers(ids: [UUID], _ connection: PostgresConnection) throws -> [UUID: RecordedAnswer] {
        var answers: [UUID: RecordedAnswer] = [:]
        for row in try connection.query(("""
            SELECT id, session_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at
            FROM answers WHERE id = ANY (\(ids)::uuid[])
            """ as SQL).prepared()).rows {
            let answer = try Self.answer(row)
            answers[answer.id] = answer
        }
        return answers
    }

    /// Takes every session of a guest (proved by their cookie's token) into the signed-in
    /// caller's account, answers included; returns how many sessions. Review cards are then
    /// rebuilt from the answers (`ReviewCardStore.rebuild`).
    public func claimGuestSessions(guestToken: String, _ connection: PostgresConnection) throws -> Int {
        try connection.query(("SELECT claim_guest_sessions(\(guestToken)) AS claimed" as SQL).prepared())
            .first?.decode("claimed", as: Int.self) ?? 0
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

    /// Strikes out an option of a question of an unfinished session, or puts it back (`struck`
    /// false); an option the question does not have changes nothing.
    public func setStrike(sessionID: UUID, questionID: UUID, option: Int, struck: Bool, _ connection: PostgresConnection) throws {
        try connection.execute(("""
            UPDATE study_sessions s
            SET struck = CASE WHEN \(struck)
                              THEN jsonb_set(s.struck, ARRAY[\(questionID)::text],
                                             (SELECT coalesce(jsonb_agg(DISTINCT v ORDER BY v), '[]') FROM (
                                                 SELECT value::integer AS v FROM jsonb_array_elements_text(coalesce(s.struck -> \(questionID)::text, '[]'))
                                                 UNION SELECT \(option)) AS picked))
                              ELSE jsonb_set(s.struck, ARRAY[\(questionID)::text],
                                             (SELECT coalesce(jsonb_agg(v ORDER BY v), '[]') FROM (
                                                 SELECT value::integer AS v FROM jsonb_array_elements_text(coalesce(s.struck -> \(questionID)::text, '[]'))
                                                 WHERE value::integer <> \(option)) AS kept)) END
            WHERE s.id = \(sessionID) AND s.finished_at IS NULL AND \(questionID)::uuid = ANY (s.question_ids)
              AND EXISTS (SELECT 1 FROM questions q WHERE q.id = \(questionID) AND \(option) BETWEEN 0 AND jsonb_array_length(q.options) - 1)
            """ as SQL).prepared())
    }

    /// The questions the caller answered wrongly in one of their own sessions (a partly right
    /// answer counts as missed, as the score does; unanswered ones are not), in the session's
    /// order, with the session's exam; nil when the session is not the caller's.
    public func missedQuestions(sessionID: UUID, _ connection: PostgresConnection) throws -> (examID: Int, questions: [UUID])? {
        let rows = try connection.query(("""
            SELECT s.exam_id, c.question_id
            FROM study_sessions s
            CROSS JOIN LATERAL unnest(s.question_ids) WITH ORDINALITY AS item(id, position)
            LEFT JOIN counted_answers c ON c.session_id = s.id AND c.question_id = item.id AND NOT c.correct
            WHERE s.id = \(sessionID)
              AND (s.user_id = (SELECT app_user_id()) OR (s.user_id IS NULL AND s.guest_key = (SELECT app_guest_key())))
            ORDER BY item.position
            """ as SQL).prepared()).rows
        guard let first = rows.first else { return nil }
        return (try first.decode("exam_id", as: Int.self), try rows.compactMap { try $0.decode("question_id", as: UUID?.self) })
    }

    /// Ends the caller's running mock exam because they chose to start another
    /// (`study_session_set_aside`): scored as it stands, left out of the questions' statistics.
    /// False when it is not theirs, not a mock exam or already ended.
    public func setAside(sessionID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT study_session_set_aside(\(sessionID)) AS ended" as SQL).prepared()).single().decode("ended", as: Bool.self)
    }

    /// Ends the caller's session at `date` (clamped by the database to its start, now and a
    /// mock exam's deadline); the database scores it from the answers that count. False when it
    /// had already ended.
    public func finish(sessionID: UUID, at date: Date, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT finish_study_session(\(sessionID), \(date)) AS finished" as SQL).prepared())
            .first?.decode("finished", as: Bool.self) ?? false
    }

    /// Files a report on a question for the content team; the question's current version is kept.
    public func report(questionID: UUID, reason: ReportReason, comment: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("""
            INSERT INTO question_reports (question_id, question_version, user_id, reason, comment)
            SELECT q.id, q.version, (SELECT app_user_id()), \(reason.rawValue), \(comment) FROM questions q WHERE q.id = \(questionID)
            """ as SQL).prepared()) == 1
    }

    static func answer(_ row: PostgresRow) throws -> RecordedAnswer {
        RecordedAnswer(
            id: try row.decode("id", as: UUID.self), sessionID: try row.decode("session_id", as: UUID.self),
            questionID: try row.decode("question_id", as: UUID.self), questionVersion: try row.decode("question_version", as: Int.self),
            response: try row.decodeJSON("response", as: AnswerResponse.self), correct: try row.decode("correct", as: Bool.self),
            score: try row.decode("score", as: Double.self), rating: try row.decode("rating", as: Int?.self).flatMap(FSRSRating.init(rawValue:)),
            milliseconds: try row.decode("time_ms", as: Int.self), answeredAt: try row.decode("answered_at", as: Date.self))
    }
}
