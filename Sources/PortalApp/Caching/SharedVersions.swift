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

    /// The key of the catalogue's version.
    static let catalogueKey = "content:catalogue"

    /// The key of an exam's content version.
    static func examKey(_ exam: ExamAddress) -> String { "content:exam|\(exam.region)|\(exam.slug)" }

    /// The key of the leaderboard's last refresh.
    static let leaderboardKey = "leaderboard:refresh"

    /// The catalogue's version (`distantPast` while nothing is published).
    func catalogue(read: () throws -> Date?) throws -> Date {
        try remembered.value(Self.catalogueKey, read: read) ?? .distantPast
    }

    /// An exam's content version; nil when there is no such exam.
    func exam(_ exam: ExamAddress, read: () throws -> Date?) throws -> Date? {
        try remembered.value(Self.examKey(exam), read: read)
    }

    /// The leaderboard's last refresh (`distantPast` before the first: that is a version too).
    func leaderboard(read: () throws -> Date?) throws -> Date {
        try remembered.value(Self.leaderboardKey, read: read) ?? .distantPast
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
