import Foundation

/// A share written as each language writes a percentage (CLDR's pattern: "90%" in English,
/// "90 %" in German and Spanish, with a no-break space).
enum Percentages {
    /// `fraction` (0.9) as a whole percentage in `locale`.
    static func format(_ fraction: Double, locale: String) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: locale == "zh" ? "zh-Hans" : locale)
        formatter.numberStyle = .percent
        formatter.maximumFractionDigits = 0
        return formatter.string(from: NSNumber(value: fraction)) ?? "\(Int((fraction * 100).rounded()))%"
    }
}
