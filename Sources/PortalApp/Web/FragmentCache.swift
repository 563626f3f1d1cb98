import Foundation
import TemplateEngine

/// Rendered fragments shared by many readers (`{{%name}}` sections), within a byte budget.
/// Keys carry the versions the fragments were read at, so a changed exam or a refreshed board
/// simply stops being asked for; entries also age out after `maximumAge`, because fragments may
/// say how long ago something happened.
final class FragmentCache: FragmentStore, @unchecked Sendable {  // `state` only under `lock`
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
    private let budget: Int
    private let maximumAge: TimeInterval
    private let clock: @Sendable () -> Date

    init(budget: Int = 24 << 20, maximumAge: TimeInterval = 60, clock: @escaping @Sendable () -> Date) {
        self.budget = budget
        self.maximumAge = maximumAge
        self.clock = clock
    }

    func fragment(_ key: String) -> [UInt8]? {
        let now = clock()
        // An aged entry is not served; the next `keep` replaces it.
        return lock.reading {
            guard let entry = state.entries[key], now.timeIntervalSince(entry.keptAt) < maximumAge else { return nil }
            return entry.bytes
        }
    }

    func keep(_ key: String, _ bytes: [UInt8]) {
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
