import Foundation

/// A fixed set of threads running blocking jobs from a bounded queue, kept short under load.
///
/// A queue that only grows makes everyone wait: past capacity, each request would wait behind
/// all that came before it and be answered after its browser gave up. So the queue bounds the
/// time a job may wait (`sojournLimit`): a job that waited longer is not run but shed (its
/// `shed` closure answers `503` with `Retry-After`, cheaply). And once the oldest waiting job
/// has waited `pressureDelay`, the newest is taken first: those just arrived are served while
/// they are still wanted, and the backlog drains by shedding (adaptive LIFO, as mature
/// servers do it). With a short queue nothing changes: first come, first served.
final class WorkerPool: @unchecked Sendable {  // `queue`, `head` and `stopping` only under `condition`
    typealias Job = @Sendable () -> Void

    private struct Entry {
        var job: Job
        var shed: Job
        var queuedAt: UInt64
    }

    private let condition = NSCondition()
    private var queue: [Entry] = []
    private var head = 0
    private let capacity: Int
    private let sojournLimit: UInt64
    private let pressureDelay: UInt64
    private var stopping = false
    private let finished = DispatchGroup()

    init(threads: Int, capacity: Int, sojournLimit: Duration = .seconds(1), pressureDelay: Duration = .milliseconds(100)) {
        self.capacity = capacity
        self.sojournLimit = Self.nanoseconds(sojournLimit)
        self.pressureDelay = Self.nanoseconds(pressureDelay)
        for index in 0..<max(1, threads) {
            finished.enter()
            let thread = Thread { [self] in
                run()
                finished.leave()
            }
            thread.name = "portal-worker-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// Queues a job; false when the queue is full (the caller answers 503). `shed` runs instead
    /// of `job` when the job waited too long for a thread.
    func submit(_ job: @escaping Job, shed: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queue.count - head < capacity else { return false }
        queue.append(Entry(job: job, shed: shed, queuedAt: System.monotonicNanos()))
        condition.signal()
        return true
    }

    /// Jobs waiting for a thread.
    var depth: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count - head
    }

    /// Lets queued jobs finish, then ends the threads.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func run() {
        while true {
            condition.lock()
            while head == queue.count && !stopping { condition.wait() }
            if head == queue.count {
                condition.unlock()
                return
            }
            // Those that waited too long are answered at once and not run; at shutdown every
            // queued job runs (they were accepted).
            let now = System.monotonicNanos()
            var late: [Job] = []
            while !stopping, head < queue.count, now &- queue[head].queuedAt > sojournLimit {
                late.append(queue[head].shed)
                head += 1
            }
            var job: Job?
            if head < queue.count {
                if !stopping, now &- queue[head].queuedAt > pressureDelay {
                    job = queue.removeLast().job
                } else {
                    job = queue[head].job
                    head += 1
                }
            }
            if head > 1024 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            late.forEach { $0() }
            job?()
        }
    }
}
