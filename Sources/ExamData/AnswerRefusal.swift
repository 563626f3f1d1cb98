import PostgresClient

/// Why the database refused to store an answer — the student's race with another tab or with
/// the clock, never the portal's failure: pages answer it with 409 and say what happened.
public enum AnswerRefusal: Error, Sendable, Equatable {
    /// The session is finished or past its deadline, is not the caller's, or (outside mock
    /// exams) the question has its answer already (`answers_admit`, a live question closed).
    case notAdmitted
    /// The answer's id holds another answer.
    case idTaken

    /// The refusal a database error stands for; nil for every other failure.
    public init?(_ error: any Error) {
        guard let error = error as? PostgresError else { return nil }
        if error.isCheckViolation {
            self = .notAdmitted
        } else if error.isUniqueViolation {
            self = .idTaken
        } else {
            return nil
        }
    }
}
