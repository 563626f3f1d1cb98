import Foundation
import TemplateEngine

/// Rendered fragments shared by many readers (`{{%name}}` sections) and kept pages, within a
/// byte budget.
typealias FragmentCache = KeptValues<[UInt8]>

extension KeptValues: FragmentStore where Value == [UInt8] {
    convenience init(budget: Int = 24 << 20, maximumAge: TimeInterval = 60, patience: TimeInterval = 5, clock: @escaping @Sendable () -> Date) {
        self.init(budget: budget, maximumAge: maximumAge, patience: patience, clock: clock, size: \.count)
    }

    func fragment(_ key: String, render: () throws -> [UInt8]) throws -> [UInt8] {
        try value(key, make: render)
    }
}

/// Values made from what the database said (rendered fragments, pages), within a budget of
/// bytes. Keys carry the versions the values were read at, so a changed exam or a refreshed
/// board simply stops being asked for; entries also age out after `maximumAge`, because a page
/// may say how long ago something happened or what is due today.
///
/// One make per key at a time: requests that want a value being made wait for it (up to
/// `patience`) instead of each reading the same rows, so an expired fragment of a busy page
/// costs one read, not one per waiting request.
final class KeptValues<Value: Sendable>: @unchecked Sendable {  // `state` only under `lock`, `rendering` under `condition`
    private struct Entry {
        var value: Value
        var size: Int
        var keptAt: Date
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var size = 0
    }

    // Every page reads several fragments; workers must not queue behind each other for that.
    private let lock = ReadWriteLock()
    private var state = State()
    private let condition = NSCondition()
    private var rendering: Set<String> = []
    private let budget: Int
    private let maximumAge: TimeInterval
    private let patience: TimeInterval
    private let clock: @Sendable () -> Date
    private let sizeOf: @Sendable (Value) -> Int

    /// `size` tells how many bytes a value holds, against `budget`.
    init(budget: Int, maximumAge: TimeInterval, patience: TimeInterval, clock: @escaping @Sendable () -> Date, size: @escaping @Sendable (Value) -> Int) {
        self.budget = budget
        self.maximumAge = maximumAge
        self.patience = patience
        self.clock = clock
        sizeOf = size
    }

    /// The value kept under `key`, or the one `make` makes (then kept).
    func value(_ key: String, make: () throws -> Value) throws -> Value {
        if let value = kept(key) { return value }
        // Wait while another request renders this key; then it is kept, or it is ours to render.
        condition.lock()
        let deadline = Date().addingTimeInterval(patience)
        while rendering.contains(key), Date() < deadline { _ = condition.wait(until: deadline) }
        if let value = kept(key) {
            condition.unlock()
            return value
        }
        rendering.insert(key)
        condition.unlock()
        defer {
            condition.lock()
            rendering.remove(key)
            condition.broadcast()
            condition.unlock()
        }
        let value = try make()
        keep(key, value)
        return value
    }

    /// The value under `key` if it was kept within `maximumAge` (nothing is made).
    func kept(_ key: String) -> Value? {
        let now = clock()
        // An aged entry is not served; the next `keep` replaces it.
        return lock.reading {
            guard let entry = state.entries[key], now.timeIntervalSince(entry.keptAt) < maximumAge else { return nil }
            return entry.value
        }
    }

    private func keep(_ key: String, _ value: Value) {
        let now = clock(), size = sizeOf(value)
        lock.writing {
            if let old = state.entries.removeValue(forKey: key) { state.size -= old.size }
            if state.size + size > budget {
                // The oldest go first, down to three quarters of the budget.
                for (oldKey, entry) in state.entries.sorted(by: { $0.value.keptAt < $1.value.keptAt }) {
                    guard state.size + size > budget * 3 / 4 else { break }
                    state.entries[oldKey] = nil
                    state.size -= entry.size
                }
            }
            state.entries[key] = Entry(value: value, size: size, keptAt: now)
            state.size += size
        }
    }

    /// How many bytes are kept (for `/metrics`).
    var size: Int { lock.reading { state.size } }
}
