import Foundation

/// A live event's clock: every question opens for everyone at once, stays open for the same
/// time, and is followed by a pause that shows the answer. Everything follows from the start.
public struct LiveSchedule: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Not started yet.
        case waiting
        /// Question `index` is open for answers until `closes`.
        case open(index: Int, opened: Date, closes: Date)
        /// Question `index` has closed and its answer is shown; the next phase begins at `next`.
        case reveal(index: Int, next: Date)
        /// The last question has closed and its answer has been shown.
        case ended
    }

    public var startsAt: Date
    public var questionCount: Int
    public var secondsPerQuestion: Int
    public var pauseSeconds: Int

    public init(startsAt: Date, questionCount: Int, secondsPerQuestion: Int, pauseSeconds: Int) {
        self.startsAt = startsAt
        self.questionCount = questionCount
        self.secondsPerQuestion = secondsPerQuestion
        self.pauseSeconds = pauseSeconds
    }

    /// When question `index` opens.
    public func opens(_ index: Int) -> Date {
        startsAt.addingTimeInterval(TimeInterval(index * (secondsPerQuestion + pauseSeconds)))
    }

    /// When question `index` closes.
    public func closes(_ index: Int) -> Date { opens(index).addingTimeInterval(TimeInterval(secondsPerQuestion)) }

    /// When the event is over: the last question's answer has been shown for a pause too.
    public var endsAt: Date { opens(questionCount) }

    public func phase(at now: Date) -> Phase {
        guard questionCount > 0, now >= startsAt else { return .waiting }
        guard now < endsAt else { return .ended }
        let period = TimeInterval(secondsPerQuestion + pauseSeconds)
        let index = min(questionCount - 1, Int(now.timeIntervalSince(startsAt) / period))
        if now < closes(index) { return .open(index: index, opened: opens(index), closes: closes(index)) }
        return .reveal(index: index, next: opens(index + 1))
    }

    /// The next moment the phase changes after `now`, or nil once the event has ended.
    public func nextChange(after now: Date) -> Date? {
        switch phase(at: now) {
        case .waiting: startsAt
        case .open(_, _, let closes): closes
        case .reveal(_, let next): next
        case .ended: nil
        }
    }
}

/// Live-event scoring, done only on the server: speed and correctness, plus a capped bonus for
/// a run of right answers.
public enum LiveScoring {
    public static let maximumPoints = 1000
    /// Each right answer in a row after the first adds this much, up to `maximumStreakBonus`.
    public static let streakStep = 50
    public static let maximumStreakBonus = 250

    /// `round(1000 × (1 − (t/T)/2))` for a right answer `elapsed` into a question open for
    /// `limit`: 1000 at once, 500 at the bell; 0 for a wrong one.
    /// In whole numbers, halves rounded up, so that the database (which computes the same
    /// points for the answers it stores) agrees to the point.
    public static func points(correct: Bool, elapsedMilliseconds: Int, limitSeconds: Int) -> Int {
        guard correct, limitSeconds > 0 else { return 0 }
        let limit = limitSeconds * 1000
        let elapsed = min(limit, max(0, elapsedMilliseconds))
        // 1000 × (1 − (t/L)/2) = (1000L − 500t) / L, plus a half, floored.
        return (2 * maximumPoints * limit - maximumPoints * elapsed + limit) / (2 * limit)
    }

    /// The bonus for the `streak`-th right answer in a row (the first earns none).
    public static func streakBonus(_ streak: Int) -> Int {
        min(max(0, streak - 1) * streakStep, maximumStreakBonus)
    }

    /// One participant's total from their answers: the same sum the live scoreboard keeps.
    /// A streak runs over consecutive questions answered right; a wrong or missing answer ends it.
    public static func total(_ answers: [(index: Int, correct: Bool, elapsedMilliseconds: Int)], limitSeconds: Int) -> Int {
        var total = 0, streak = 0, previous = Int.min
        for answer in answers.sorted(by: { $0.index < $1.index }) {
            if answer.correct {
                streak = previous == answer.index - 1 && streak > 0 ? streak + 1 : 1
                total += points(correct: true, elapsedMilliseconds: answer.elapsedMilliseconds, limitSeconds: limitSeconds) + streakBonus(streak)
            } else {
                streak = 0
            }
            previous = answer.index
        }
        return total
    }
}
