import Foundation
import PostgresClient
import QuestionEngine

/// The kinds of study session.
public enum StudyMode: String, Sendable, CaseIterable, Codable {
    /// Chosen domains and difficulties; right or wrong shown after each answer.
    case practice
    /// The exam's blueprint and time limit; nothing shown until the end.
    case mock
    /// The questions the scheduler says are due, then new ones.
    case review
    /// The domains with the lowest recall first.
    case weakSpots = "weak-spots"

    /// Whether answers are shown right or wrong as they are given.
    public var showsFeedback: Bool { self != .mock }
    /// Whether the mode needs an account (it reads the student's review cards).
    public var needsAccount: Bool { self == .review || self == .weakSpots }
}

/// A new session, ready to store. Without a user it belongs to the guest cookie of the
/// transaction; a mock exam's deadline is the database's to set (its time limit from now).
public struct NewStudySession: Sendable {
    public var userID: UUID?
    public var examID: Int
    public var mode: StudyMode
    public var config: [String: String]
    public var questionIDs: [UUID]
    public var startedAt: Date
    /// The share link the session was started from (an assignment's attempts are found by it).
    public var shareLinkID: UUID?

    public init(userID: UUID?, examID: Int, mode: StudyMode, config: [String: String], questionIDs: [UUID], startedAt: Date) {
        self.userID = userID
        self.examID = examID
        self.mode = mode
        self.config = config
        self.questionIDs = questionIDs
        self.startedAt = startedAt
    }
}

/// A stored session with what its pages need of its exam.
public struct StudySession: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID?
    public var mode: StudyMode
    public var questionIDs: [UUID]
    public var flagged: Set<UUID>
    /// The options struck out of each question (a mock exam's), by index.
    public var struck: [UUID: Set<Int>] = [:]
    public var startedAt: Date
    public var deadline: Date?
    public var finishedAt: Date?
    public var scoreCorrect: Int?
    public var scorePercent: Double?
    public var passed: Bool?
    public var examID: Int
    public var regionCode: String
    public var examSlug: String
    public var examTitle: String
    public var examLanguage: String
    public var passMark: Int
    public var timeLimitSeconds: Int
    /// The exam's scaled score, if it reports one.
    public var scaledScore: ScaledScore? = nil
    /// The share link it was started from (an assignment's attempt), if any.
    public var shareLinkID: UUID?

    public var isFinished: Bool { finishedAt != nil }

    /// Whether a mock exam's time is up at `now`.
    public func isOverdue(at now: Date) -> Bool {
        guard let deadline, finishedAt == nil else { return false }
        return now >= deadline
    }
}

extension StudySession {
    /// Reads the columns `StudyStore.session(id:)` selects.
    init(row: PostgresRow) throws {
        self.init(
            id: try row.decode("id", as: UUID.self), userID: try row.decode("user_id", as: UUID?.self),
            mode: StudyMode(rawValue: try row.decode("mode", as: String.self)) ?? .practice,
            questionIDs: try row.decode("question_ids", as: [UUID].self), flagged: Set(try row.decode("flagged", as: [UUID].self)),
            startedAt: try row.decode("started_at", as: Date.self), deadline: try row.decode("deadline_at", as: Date?.self),
            finishedAt: try row.decode("finished_at", as: Date?.self), scoreCorrect: try row.decode("score_correct", as: Int?.self),
            scorePercent: try row.decode("score_percent", as: Double?.self), passed: try row.decode("passed", as: Bool?.self),
            examID: try row.decode("exam_id", as: Int.self), regionCode: try row.decode("code", as: String.self),
            examSlug: try row.decode("slug", as: String.self), examTitle: try row.decode("title", as: String.self),
            examLanguage: try row.decode("language", as: String.self), passMark: try row.decode("pass_mark", as: Int.self),
            timeLimitSeconds: try row.decode("time_limit_s", as: Int.self), shareLinkID: try row.decode("share_link_id", as: UUID?.self))
        scaledScore = try ScaledScore.read(row)
        for (question, options) in try row.decodeJSON("struck", as: [String: [Int]].self) {
            if let id = UUID(uuidString: question) { struck[id] = Set(options) }
        }
    }
}

/// What reading an answer form with its question needs, read in one statement: whether the
/// answer is admitted is the database's to say as it stores it.
public struct AnswerContext: Sendable {
    public var session: StudySession
    /// The question, when it is part of the session and still visible.
    public var question: Question?
}

/// One answer as stored.
public struct RecordedAnswer: Sendable, Equatable {
    public var id: UUID
    public var sessionID: UUID
    public var questionID: UUID
    public var questionVersion: Int
    public var response: AnswerResponse
    public var correct: Bool
    public var score: Double
    public var rating: FSRSRating?
    public var milliseconds: Int
    public var answeredAt: Date

    public init(
        id: UUID, sessionID: UUID, questionID: UUID, questionVersion: Int, response: AnswerResponse, correct: Bool, score: Double,
        rating: FSRSRating?, milliseconds: Int, answeredAt: Date
    ) {
        self.id = id
        self.sessionID = sessionID
        self.questionID = questionID
        self.questionVersion = questionVersion
        self.response = response
        self.correct = correct
        self.score = score
        self.rating = rating
        self.milliseconds = milliseconds
        self.answeredAt = answeredAt
    }

    /// Whether `other` says the same thing (a faithful retry of this upload).
    public func isReplay(of other: RecordedAnswer) -> Bool {
        id == other.id && sessionID == other.sessionID && questionID == other.questionID && response == other.response
    }
}

/// What storing an answer did.
public enum AnswerInsertResult: Sendable, Equatable {
    /// Stored now.
    case inserted
    /// This id was stored before with the same content: nothing to do.
    case replayed
    /// This id was stored before with different content (or is not the caller's).
    case conflict
}

/// A review card as stored, with its counters.
public struct StoredCard: Sendable, Equatable {
    public var questionID: UUID
    public var card: FSRSCard
    public var firstReview: Date
    public var reviews: Int
    public var lapses: Int

    public init(questionID: UUID, card: FSRSCard, firstReview: Date, reviews: Int, lapses: Int) {
        self.questionID = questionID
        self.card = card
        self.firstReview = firstReview
        self.reviews = reviews
        self.lapses = lapses
    }

    /// The card after a rated answer at `date`: a lapse is an Again on a card in review.
    public func reviewed(_ rating: FSRSRating, at date: Date, scheduler: FSRSScheduler) -> StoredCard {
        var next = self
        next.card = scheduler.review(card, rating: rating, at: date)
        next.reviews += 1
        if rating == .again && card.state == .review { next.lapses += 1 }
        return next
    }

    /// A card's first review.
    public static func first(questionID: UUID, rating: FSRSRating, at date: Date, scheduler: FSRSScheduler) -> StoredCard {
        StoredCard(questionID: questionID, card: scheduler.review(FSRSCard(due: date), rating: rating, at: date), firstReview: date, reviews: 1, lapses: 0)
    }
}

/// A question report's reasons.
public enum ReportReason: String, Sendable, CaseIterable {
    case wrongAnswer = "wrong-answer"
    case unclear
    case typo
    case outdated
    case other
}
