/// An area of a hotspot question's image, in the image's own coordinates: a rectangle
/// (`x1, y1, x2, y2`), a circle (`cx, cy, r`) or a polygon (`x1, y1, x2, y2, …`, at least three
/// corners). The same arithmetic runs in the database (`hotspot_contains`) and the browser.
public struct HotspotRegion: Sendable, Codable, Equatable {
    public enum Shape: String, Sendable, Codable, CaseIterable {
        case rect
        case circle
        case polygon
    }

    public var shape: Shape
    public var coords: [Double]

    public init(shape: Shape, coords: [Double]) {
        self.shape = shape
        self.coords = coords
    }

    /// Whether the coordinates make the shape: a rectangle with its first corner above and left
    /// of its second, a circle with a positive radius, a polygon of 3 to 50 corners; every
    /// number from 0 to 100,000.
    public var isWellFormed: Bool {
        guard coords.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 100_000 }) else { return false }
        switch shape {
        case .rect: return coords.count == 4 && coords[0] < coords[2] && coords[1] < coords[3]
        case .circle: return coords.count == 3 && coords[2] > 0
        case .polygon: return coords.count % 2 == 0 && (6...100).contains(coords.count)
        }
    }

    /// Whether the point lies in the region (edges of rectangles and circles included; a
    /// polygon by the even-odd rule).
    public func contains(x: Double, y: Double) -> Bool {
        guard isWellFormed else { return false }
        switch shape {
        case .rect:
            return x >= coords[0] && x <= coords[2] && y >= coords[1] && y <= coords[3]
        case .circle:
            let dx = x - coords[0], dy = y - coords[1]
            return dx * dx + dy * dy <= coords[2] * coords[2]
        case .polygon:
            var inside = false
            let count = coords.count / 2
            var j = count - 1
            for i in 0..<count {
                let (xi, yi, xj, yj) = (coords[2 * i], coords[2 * i + 1], coords[2 * j], coords[2 * j + 1])
                if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
                j = i
            }
            return inside
        }
    }
}
