import Foundation

/// One question of a finished session, as scoring sees it.
public struct ScoredItem: Sendable, Equatable {
    public var domain: String
    /// Nil when the question was left unanswered.
    public var outcome: AnswerOutcome?

    public init(domain: String, outcome: AnswerOutcome?) {
        self.domain = domain
        self.outcome = outcome
    }
}

/// A session's result: what the results page and the stored score show.
public struct SessionScore: Sendable, Equatable {
    /// One domain's share of the result.
    public struct Domain: Sendable, Equatable {
        public var domain: String
        public var correct: Int
        public var total: Int
        public var percent: Double { total == 0 ? 0 : Double(correct) * 100 / Double(total) }
    }

    /// Questions answered exactly right (the raw score). The portal's one rule: a partly right
    /// answer (`AnswerOutcome.score` between 0 and 1, shown as feedback) scores nothing here,
    /// in the stored score, on the dashboard, on leaderboards and in class exports.
    public var correct: Int
    public var answered: Int
    public var total: Int
    /// The raw score as a percentage of every question in the session, unanswered ones included.
    public var percent: Double
    public var passed: Bool
    public var domains: [Domain]
    /// From the start to the end, never more than the time limit.
    public var timeUsed: TimeInterval
}

/// A session's results page: the score the database stored when it ended the session
/// (`finish_study_session` is the one rule: right answers over all questions, a partly right one
/// scoring nothing, passed at the pass mark), with the tallies beside it — questions answered,
/// each domain's right answers, the time used.
public enum SessionScorer {
    /// What `finish_study_session` stored.
    public struct Stored: Sendable, Equatable {
        public var correct: Int
        public var percent: Double
        public var passed: Bool

        public init(correct: Int, percent: Double, passed: Bool) {
            self.correct = correct
            self.percent = percent
            self.passed = passed
        }
    }

    /// `items` are the session's questions with the answers that count (as stored, judged by
    /// the database). Domains come out in their first-seen order.
    public static func score(
        _ items: [ScoredItem], stored: Stored, startedAt: Date, endedAt: Date, timeLimit: TimeInterval? = nil
    ) -> SessionScore {
        var domains: [SessionScore.Domain] = []
        var position: [String: Int] = [:]
        var answered = 0
        for item in items {
            let index = position[item.domain] ?? {
                domains.append(SessionScore.Domain(domain: item.domain, correct: 0, total: 0))
                position[item.domain] = domains.count - 1
                return domains.count - 1
            }()
            domains[index].total += 1
            guard let outcome = item.outcome else { continue }
            answered += 1
            if outcome.isCorrect { domains[index].correct += 1 }
        }
        var used = max(0, endedAt.timeIntervalSince(startedAt))
        if let timeLimit { used = min(used, timeLimit) }
        return SessionScore(
            correct: stored.correct, answered: answered, total: items.count, percent: stored.percent, passed: stored.passed, domains: domains,
            timeUsed: used)
    }
}
