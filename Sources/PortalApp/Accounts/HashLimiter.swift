import Foundation

/// At most a few password hashes at once, so logins cannot be used to exhaust the machine.
final class HashLimiter: Sendable {
    private let semaphore: DispatchSemaphore

    init(concurrent: Int = 2) { semaphore = DispatchSemaphore(value: concurrent) }

    func run<Value>(_ work: () throws -> Value) throws -> Value {
        semaphore.wait()
        defer { semaphore.signal() }
        return try work()
    }
}
