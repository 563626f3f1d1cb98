import ExamData
import Foundation
import PostgresClient

/// The background job that fits students' FSRS weights to their own histories. A student's
/// request (their dashboard, a finished session, an offline upload) queues their session token;
/// the job then looks at their history on a connection scoped to that token — it reads nothing
/// row-level security would not show the student — and fits when it has grown enough
/// (`FittedWeightsStore`). One fit runs at a time across every instance (a transaction-scoped
/// advisory lock): fitting is CPU work a small machine does in the background, not in a request.
final class WeightFitter: @unchecked Sendable {  // the queue is guarded by `condition`
    private let database: ConnectionPool
    private let clock: @Sendable () -> Date
    private let condition = NSCondition()
    /// Tokens waiting, oldest first, each once.
    private var waiting: [String] = []
    private var queued: Set<String> = []
    private var stopped = false
    private var thread: Thread?

    /// Tokens kept waiting at most: beyond this a student is looked at on their next request.
    static let capacity = 10_000
    /// The advisory lock's key ("fsrs" as four bytes), shared by every instance.
    static let lockKey: Int64 = 0x6673_7273

    init(database: ConnectionPool, clock: @escaping @Sendable () -> Date) {
        self.database = database
        self.clock = clock
    }

    /// Queues a look at the history of the student signed in with `sessionToken`.
    func enqueue(sessionToken: String?) {
        guard let sessionToken, !sessionToken.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        guard waiting.count < Self.capacity, queued.insert(sessionToken).inserted else { return }
        waiting.append(sessionToken)
        condition.signal()
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

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "fsrs-fit"
        self.thread = thread
        thread.start()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func next() -> String? {
        condition.lock()
        defer { condition.unlock() }
        guard !waiting.isEmpty else { return nil }
        let token = waiting.removeFirst()
        queued.remove(token)
        return token
    }

    private func requeue(_ token: String) {
        condition.lock()
        if queued.insert(token).inserted { waiting.insert(token, at: 0) }
        condition.unlock()
    }

    /// One student's look, under the lock; nil when another instance holds it. A failure (the
    /// student signed out meanwhile, the database away) is logged and the student dropped: their
    /// next request queues them again.
    private func look(_ token: String) -> FittedWeightsStore.Outcome? {
        do {
            return try database.withTransaction(settings: ["app.session_token": token, "app.guest_token": ""]) { connection in
                let locked = try connection.query(("SELECT pg_try_advisory_xact_lock(\(Self.lockKey)) AS locked" as SQL).prepared())
                    .single().decode("locked", as: Bool.self)
                guard locked else { return nil }
                return try FittedWeightsStore().fitIfDue(at: clock(), connection)
            }
        } catch {
            FileHandle.standardError.write(Data("fsrs-fit: a student's fit failed: \(error)\n".utf8))
            return .notDue
        }
    }

    private func run() {
        while true {
            drain()
            condition.lock()
            // Woken by a new student, or every few seconds to retry one the lock held back.
            if !stopped { condition.wait(until: Date().addingTimeInterval(5)) }
            let done = stopped
            condition.unlock()
            if done { return }
        }
    }
}
