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
