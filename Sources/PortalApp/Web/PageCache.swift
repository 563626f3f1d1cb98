import Foundation
import Synchronization

/// Rendered public pages, keyed by address and locale, valid while the content version they
/// were rendered from is current. Entries also age out after `maximumAge`, because pages say
/// how long ago content changed ("updated 3 days ago").
final class PageCache: Sendable {
    private struct Entry {
        var version: Date
        var renderedAt: Date
        var bytes: [UInt8]
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let maximumAge: TimeInterval
    private let capacity: Int

    init(maximumAge: TimeInterval = 60, capacity: Int = 2000) {
        self.maximumAge = maximumAge
        self.capacity = capacity
    }

    /// The cached page, or a fresh one from `render`, which is then kept. A nil key renders
    /// without caching (a page personal to its reader).
    func page(key: String?, version: Date, now: Date, render: () throws -> [UInt8]) rethrows -> [UInt8] {
        guard let key else { return try render() }
        if let entry = entries.withLock({ $0[key] }), entry.version == version, now.timeIntervalSince(entry.renderedAt) < maximumAge {
            return entry.bytes
        }
        let bytes = try render()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(version: version, renderedAt: now, bytes: bytes)
        }
        return bytes
    }
}
