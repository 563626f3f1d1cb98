import ExamData
import Foundation
import PostgresClient
import QuestionEngine

/// Ends sessions: the database scores them, stores the score and (for a student's mock exam)
/// reviews the cards of its final answers now that the student sees them.
struct SessionFinisher: Sendable {
    /// A finished session's results: the score the database stored when it ended, with the
    /// tallies of its answers beside it.
    func score(_ session: StudySession, questions: [Question], answers: [UUID: RecordedAnswer], endedAt: Date) -> SessionScore {
        let items = questions.map { question in
            ScoredItem(domain: question.domainSlug, outcome: answers[question.id].map { AnswerOutcome(isCorrect: $0.correct, score: $0.score) })
        }
        let stored = SessionScorer.Stored(correct: session.scoreCorrect ?? 0, percent: session.scorePercent ?? 0, passed: session.passed ?? false)
        return SessionScorer.score(
            items, stored: stored, startedAt: session.startedAt, endedAt: endedAt,
            // A mock exam's own time: its deadline, which carries any extra time the student has.
            timeLimit: session.mode == .mock ? session.deadline.map { $0.timeIntervalSince(session.startedAt) } : nil)
    }

    /// Ends the session at `date` (a mock exam's deadline when its time ran out): the database
    /// clamps the time and stores the score it computes from the answers that count. False when
    /// it had already ended.
    @discardableResult
    func finish(_ session: StudySession, at date: Date, _ connection: PostgresConnection) throws -> Bool {
        let store = StudyStore()
        let endedAt = session.deadline.map { min($0, date) } ?? date
        return try store.finish(sessionID: session.id, at: endedAt, connection)
    }
}
