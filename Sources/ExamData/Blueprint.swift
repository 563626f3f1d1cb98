import Foundation

/// An exam's blueprint: the share of its questions each domain gets, in whole percent. The one
/// rule for it, held by the format-1 import and the admin's exam page alike: every weight from 1
/// to 100, and together 100.
public enum Blueprint {
    /// What is wrong with `weights`, in the words of an import's report; nil when they make a
    /// blueprint (no domain at all is an exam still being made).
    public static func problem(_ weights: [Int]) -> String? {
        guard !weights.isEmpty else { return nil }
        let total = weights.reduce(0, +)
        return total == 100 ? nil : "the domains' weights must add up to 100 (they add up to \(total))"
    }

    /// Whether `weights` make a blueprint.
    public static func isWhole(_ weights: [Int]) -> Bool { weights.isEmpty || weights.reduce(0, +) == 100 }
}
