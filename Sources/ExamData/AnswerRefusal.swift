import PostgresClient

/// Why the database refused to store an answer, as it says it (`answers_admit` names each
/// reason in its error's detail): the student's race with another tab or with the clock, or a
/// response that is not an answer to the question — never the portal's failure. Callers map
/// each reason to what the student sees; none judges the answer first.
public enum AnswerRefusal: Error, Sendable, Equatable {
    /// Why an answer was not admitted to its session.
    public enum Reason: String, Sendable {
        /// The session has ended.
        case finished
        /// The mock exam's time is over (the session is not yet marked finished).
        case overdue
        /// The question is not one of the session's.
        case notInSession = "not_in_session"
        /// Outside mock exams, a question takes one answer, and it has it.
        case answered
        /// The question was retired or unpublished.
        case questionGone = "question_gone"
        /// The answer names a version of the question that never was published.
        case versionUnknown = "version_unknown"
        /// An offline answer to an earlier version chose an option that is gone since.
        case optionGone = "option_gone"
        /// An offline matching answer to an earlier version: the prompts are not as they were.
        case itemsChanged = "items_changed"
        /// A live event's question is not open (not yet, or its bell has rung).
        case closed
        /// Any other refusal (a reason this build does not know).
        case other
    }

    /// The answer was not admitted, for this reason.
    case notAdmitted(Reason)
    /// The answer's id holds another answer.
    case idTaken
    /// The session is not the caller's (or does not exist): nobody learns which.
    case noSuchSession
    /// The response is not an answer to the question (`answer_outcome`'s reason: empty,
    /// outOfRange, duplicate, wrongCount, wrongShape, tooLong).
    case notAnAnswer(String)

    /// The refusal a database error stands for; nil for every other failure.
    public init?(_ error: any Error) {
        guard let error = error as? PostgresError else { return nil }
        if error.isCheckViolation {
            self = .notAdmitted(error.detail.flatMap(Reason.init(rawValue:)) ?? .other)
        } else if error.isUniqueViolation {
            self = .idTaken
        } else if error.isInsufficientPrivilege, error.message.contains("no such study session") {
            self = .noSuchSession
        } else if error.sqlState == "22023", let open = error.message.lastIndex(of: "("), error.message.hasSuffix(")") {
            self = .notAnAnswer(String(error.message[error.message.index(after: open)..<error.message.index(before: error.message.endIndex)]))
        } else {
            return nil
        }
    }
}
