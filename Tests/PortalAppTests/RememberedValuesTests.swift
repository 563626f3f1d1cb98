import Foundation
@testable import PortalApp
import Testing

/// Remembered versions due for their recheck: read again once, not by every request at once.
@Suite("Remembered values", .onTestThreads)
struct RememberedValuesTests {
    /// A clock the test moves.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = Date(timeIntervalSince1970: 1_000_000)
        func read() -> Date { lock.withLock { now } }
        func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }
    }

    /// How many reads were made, from any thread.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    @Test("a value due for its recheck is read again by one request while the others, arriving meanwhile, keep the value they had; the next request after that read gets the new value")
    func oneRecheckAtATime() throws {
        let clock = Clock()
        let values = RememberedValues<String, Int>(recheck: 10, capacity: 10, clock: { clock.read() })
        values.reset(listening: true)
        #expect(try values.value("class", read: { 1 }) == 1)
        clock.advance(11)
        let reads = Counter()
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let rechecking = Thread {
            _ = try? values.value("class", read: {
                reads.add()
                started.signal()
                release.wait()  // a slow read: a class page's statements
                return 2
            })
        }
        rechecking.start()
        started.wait()
        // Twenty requests while the recheck is under way: none reads, each gets the value it had.
        for _ in 0..<20 {
            #expect(try values.value("class", read: { reads.add(); return 3 }) == 1)
        }
        release.signal()
        while reads.count < 1 || values.remembered("class") == nil { Thread.sleep(forTimeInterval: 0.001) }
        #expect(reads.count == 1)
        #expect(values.remembered("class") == 2)
        // A value forgotten (a notice said it changed) is read at once, never served stale.
        values.forget { key, _ in key == "class" }
        #expect(try values.value("class", read: { 4 }) == 4)
    }
}
