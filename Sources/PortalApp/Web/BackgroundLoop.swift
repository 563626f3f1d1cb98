import Foundation

/// A background job's own thread: runs `body` at once, then again every `interval` — or sooner
/// when woken — until stopped; a run under way finishes first.
final class BackgroundLoop: @unchecked Sendable {  // `stopped` and `woken` only under `condition`
    private let name: String
    private let interval: TimeInterval
    private let body: @Sendable () -> Void
    private let condition = NSCondition()
    private var stopped = false
    private var woken = false

    init(name: String, interval: TimeInterval, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.interval = interval
        self.body = body
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Ends the loop after the run under way, if any.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs the body again now rather than at the end of the interval.
    func wake() {
        condition.lock()
        woken = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            body()
            condition.lock()
            let deadline = Date().addingTimeInterval(interval)
            while !stopped && !woken && Date() < deadline { _ = condition.wait(until: deadline) }
            woken = false
            let done = stopped
            condition.unlock()
            if done { return }
        }
    }
}
