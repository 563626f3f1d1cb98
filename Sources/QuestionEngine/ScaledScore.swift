import Foundation

/// An exam's scaled score, as vendors report one (100 to 1000, 700 to pass): the raw percentage
/// mapped in two straight pieces — 0% to `min`, the exam's pass mark to `pass`, 100% to `max` —
/// so a candidate just at the pass mark scores exactly `pass`. Format 1's `scaledScore`, the
/// admin's exam form and the mock results read it; the database's CHECK holds the same bounds.
public struct ScaledScore: Codable, Sendable, Equatable {
    public var min: Int
    public var pass: Int
    public var max: Int

    /// The largest scale the portal takes (and the database's CHECK).
    public static let largest = 100_000

    public init(min: Int, pass: Int, max: Int) {
        (self.min, self.pass, self.max) = (min, pass, max)
    }

    /// What is wrong with the scale, in an editor's words; nil when it is one.
    public var problem: String? {
        guard min >= 0, max <= Self.largest else { return "the scale runs from 0 to at most \(Self.largest)" }
        guard min < pass, pass < max else { return "the pass score must lie above the lowest score and below the highest" }
        return nil
    }

    /// The scaled score of `percent` (0 to 100) right in an exam passed at `passMark` percent,
    /// rounded to the nearest whole point; a score at or above the pass mark is at least `pass`.
    public func scaled(percent: Double, passMark: Int) -> Int {
        let raw = Swift.min(100, Swift.max(0, percent))
        let mark = Double(Swift.min(100, Swift.max(0, passMark)))
        let value: Double
        if raw < mark {
            value = Double(min) + Double(pass - min) * raw / mark
            // Below the pass mark stays below the pass score, however it rounds.
            return Swift.min(pass - 1, Int(value.rounded()))
        } else if mark >= 100 {
            value = Double(max)
        } else {
            value = Double(pass) + Double(max - pass) * (raw - mark) / (100 - mark)
        }
        return Int(value.rounded())
    }
}
