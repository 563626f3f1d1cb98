import Foundation

/// The versions shared pages are kept by — the catalogue's, each exam's content, the
/// leaderboard's last refresh — remembered between requests, so a page whose rendered copy is
/// current needs no database at all.
///
/// A remembered version is served only while the database's notices arrive (`follow`): a
/// notice on `portal_content` or `portal_leaderboard` forgets them at once on every instance.
/// As a bound on what a lost notice could cost, nothing is remembered longer than `recheck`.
final class SharedVersions: Sendable {
    private let remembered: RememberedValues<String, Date>

    init(recheck: TimeInterval = 10, clock: @escaping @Sendable () -> Date) {
        remembered = RememberedValues(recheck: recheck, capacity: 10_000, clock: clock)
    }

    /// Forgets on every notice of the catalogue or the leaderboard, and whenever listening
    /// starts or stops.
    func follow(_ events: DatabaseEvents) {
        events.onReset { [remembered] listening in remembered.reset(listening: listening) }
        events.subscribe { [remembered] notice in
            let prefix: String
            switch notice.channel {
            case "portal_content": prefix = "content:"
            case "portal_leaderboard": prefix = "leaderboard:"
            default: return
            }
            remembered.forget { key, _ in key.hasPrefix(prefix) }
        }
    }

    /// The key of the content version named `name` (`catalogue`, `exam|region|slug`).
    static func contentKey(_ name: String) -> String { "content:" + name }

    /// The key of the leaderboard's last refresh.
    static let leaderboardKey = "leaderboard:refresh"

    /// The content version under `name` (`catalogue`, `exam|region|slug`).
    func content(_ name: String, read: () throws -> Date?) throws -> Date? {
        try remembered.value(Self.contentKey(name), read: read)
    }

    /// The leaderboard's last refresh.
    func leaderboard(read: () throws -> Date?) throws -> Date? {
        try remembered.value(Self.leaderboardKey, read: read)
    }

    /// The latest of the versions under `keys` if every one is remembered now (nothing is read).
    func remembered(_ keys: [String]) -> Date? {
        var latest = Date.distantPast
        for key in keys {
            guard let version = remembered.remembered(key) else { return nil }
            latest = max(latest, version)
        }
        return latest
    }
}
