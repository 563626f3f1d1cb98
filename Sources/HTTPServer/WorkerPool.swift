import Foundation

/// A fixed set of threads running blocking jobs from a bounded queue.
final class WorkerPool: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private let capacity: Int
    private var stopping = false
    private let finished = DispatchGroup()

    init(threads: Int, capacity: Int) {
        self.capacity = capacity
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

    /// Queues a job; false when the queue is full (the caller answers 503).
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queue.count - head < capacity else { return false }
        queue.append(job)
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
            let job = queue[head]
            head += 1
            if head > 1024 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
