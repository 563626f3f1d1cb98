import Foundation

/// A class as its teacher (or a member) sees it.
public struct ClassSummary: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var schoolName: String?
    public var joinCode: String
    public var members: Int
}

/// A current member of a class.
public struct ClassMember: Sendable, Equatable {
    public var userID: UUID
    public var displayName: String
    /// What they sign in with: tells two pupils of one name apart, and a card from its account.
    public var username: String
    public var joinedAt: Date
    /// More time for mock exams and assignments, if the student has it.
    public var accommodation: Accommodation?
}

/// More time for a student's mock exams and assignments: the exam's time limit times
/// `multiplier`, plus `extraMinutes`.
public struct Accommodation: Sendable, Equatable {
    /// The multipliers a teacher may choose (1: none).
    public static let multipliers: [Double] = [1, 1.25, 1.5, 2]
    /// The most extra minutes a teacher may give.
    public static let maximumExtraMinutes = 240
    /// The most extra attempts at an assignment a teacher may give.
    public static let maximumExtraAttempts = 5

    /// The exam's time limit is multiplied by this (one of `multipliers`).
    public var multiplier: Double
    /// Minutes added after the multiplier (0 to `maximumExtraMinutes`).
    public var extraMinutes: Int
    /// Attempts added to an assignment's limit (0 to `maximumExtraAttempts`).
    public var extraAttempts: Int
    /// Questions are read aloud to the student (a button on each).
    public var readsAloud: Bool

    /// Extra time as given: `multiplier` × the limit, plus `extraMinutes`; `extraAttempts`; and read-aloud.
    public init(multiplier: Double, extraMinutes: Int, extraAttempts: Int = 0, readsAloud: Bool = false) {
        self.multiplier = multiplier
        self.extraMinutes = extraMinutes
        self.extraAttempts = extraAttempts
        self.readsAloud = readsAloud
    }

    /// No accommodation at all.
    public var isNone: Bool { multiplier == 1 && extraMinutes == 0 && extraAttempts == 0 && !readsAloud }

    /// The seconds a mock exam of `seconds` allows with this accommodation (as the database
    /// sets the deadline).
    public func seconds(for seconds: Int) -> Int { Int((Double(seconds) * multiplier).rounded()) + 60 * extraMinutes }
}

/// A share link as its creator lists it (the token itself is never stored).
public struct ShareLinkSummary: Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var examTitle: String
    public var mode: String
    public var questionCount: Int
    public var dueAt: Date?
    public var expiresAt: Date?
    public var revokedAt: Date?
    public var joinsClass: Bool
    /// How many times each student may start it (nil: no limit).
    public var attempts: Int?
    /// A mock assignment's own time limit (nil: the exam's).
    public var timeLimitMinutes: Int? = nil
}

/// What a share link offers, as anyone holding it sees it.
public struct SharedExam: Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var examID: Int
    public var regionCode: String
    public var examSlug: String
    public var examTitle: String
    public var examLanguage: String
    public var classID: UUID?
    public var className: String?
    public var sharedBy: String
    public var mode: StudyMode
    public var domains: [String]
    public var difficulty: ClosedRange<Int>
    public var questionCount: Int
    public var joinsClass: Bool
    public var dueAt: Date?
    public var expiresAt: Date?
    /// The quiz it assigns: its questions, in its order, instead of a preset.
    public var quizID: UUID?
    /// A mock assignment's own time limit (nil: the exam's).
    public var timeLimitMinutes: Int?
}

/// A new share link.
public struct NewShareLink: Sendable {
    public var tokenHash: [UInt8]
    public var examID: Int
    public var classID: UUID?
    public var title: String
    public var mode: StudyMode
    public var domains: [String]
    public var difficulty: ClosedRange<Int>
    public var questionCount: Int
    public var joinsClass: Bool
    public var dueAt: Date?
    public var expiresAt: Date?
    /// How many times each student may start it (nil: no limit).
    public var attempts: Int?
    /// The quiz it assigns, if any.
    public var quizID: UUID?
    /// A mock assignment's own time limit (nil: the exam's).
    public var timeLimitMinutes: Int?

    public init(
        tokenHash: [UInt8], examID: Int, classID: UUID?, title: String, mode: StudyMode, domains: [String], difficulty: ClosedRange<Int>,
        questionCount: Int, joinsClass: Bool, dueAt: Date?, expiresAt: Date?, attempts: Int? = nil, quizID: UUID? = nil,
        timeLimitMinutes: Int? = nil
    ) {
        self.timeLimitMinutes = timeLimitMinutes
        self.attempts = attempts
        self.quizID = quizID
        self.tokenHash = tokenHash
        self.examID = examID
        self.classID = classID
        self.title = title
        self.mode = mode
        self.domains = domains
        self.difficulty = difficulty
        self.questionCount = questionCount
        self.joinsClass = joinsClass
        self.dueAt = dueAt
        self.expiresAt = expiresAt
    }
}

/// One member's attempt at an assignment: their first finished session from its link.
public struct AssignmentAttempt: Sendable, Equatable {
    public var userID: UUID
    public var displayName: String
    public var finishedAt: Date?
    public var scorePercent: Double?
    public var passed: Bool?
    public var secondsUsed: Int?
    /// Sessions the member started from the link (attempts used).
    public var started: Int
}

/// A question of an assignment and how often it was answered wrong.
public struct MissedQuestion: Sendable, Equatable {
    public var questionID: UUID
    public var stem: String
    public var wrong: Int
    public var answered: Int
}

/// One student's accuracy in one domain.
public struct StudentDomainProgress: Sendable, Equatable {
    public var displayName: String
    public var examTitle: String
    /// The exam's language, which its title and domains are written in.
    public var language: String
    public var domainTitle: String
    public var answered: Int
    public var correct: Int
}

/// A member as the class page's roster lists them: who, when they last answered anything,
/// how many of the teacher's assignments for the class they finished, and their accuracy over
/// everything they answered.
public struct ClassRosterEntry: Sendable, Equatable {
    public var member: ClassMember
    public var lastActive: Date?
    public var assignmentsDone: Int
    public var answered: Int
    public var correct: Int
}

/// A line of a class leaderboard.
public struct ClassStanding: Sendable, Equatable {
    public var displayName: String
    public var points: Int
    public var sessions: Int
}

/// An assignment as its pupil sees it: what, for which class, when due, the attempts they may
/// make and have started, and their best finished attempt.
public struct PupilAssignment: Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var classID: UUID
    public var className: String
    public var examTitle: String
    public var examLanguage: String
    public var mode: StudyMode
    public var questionCount: Int
    public var dueAt: Date?
    /// Attempts they may make (nil: no limit) and have started.
    public var allowed: Int?
    public var used: Int
    public var finishedAt: Date?
    public var scorePercent: Double?
}
