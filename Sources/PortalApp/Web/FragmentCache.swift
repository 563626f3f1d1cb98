import Foundation
import TemplateEngine

/// Rendered fragments shared by many readers (`{{%name}}` sections), within a byte budget.
/// Keys carry the versions the fragments were read at, so a changed exam or a refreshed board
/// simply stops being asked for; entries also age out after `maximumAge`, because fragments may
/// say how long ago something happened or what is due today.
///
/// One render per key at a time: requests that want a fragment being rendered wait for it
/// (up to `patience`) instead of each reading the same rows, so an expired fragment of a busy
/// page costs one read, not one per waiting request.
final class FragmentCache: FragmentStore, @unchecked Sendable {  // `state` only under `lock`, `rendering` under `condition`
    private struct Entry {
        var bytes: [UInt8]
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

    init(budget: Int = 24 << 20, maximumAge: TimeInterval = 60, patience: TimeInterval = 5, clock: @escaping @Sendable () -> Date) {
        self.budget = budget
        self.maximumAge = maximumAge
        self.patience = patience
        self.clock = clock
    }

    func fragment(_ key: String, render: () throws -> [UInt8]) throws -> [UInt8] {
        if let bytes = kept(key) { return bytes }
        // Wait while another request renders this key; then it is kept, or it is ours to render.
        condition.lock()
        let deadline = Date().addingTimeInterval(patience)
        while rendering.contains(key), Date() < deadline { _ = condition.wait(until: deadline) }
        if let bytes = kept(key) {
            condition.unlock()
            return bytes
        }
        rendering.insert(key)
        condition.unlock()
        defer {
            condition.lock()
            rendering.remove(key)
            condition.broadcast()
            condition.unlock()
        }
        let bytes = try render()
        keep(key, bytes)
        return bytes
    }

    /// The bytes under `key` if they were kept within `maximumAge` (nothing is rendered).
    func kept(_ key: String) -> [UInt8]? {
        let now = clock()
        // An aged entry is not served; the next `keep` replaces it.
        return lock.reading {
            guard let entry = state.entries[key], now.timeIntervalSince(entry.keptAt) < maximumAge else { return nil }
            return entry.bytes
        }
    }

    private func keep(_ key: String, _ bytes: [UInt8]) {
        let now = clock()
        lock.writing {
            if let old = state.entries.removeValue(forKey: key) { state.size -= old.bytes.count }
            if state.size + bytes.count > budget {
                // The oldest go first, down to three quarters of the budget.
                for (oldKey, entry) in state.entries.sorted(by: { $0.value.keptAt < $1.value.keptAt }) {
                    guard state.size + bytes.count > budget * 3 / 4 else { break }
                    state.entries[oldKey] = nil
                    state.size -= entry.bytes.count
                }
            }
            state.entries[key] = Entry(bytes: bytes, keptAt: now)
            state.size += bytes.count
        }
    }

    /// How many bytes are kept (for `/metrics`).
    var size: Int { lock.reading { state.size } }
}
