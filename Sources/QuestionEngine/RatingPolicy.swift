/// How an answer becomes an FSRS rating.
///
/// - wrong → Again;
/// - right → Good;
/// - right but much slower (more than `slowFactor` times) than the student's typical time on
///   questions of that difficulty → Hard: they got there, but it was effortful;
/// - right and fast (under `fastFactor` times the typical time) on a question whose card is
///   already in review → Easy: fluent recall of something already learned.
///
/// "Typical" is the median time of the student's recent right answers at that difficulty, and
/// only once there are `minimumSamples` of them; before that every right answer is Good, so a
/// new student's first slow or quick answers do not skew their schedule.
public enum RatingPolicy {
    public static let slowFactor = 2.0
    public static let fastFactor = 0.5
    public static let minimumSamples = 5

    /// - Parameters:
    ///   - typicalMilliseconds: the median time of recent right answers at this difficulty, if known.
    ///   - samples: how many answers that median is taken over.
    ///   - cardState: the card's state before this answer, nil for a question never answered.
    public static func rating(
        correct: Bool, milliseconds: Int, typicalMilliseconds: Double?, samples: Int, cardState: FSRSState?
    ) -> FSRSRating {
        guard correct else { return .again }
        guard let typical = typicalMilliseconds, samples >= minimumSamples, typical > 0 else { return .good }
        let time = Double(milliseconds)
        if time > typical * slowFactor { return .hard }
        if cardState == .review && time < typical * fastFactor { return .easy }
        return .good
    }
}
