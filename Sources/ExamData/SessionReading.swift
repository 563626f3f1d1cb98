import Foundation
import PostgresClient
import QuestionEngine

/// A study session's page as one pipelined read: the statements a question page or a results
/// page needs, each addressed by the session's id (so none waits for another's answer), and
/// what they returned. Row-level security applies to every one as to the caller.
public struct SessionReading: Sendable {
    /// The session, nil when the caller has no such session.
    public var session: StudySession?
    /// The answer that counts for each question answered so far.
    public var answers: [UUID: RecordedAnswer]
    /// The questions read with the session (see the statements), in the session's order.
    public var questions: [Question]
    /// For a question page: the number of the question read (1-based), if any was.
    public var questionNumber: Int?
    /// For a results page: the domains' titles by slug.
    public var domainTitles: [String: String]
    /// On a question page, when the student's review card of the question is next due (none
    /// for a guest, or before the question was first answered).
    public var cardDue: Date?

    /// A question page: the session, its counted answers and one question — number `number`,
    /// or when nil the first without an answer.
    public static func questionPageStatements(sessionID: UUID, number: Int?) -> [SQL] {
        [sessionStatement(sessionID), answersStatement(sessionID), ("""
            SELECT pick.n AS number, q.id, d.slug AS domain_slug, q.type, q.stem, q.rich, q.code, q.code_language, q.options, q.correct, q.details,
                   q.explanation, q.difficulty, q.version,
                   (SELECT c.due FROM review_cards c WHERE c.user_id = s.user_id AND c.question_id = q.id) AS card_due
            FROM study_sessions s
            CROSS JOIN LATERAL (
                SELECT t.qid, t.n FROM unnest(s.question_ids) WITH ORDINALITY AS t(qid, n)
                WHERE CASE WHEN \(number)::int IS NULL
                           THEN NOT EXISTS (SELECT 1 FROM answers a WHERE a.session_id = s.id AND a.question_id = t.qid)
                           ELSE t.n = \(number)::int END
                ORDER BY t.n LIMIT 1) AS pick
            JOIN questions q ON q.id = pick.qid JOIN domains d ON d.id = q.domain_id
            WHERE s.id = \(sessionID)
            """ as SQL).prepared()]
    }

    /// A results page: the session, its counted answers, all its questions and its exam's
    /// domain titles.
    public static func resultsStatements(sessionID: UUID) -> [SQL] {
        [sessionStatement(sessionID), answersStatement(sessionID), ("""
            SELECT NULL::int AS number, q.id, d.slug AS domain_slug, q.type, q.stem, q.rich, q.code, q.code_language, q.options, q.correct, q.details,
                   q.explanation, q.difficulty, q.version
            FROM study_sessions s
            CROSS JOIN LATERAL unnest(s.question_ids) WITH ORDINALITY AS item(id, position)
            JOIN questions q ON q.id = item.id JOIN domains d ON d.id = q.domain_id
            WHERE s.id = \(sessionID)
            ORDER BY item.position
            """ as SQL).prepared(), ("""
            SELECT d.slug, d.title FROM study_sessions s JOIN domains d ON d.exam_id = s.exam_id WHERE s.id = \(sessionID)
            """ as SQL).prepared()]
    }

    /// What the statements returned (three for a question page, four for a results page).
    public init(_ results: [QueryResult]) throws {
        guard results.count >= 3 else { throw PostgresError(kind: .decoding, message: "a session's read returned \(results.count) results") }
        session = try results[0].first.map(StudySession.init(row:))
        var answers: [UUID: RecordedAnswer] = [:]
        for row in results[1].rows {
            let answer = try StudyStore.answer(row)
            answers[answer.questionID] = answer
        }
        self.answers = answers
        questions = try results[2].rows.map { try Question(row: $0) }
        questionNumber = try results[2].first?.decode("number", as: Int?.self)
        // (Only a question page's read has the card; a results page's has none.)
        cardDue = results[2].columns.contains("card_due") ? try results[2].first?.decode("card_due", as: Date?.self) : nil
        var titles: [String: String] = [:]
        if results.count > 3 {
            for row in results[3].rows { titles[try row.decode("slug", as: String.self)] = try row.decode("title", as: String.self) }
        }
        domainTitles = titles
    }

    static func sessionStatement(_ id: UUID) -> SQL {
        ("""
            SELECT s.id, s.user_id, s.mode, s.question_ids, s.flagged, s.struck, s.started_at, s.deadline_at, s.finished_at,
                   s.score_correct, s.score_percent, s.passed, s.share_link_id, e.id AS exam_id, r.code, e.slug, e.title, e.language,
                   e.pass_mark, coalesce(share_link_time_limit(s.share_link_id), e.time_limit_s) AS time_limit_s, e.scaled_min, e.scaled_pass, e.scaled_max
            FROM study_sessions s JOIN exams e ON e.id = s.exam_id JOIN regions r ON r.id = e.region_id
            WHERE s.id = \(id)
            """ as SQL).prepared()
    }

    static func answersStatement(_ sessionID: UUID) -> SQL {
        ("""
            SELECT id, session_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at
            FROM counted_answers WHERE session_id = \(sessionID)
            """ as SQL).prepared()
    }
}
