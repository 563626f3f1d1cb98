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
    private let condition = NSCondition()
    private var stopped = false
    private var thread: Thread?

    init(database: ConnectionPool, interval: TimeInterval, instance: String) {
        self.database = database
        self.interval = interval
        self.instance = instance
    }

    /// Starts ticking: a first attempt now, then one every fifth of the interval, so a refresh
    /// happens close to each interval's end whichever instance is quickest.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "leaderboard-refresh"
        self.thread = thread
        thread.start()
    }

    /// Stops the job; a refresh under way finishes first.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

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

    private func run() {
        while true {
            tick()
            condition.lock()
            let deadline = Date().addingTimeInterval(max(0.05, interval / 5))
            while !stopped && Date() < deadline { condition.wait(until: deadline) }
            let done = stopped
            condition.unlock()
            if done { return }
        }
    }
}
