import Foundation
import PostgresClient
import Synchronization

/// The instance's ear on the database: one direct connection that `LISTEN`s to the portal's
/// channels (migrations 0014 and 0020) and hands each notice to the caches that keep copies of what it
/// names, so a change on any instance reaches every instance within moments.
///
/// While the connection is down nobody may trust a copy (a notice may have been missed):
/// `isListening` is false and the caches neither serve nor keep anything. Each time the
/// connection is made again, `onListening` runs once LISTEN is in place, so the caches start
/// over from what the database says from then on.
final class DatabaseEvents: Sendable {
    /// The channels listened to.
    static let channels = ["portal_content", "portal_sessions", "portal_leaderboard", "portal_readers"]

    private struct State {
        var listening = false
        var stopped = false
        var subscribers: [@Sendable (PostgresConnection.Notification) -> Void] = []
        var resets: [@Sendable (Bool) -> Void] = []
    }

    private let url: String?
    private let overrides: [String: String]
    private let listened: [String]
    private let state = Mutex(State())
    private let wake = NSCondition()

    /// `url` is a direct connection (`DATABASE_LISTEN_URL`, or `DATABASE_URL` when no
    /// transaction pooler stands in between); nil keeps every cache off.
    init(url: String?, overrides: [String: String] = [:], channels: [String] = DatabaseEvents.channels) {
        self.url = url
        self.overrides = overrides
        listened = channels
    }

    /// Whether notices are arriving now (and copies may be served).
    var isListening: Bool { state.withLock { $0.listening } }

    /// Calls `handler` with every notice, on the listening thread.
    func subscribe(_ handler: @escaping @Sendable (PostgresConnection.Notification) -> Void) {
        state.withLock { $0.subscribers.append(handler) }
    }

    /// Calls `reset` with whether listening now whenever listening starts or stops: what was
    /// kept is no longer known good.
    func onReset(_ reset: @escaping @Sendable (Bool) -> Void) {
        state.withLock { $0.resets.append(reset) }
    }

    /// Starts listening on a thread of its own (nothing without a URL).
    func start() {
        guard url != nil else { return }
        let thread = Thread { [self] in run() }
        thread.name = "database-events"
        thread.start()
    }

    /// Stops listening within half a second.
    func stop() {
        state.withLock { $0.stopped = true }
        wake.broadcast()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func setListening(_ listening: Bool) {
        let resets = state.withLock { state -> [@Sendable (Bool) -> Void] in
            guard state.listening != listening else { return [] }
            state.listening = listening
            return state.resets
        }
        resets.forEach { $0(listening) }
    }

    private func run() {
        guard let url else { return }
        var failures = 0
        while !isStopped {
            do {
                let connection = try PostgresConnection(url: url, overrides: overrides, naming: .unnamed)
                defer { connection.close() }
                for channel in listened.compactMap(PostgresIdentifier.init) { try connection.listen(channel) }
                setListening(true)
                failures = 0
                while !isStopped {
                    let notices = try connection.notifications(timeout: 0.5)
                    guard !notices.isEmpty else { continue }
                    let subscribers = state.withLock { $0.subscribers }
                    for notice in notices { subscribers.forEach { $0(notice) } }
                }
            } catch {
                if failures == 0 { FileHandle.standardError.write(Data("events: not listening to the database: \(error)\n".utf8)) }
                failures += 1
            }
            setListening(false)
            // Try again soon, a little later each time up to five seconds.
            wake.lock()
            if !isStopped { _ = wake.wait(until: Date().addingTimeInterval(min(5, 0.2 * Double(failures)))) }
            wake.unlock()
        }
        setListening(false)
    }
}
