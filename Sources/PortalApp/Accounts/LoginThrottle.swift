import Foundation
import Synchronization

/// Counts failed logins per key (an account, a client address) in a sliding window; past the
/// limit the key must wait. Kept in memory: each instance throttles what it sees.
final class LoginThrottle: Sendable {
    private let failures = Mutex<[String: [Date]]>([:])
    let limit: Int
    let window: TimeInterval

    init(limit: Int = 5, window: TimeInterval = 15 * 60) {
        self.limit = limit
        self.window = window
    }

    /// Seconds to wait before `keys` may try again, or nil when they may try now.
    func retryAfter(_ keys: [String], now: Date) -> Int? {
        failures.withLock { failures in
            var wait: TimeInterval = 0
            for key in keys {
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
                failures[key] = recent.isEmpty ? nil : recent
                if recent.count >= limit, let oldest = recent.first {
                    wait = max(wait, window - now.timeIntervalSince(oldest))
                }
            }
            return wait > 0 ? Int(wait.rounded(.up)) : nil
        }
    }

    func recordFailure(_ keys: [String], now: Date) {
        failures.withLock { failures in
            if failures.count > 100_000 { failures.removeAll() }  // bounded under a flood of names
            for key in keys { failures[key, default: []].append(now) }
        }
    }

    func clear(_ key: String) {
        _ = failures.withLock { $0.removeValue(forKey: key) }
    }
}
