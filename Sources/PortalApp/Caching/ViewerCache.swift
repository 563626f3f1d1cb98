import ExamData
import Foundation

/// Signed-in sessions this instance resolved in the last minute, so most requests learn who is
/// asking without the database.
///
/// An entry lives `lifetime` seconds, then the database is asked again (which also keeps the
/// session's `last_seen_at` current — the database touches it at most once a minute anyway —
/// and applies the idle and absolute limits, days long, within that minute). A minute, not a
/// few seconds: a student thinks 3–8 s over each question, so a shorter life resolved nearly
/// every request of theirs again. Signing out,
/// changing a password, changing what a session carries or disabling an account drops the
/// entries at once here and, through `portal_sessions` notices, on every other instance. Only
/// while those notices arrive are entries served at all.
final class ViewerCache: @unchecked Sendable {  // `state` only under `lock`
    private struct Entry {
        var user: SessionUser
        var resolvedAt: Date
    }

    // Read by nearly every request, written rarely: readers do not wait for each other.
    private let lock = ReadWriteLock()
    private var state = NoticedEntries<[UInt8], Entry>()
    let lifetime: TimeInterval
    let capacity: Int

    init(lifetime: TimeInterval = 60, capacity: Int = 20_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Serves entries only while `events` delivers notices, and forgets on each of them.
    func follow(_ events: DatabaseEvents) {
        events.onReset { [self] listening in lock.writing { state.reset(listening: listening) } }
        events.subscribe { [self] notice in
            guard notice.channel == "portal_sessions" else { return }
            let parts = notice.payload.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else {
                forgetAll()
                return
            }
            switch parts[0] {
            case "session": forget(sessionID: id)
            case "user": forget(userID: id)
            default: forgetAll()
            }
        }
    }

    /// The session for this cookie token if it was resolved within `lifetime`.
    func user(token: String, now: Date) -> SessionUser? {
        let key = Self.key(token)
        return lock.reading {
            guard state.enabled, let entry = state.entries[key] else { return nil }
            let age = now.timeIntervalSince(entry.resolvedAt)
            guard age >= 0, age < lifetime else { return nil }
            return entry.user
        }
    }

    /// Where forgetting stands before the database is asked (nil while nothing may be kept).
    func generation() -> UInt64? {
        lock.reading { state.enabled ? state.generation : nil }
    }

    /// Keeps what the database said, unless something was forgotten since `generation`.
    func keep(token: String, user: SessionUser, resolvedAt: Date, generation: UInt64) {
        let key = Self.key(token)
        lock.writing {
            guard state.enabled, state.generation == generation else { return }
            if state.entries.count >= capacity {
                let stale = state.entries.filter { resolvedAt.timeIntervalSince($0.value.resolvedAt) >= lifetime }.map(\.key)
                stale.forEach { state.entries[$0] = nil }
                if state.entries.count >= capacity { state.entries.removeAll() }
            }
            state.entries[key] = Entry(user: user, resolvedAt: resolvedAt)
        }
    }

    /// Drops one session (signed out, expired).
    func forget(sessionID: UUID) {
        lock.writing {
            state.forget { $1.user.sessionID == sessionID }
        }
    }

    /// Drops every session of an account (its name, role, language or password changed).
    func forget(userID: UUID) {
        lock.writing {
            state.forget { $1.user.userID == userID }
        }
    }

    func forgetAll() {
        lock.writing {
            state.forget { _, _ in true }
        }
    }

    /// Entries are found by a hash of the token: the tokens themselves are not kept.
    private static func key(_ token: String) -> [UInt8] { Crypto.sha256(Array(token.utf8)) }
}
