import ExamData
import Foundation
import PostgresClient
import QuestionEngine

/// Ends sessions: scores them, stores the score, and (for a student's mock exam) applies the
/// final answers to the review cards now that the student sees them.
struct SessionFinisher: Sendable {
    /// The score of a session's answers so far (or at its end).
    func score(_ session: StudySession, questions: [Question], answers: [UUID: RecordedAnswer], endedAt: Date) -> SessionScore {
        let items = questions.map { question in
            ScoredItem(domain: question.domainSlug, outcome: answers[question.id].map { AnswerOutcome(isCorrect: $0.correct, score: $0.score) })
        }
        return SessionScorer.score(
            items, passMark: session.passMark, startedAt: session.startedAt, endedAt: endedAt,
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
        guard try store.finish(sessionID: session.id, at: endedAt, connection) else { return false }
        if session.mode == .mock && session.userID != nil {
            // Scheduled with the student's own retention and weights, aimed at their exam day.
            let cards = try ReviewCardStore.forStudent(session.userID, connection)
            let examDay = try ExamDateStore().examDay(examID: session.examID, for: session.userID, connection)
            let answers = try store.finalAnswers(sessionID: session.id, connection)
            let rated = answers.values.compactMap { answer in answer.rating.map { (answer, $0) } }
                .sorted { $0.0.questionID.uuidString < $1.0.questionID.uuidString }
            let current = try cards.cards(questionIDs: rated.map(\.0.questionID), connection)
            for (answer, rating) in rated {
                _ = try cards.apply(questionID: answer.questionID, rating: rating, at: endedAt, current: current[answer.questionID], examDay: examDay, connection)
            }
        }
        return true
    }
}
