/// How long a mock exam is: the whole exam, half of it, or a short one of 20 or 10 questions —
/// always in the exam's blueprint's proportions, its time scaled to match (the database
/// scales the deadline by the questions the session holds).
enum MockLength: Sendable, Equatable {
    case full
    case half
    case questions(Int)

    /// The shorter lengths offered, besides the whole exam and half of it.
    static let shortCounts = [20, 10]

    /// From the form's `mock_length` (`full`, `half`, `20`, `10`; nothing means the whole exam);
    /// nil for anything else.
    init?(_ text: String?) {
        switch text ?? "" {
        case "", "full": self = .full
        case "half": self = .half
        default:
            guard let count = Int(text ?? ""), Self.shortCounts.contains(count) else { return nil }
            self = .questions(count)
        }
    }

    /// The questions it holds in an exam of `total`: never more than the exam, never fewer than five.
    func questions(of total: Int) -> Int {
        switch self {
        case .full: total
        case .half: max(min(total, 5), total / 2)
        case .questions(let count): max(min(total, 5), min(count, total))
        }
    }

    /// The time a mock of `questions` of a `total`-question exam is given out of the exam's
    /// `seconds`, rounded up to the second — as the database sets its deadline.
    static func seconds(of seconds: Int, questions: Int, outOf total: Int) -> Int {
        guard total > 0, questions < total else { return seconds }
        return (seconds * questions + total - 1) / total
    }
}
