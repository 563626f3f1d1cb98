import Foundation

/// A number with its partial derivatives by each of a fixed set of inputs (forward-mode
/// automatic differentiation): the FSRS optimizer's formulas carry their own gradients.
struct Dual {
    var value: Double
    /// ∂value/∂input for each input; empty for a constant (all zero).
    var partials: [Double]

    /// A constant.
    init(_ value: Double) {
        self.value = value
        partials = []
    }

    /// Input number `seed` of `count` (derivative 1 by itself).
    init(_ value: Double, seed: Int, count: Int = 21) {
        self.value = value
        partials = Array(repeating: 0, count: count)
        partials[seed] = 1
    }

    private init(_ value: Double, partials: [Double]) {
        self.value = value
        self.partials = partials
    }

    /// `a·∂x + b·∂y`, for partials of possibly different lengths (an empty one is all zero).
    private static func combine(_ a: Double, _ x: [Double], _ b: Double, _ y: [Double]) -> [Double] {
        if x.isEmpty { return y.isEmpty || b == 0 ? [] : y.map { b * $0 } }
        if y.isEmpty { return a == 0 ? [] : x.map { a * $0 } }
        var result = x
        for index in result.indices { result[index] = a * x[index] + b * y[index] }
        return result
    }

    static func + (x: Dual, y: Dual) -> Dual { Dual(x.value + y.value, partials: combine(1, x.partials, 1, y.partials)) }
    static func - (x: Dual, y: Dual) -> Dual { Dual(x.value - y.value, partials: combine(1, x.partials, -1, y.partials)) }
    static func * (x: Dual, y: Dual) -> Dual { Dual(x.value * y.value, partials: combine(y.value, x.partials, x.value, y.partials)) }
    static func / (x: Dual, y: Dual) -> Dual {
        Dual(x.value / y.value, partials: combine(1 / y.value, x.partials, -x.value / (y.value * y.value), y.partials))
    }
    static func + (x: Dual, c: Double) -> Dual { Dual(x.value + c, partials: x.partials) }
    static func * (x: Dual, c: Double) -> Dual { Dual(x.value * c, partials: combine(c, x.partials, 0, [])) }
    static func / (x: Dual, c: Double) -> Dual { x * (1 / c) }

    func exp() -> Dual {
        let e = Foundation.exp(value)
        return Dual(e, partials: Dual.combine(e, partials, 0, []))
    }

    func log() -> Dual { Dual(Foundation.log(value), partials: Dual.combine(1 / value, partials, 0, [])) }

    /// `self` to the power `y` (self > 0).
    func pow(_ y: Dual) -> Dual {
        let result = Foundation.pow(value, y.value)
        // d(x^y) = y·x^(y-1)·dx + x^y·ln x·dy
        return Dual(result, partials: Dual.combine(y.value * Foundation.pow(value, y.value - 1), partials, result * Foundation.log(value), y.partials))
    }

    /// Held within [low, high]; flat (no derivative) where it is held.
    func clamped(_ low: Double, _ high: Double) -> Dual {
        value < low ? Dual(low) : value > high ? Dual(high) : self
    }
}
