import ExamData
import Foundation
import PostgresClient

/// The background job that keeps the leaderboard fresh. Every instance runs one; the database
/// lets exactly one of them refresh per interval (an advisory lock and the time of the last
/// refresh), and the refresh blocks no reader.
final class LeaderboardRefresher: @unchecked Sendable {
    private let database: ConnectionPool
    private let interval: TimeInterval
    private let instance: String
    private var loop: BackgroundLoop?

    init(database: ConnectionPool, interval: TimeInterval, instance: String) {
        self.database = database
        self.interval = interval
        self.instance = instance
    }

    /// Starts ticking: a first attempt now, then one every fifth of the interval, so a refresh
    /// happens close to each interval's end whichever instance is quickest.
    func start() {
        let loop = BackgroundLoop(name: "leaderboard-refresh", interval: max(0.05, interval / 5)) { [self] in tick() }
        self.loop = loop
        loop.start()
    }

    /// Stops the job; a refresh under way finishes first.
    func stop() { loop?.stop() }

    /// One attempt; true when this instance refreshed.
    @discardableResult
    func tick() -> Bool {
        do {
            return try database.withTransaction { try LeaderboardStore().refresh(every: interval, instance: instance, $0) }
        } catch {
            FileHandle.standardError.write(Data("leaderboard: refresh failed: \(error)\n".utf8))
            return false
        }
    }
}
