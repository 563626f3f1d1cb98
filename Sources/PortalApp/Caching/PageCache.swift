import Foundation
import HTTPServer
import PostgresClient
import Glibc

/// Rendered public pages, keyed by address and locale, valid while the content version they
/// were rendered from is current. Entries also age out after `maximumAge`, because pages say
/// how long ago content changed ("updated 3 days ago").
final class PageCache: @unchecked Sendable {  // `entries` is only touched under `lock`
    private struct Entry {
        var version: Date
        var renderedAt: Date
        var bytes: [UInt8]
        /// The same page gzipped, made once when kept (nil when it would not be smaller).
        var gzip: [UInt8]?
    }

    // Many workers read, few write: a reader-writer lock lets the reads run side by side.
    private let lock = ReadWriteLock()
    private var entries: [String: Entry] = [:]
    private let maximumAge: TimeInterval
    private let capacity: Int

    init(maximumAge: TimeInterval = 60, capacity: Int = 2000) {
        self.maximumAge = maximumAge
        self.capacity = capacity
    }

    /// The last page rendered under `key`, however old: what a visitor gets while the database
    /// is out of reach, rather than an error.
    func stale(_ key: String) -> [UInt8]? {
        lock.reading { entries[key]?.bytes }
    }

    /// The cached page under `key` when there is one, or else what `fresh` produces; when
    /// `fresh` fails because the database cannot serve now, the last page kept under `key`.
    func freshOrStale(key: String?, _ fresh: () throws -> KeptPage) throws -> KeptPage {
        do {
            return try fresh()
        } catch let error as PostgresError where error.isTemporarilyUnavailable {
            guard let key, let bytes = stale(key) else { throw error }
            return KeptPage(bytes: bytes, isGzip: false)
        }
    }

    /// The kept page under `key` if it was rendered from `version` within `maximumAge`.
    func current(key: String, version: Date, now: Date) -> [UInt8]? {
        lock.reading {
            guard let entry = entries[key], entry.version == version, now.timeIntervalSince(entry.renderedAt) < maximumAge else { return nil }
            return entry.bytes
        }
    }

    /// Like `current`, gzipped when `gzipped` and the kept copy is smaller that way.
    func current(key: String, version: Date, now: Date, gzipped: Bool) -> (bytes: [UInt8], isGzip: Bool)? {
        lock.reading {
            guard let entry = entries[key], entry.version == version, now.timeIntervalSince(entry.renderedAt) < maximumAge else { return nil }
            if gzipped, let gzip = entry.gzip { return (gzip, true) }
            return (entry.bytes, false)
        }
    }

    /// The cached page, or a fresh one from `render`, which is then kept. A nil key renders
    /// without caching (a page personal to its reader).
    func page(key: String?, version: Date, now: Date, render: () throws -> [UInt8]) rethrows -> [UInt8] {
        guard let key else { return try render() }
        if let bytes = current(key: key, version: version, now: now) { return bytes }
        let bytes = try render()
        let gzip = bytes.count >= 1024 ? Gzip.compress(bytes, level: Gzip.keptLevel).flatMap { $0.count < bytes.count ? $0 : nil } : nil
        lock.writing {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(version: version, renderedAt: now, bytes: bytes, gzip: gzip)
        }
        return bytes
    }
}

/// A pthread reader-writer lock.
final class ReadWriteLock: @unchecked Sendable {
    private let handle = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() { pthread_rwlock_init(handle, nil) }

    deinit {
        pthread_rwlock_destroy(handle)
        handle.deallocate()
    }

    func reading<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_rwlock_rdlock(handle)
        defer { pthread_rwlock_unlock(handle) }
        return try body()
    }

    func writing<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_rwlock_wrlock(handle)
        defer { pthread_rwlock_unlock(handle) }
        return try body()
    }
}
