import HTTPServer
import Synchronization

/// At most `limit` requests of one kind at once on the shared workers; one more is answered 503
/// at once. Live events depend on Redis: if it stalls, their requests may wait on it, and this
/// keeps them from taking every worker from the rest of the site.
final class Bulkhead: Sendable {
    private let inFlight = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` if there is room, or throws a 503 with `Retry-After`.
    func run<Value>(_ body: () throws -> Value) throws -> Value {
        guard inFlight.add(1, ordering: .acquiring).newValue <= limit else {
            inFlight.subtract(1, ordering: .releasing)
            throw HTTPError(.serviceUnavailable, "Live events are busy. Please try again in a moment.", headers: ["Retry-After": "2"])
        }
        defer { inFlight.subtract(1, ordering: .releasing) }
        return try body()
    }
}
