import ExamData
import Foundation
import PostgresClient

/// The background job that fits students' FSRS weights to their own histories. A student's
/// request (their dashboard, a finished session, an offline upload) queues their session token;
/// the job then looks at their history on a connection scoped to that token — it reads nothing
/// row-level security would not show the student — and fits when it has grown enough
/// (`FittedWeightsStore`). One fit runs at a time across every instance (a transaction-scoped
/// advisory lock): fitting is CPU work a small machine does in the background, not in a request.
final class WeightFitter: @unchecked Sendable {  // the queue is guarded by `lock`
    private let database: ConnectionPool
    private let clock: @Sendable () -> Date
    private let lock = NSLock()
    /// Tokens waiting, oldest first, each once.
    private var waiting: [String] = []
    private var queued: Set<String> = []
    private var loop: BackgroundLoop?

    /// Tokens kept waiting at most: beyond this a student is looked at on their next request.
    static let capacity = 10_000
    init(database: ConnectionPool, clock: @escaping @Sendable () -> Date) {
        self.database = database
        self.clock = clock
    }

    /// Queues a look at the history of the student signed in with `sessionToken`.
    func enqueue(sessionToken: String?) {
        guard let sessionToken, !sessionToken.isEmpty else { return }
        let added = lock.withLock {
            guard waiting.count < Self.capacity, queued.insert(sessionToken).inserted else { return false }
            waiting.append(sessionToken)
            return true
        }
        if added { loop?.wake() }
    }

    /// Looks at every queued history now; returns what each look found (tests call this).
    @discardableResult
    func drain() -> [FittedWeightsStore.Outcome] {
        var outcomes: [FittedWeightsStore.Outcome] = []
        while let token = next() {
            guard let outcome = look(token) else {
                // Another instance holds the lock: this student waits for the next round.
                requeue(token)
                break
            }
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// Looks at queued students as they come, and every few seconds retries one the lock held back.
    func start() {
        let loop = BackgroundLoop(name: "fsrs-fit", interval: 5) { [self] in drain() }
        self.loop = loop
        loop.start()
    }

    func stop() { loop?.stop() }

    private func next() -> String? {
        lock.withLock {
            guard !waiting.isEmpty else { return nil }
            let token = waiting.removeFirst()
            queued.remove(token)
            return token
        }
    }

    private func requeue(_ token: String) {
        lock.withLock {
            if queued.insert(token).inserted { waiting.insert(token, at: 0) }
        }
    }

    /// One student's look, under the lock; nil when another instance holds it. A failure (the
    /// student signed out meanwhile, the database away) is logged and the student dropped: their
    /// next request queues them again.
    private func look(_ token: String) -> FittedWeightsStore.Outcome? {
        do {
            return try database.withTransaction(settings: ["app.session_token": token, "app.guest_token": ""]) { connection in
                let store = FittedWeightsStore()
                guard try store.takeTurn(connection) else { return nil }
                return try store.fitIfDue(at: clock(), connection)
            }
        } catch {
            FileHandle.standardError.write(Data("fsrs-fit: a student's fit failed: \(error)\n".utf8))
            return .notDue
        }
    }
}
