import Foundation

/// The versions shared pages are kept by — the catalogue's, each exam's content, the
/// leaderboard's last refresh — remembered between requests, so a page whose rendered copy is
/// current needs no database at all.
///
/// A remembered version is served only while the database's notices arrive (`follow`): a
/// notice on `portal_content` or `portal_leaderboard` forgets them at once on every instance.
/// As a bound on what a lost notice could cost, nothing is remembered longer than `recheck`.
final class SharedVersions: @unchecked Sendable {  // `state` only under `lock`
    private struct Entry {
        var version: Date
        var readAt: Date
    }

    private let lock = ReadWriteLock()
    private var state = NoticedEntries<String, Entry>()
    private let recheck: TimeInterval
    private let clock: @Sendable () -> Date
    private static let capacity = 10_000

    init(recheck: TimeInterval = 10, clock: @escaping @Sendable () -> Date) {
        self.recheck = recheck
        self.clock = clock
    }

    /// Forgets on every notice of the catalogue or the leaderboard, and whenever listening
    /// starts or stops.
    func follow(_ events: DatabaseEvents) {
        events.onReset { [self] listening in lock.writing { state.reset(listening: listening) } }
        events.subscribe { [self] notice in
            let prefix: String
            switch notice.channel {
            case "portal_content": prefix = "content:"
            case "portal_leaderboard": prefix = "leaderboard:"
            default: return
            }
            lock.writing {
                state.forget { key, _ in key.hasPrefix(prefix) }
            }
        }
    }

    /// The key of the content version named `name` (`catalogue`, `exam|region|slug`).
    static func contentKey(_ name: String) -> String { "content:" + name }

    /// The key of the leaderboard's last refresh.
    static let leaderboardKey = "leaderboard:refresh"

    /// The content version under `name` (`catalogue`, `exam|region|slug`).
    func content(_ name: String, read: () throws -> Date?) throws -> Date? {
        try version(Self.contentKey(name), read: read)
    }

    /// The leaderboard's last refresh.
    func leaderboard(read: () throws -> Date?) throws -> Date? {
        try version(Self.leaderboardKey, read: read)
    }

    /// The latest of the versions under `keys` if every one is remembered now (nothing is read).
    func remembered(_ keys: [String]) -> Date? {
        let now = clock()
        return lock.reading {
            guard state.enabled else { return nil }
            var latest = Date.distantPast
            for key in keys {
                guard let entry = state.entries[key], now.timeIntervalSince(entry.readAt) < recheck, entry.readAt <= now else { return nil }
                latest = max(latest, entry.version)
            }
            return latest
        }
    }

    private func version(_ key: String, read: () throws -> Date?) throws -> Date? {
        let now = clock()
        let remembered = lock.reading { () -> (Date?, UInt64?) in
            guard state.enabled else { return (nil, nil) }
            if let entry = state.entries[key], now.timeIntervalSince(entry.readAt) < recheck, entry.readAt <= now {
                return (entry.version, nil)
            }
            return (nil, state.generation)
        }
        if let version = remembered.0 { return version }
        // A version read before a notice arrived is not kept: it may be the one just replaced.
        guard let value = try read() else { return nil }
        if let generation = remembered.1 {
            lock.writing {
                guard state.enabled, state.generation == generation else { return }
                if state.entries.count >= Self.capacity { state.entries.removeAll() }
                state.entries[key] = Entry(version: value, readAt: now)
            }
        }
        return value
    }
}
