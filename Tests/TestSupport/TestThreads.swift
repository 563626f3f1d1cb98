import Foundation
import Testing

/// Threads of the test run's own on which the tests run, so that as many run at once as the
/// machine can keep busy rather than as many as it has cores.
///
/// The tests are synchronous: each waits on a socket to the portal it started, on PostgreSQL
/// or on Redis. Swift Testing runs them on the concurrency runtime's shared pool, which has one
/// thread per core and which a waiting test holds, so on two cores two tests ran at a time and
/// the machine stood mostly idle. Here `width` threads take the tests' work instead
/// (`PORTAL_TEST_WIDTH`, 6 unless set): a test waiting on its database holds one of them, not
/// one of the runtime's.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    /// The run's threads, started when the first test asks for them.
    public static let shared = TestThreads(width: ProcessInfo.processInfo.environment["PORTAL_TEST_WIDTH"].flatMap { Int($0) } ?? 6)

    private let condition = NSCondition()
    /// Work waiting for a thread, oldest first (guarded by `condition`).
    private var waiting: [UnownedJob] = []

    private init(width: Int) {
        for index in 0..<max(1, width) {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "test-\(index)"
            // As deep as a main thread's: the parser tests nest documents deeply on purpose.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: UnownedJob) {
        condition.lock()
        waiting.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            let job = waiting.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs a suite's tests on `TestThreads` (named on each suite that waits on sockets).
public struct RunsOnTestThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == RunsOnTestThreads {
    /// The suite's tests run on the test run's own threads (`TestThreads`), many at once.
    public static var onTestThreads: Self { RunsOnTestThreads() }
}
