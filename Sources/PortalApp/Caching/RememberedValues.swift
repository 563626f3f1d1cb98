import Foundation

/// Values read from the database (versions, mostly) remembered between requests: served only
/// while the database's notices arrive (`reset(listening:)`), forgotten by what the owner hears
/// (`forget(where:)`), and never older than `recheck` — the bound on what a lost notice could
/// cost. What `SharedVersions`, `ReaderVersions` and `ClassVersions` keep.
///
/// A value due for its recheck is read again by one request; the others meanwhile are given the
/// value as it was (it has not been forgotten: no notice said it changed). Otherwise every
/// request arriving in that moment would read it — with a page's statements alongside, a class
/// page's full read each (ClassVersions) — and a busy page would queue them all at once.
final class RememberedValues<Key: Hashable, Value>: @unchecked Sendable {  // `state` only under `lock`
    private struct Entry {
        var value: Value
        var readAt: Date
        /// When a request began reading it again for its recheck, if one is.
        var recheckingSince: Date?
    }

    /// A recheck that has not ended in this long (its request failed or stalled) is taken over.
    static var recheckTakeover: TimeInterval { 5 }

    // Read by many requests at once, written rarely: readers do not wait for each other.
    private let lock = ReadWriteLock()
    private var state = NoticedEntries<Key, Entry>()
    private let recheck: TimeInterval
    private let capacity: Int
    private let clock: @Sendable () -> Date

    init(recheck: TimeInterval, capacity: Int, clock: @escaping @Sendable () -> Date) {
        self.recheck = recheck
        self.capacity = capacity
        self.clock = clock
    }

    /// Listening started or stopped: everything forgotten, kept again only while listening.
    func reset(listening: Bool) {
        lock.writing { state.reset(listening: listening) }
    }

    /// Forgets what `matching` names; a value being read meanwhile is then not kept.
    func forget(where matching: (Key, Value) -> Bool) {
        lock.writing { state.forget { matching($0, $1.value) } }
    }

    /// The value under `key` if it is remembered now (nothing is read).
    func remembered(_ key: Key) -> Value? {
        let now = clock()
        return lock.reading { fresh(key, now: now) }
    }

    /// The value under `key`: remembered, or `read` and remembered — unless something was
    /// forgotten while it was read (it may be the very value just replaced) and
    /// `currentDespite` does not vouch for it.
    func value(_ key: Key, read: () throws -> Value?, currentDespite: (Value) -> Bool = { _ in false }) throws -> Value? {
        let now = clock()
        let (known, generation) = lock.reading { () -> (Value?, UInt64?) in
            guard state.enabled else { return (nil, nil) }
            if let value = fresh(key, now: now) { return (value, nil) }
            return (nil, state.generation)
        }
        if let known { return known }
        // Due for its recheck: one request reads it, the rest keep the value they had.
        let (stale, claimed) = lock.writing { () -> (Value?, Bool) in
            guard state.enabled, state.generation == generation, var entry = state.entries[key], entry.readAt <= now else { return (nil, false) }
            if now.timeIntervalSince(entry.readAt) < recheck { return (entry.value, false) }
            if let since = entry.recheckingSince, now.timeIntervalSince(since) < Self.recheckTakeover { return (entry.value, false) }
            entry.recheckingSince = now
            state.entries[key] = entry
            return (nil, true)
        }
        if let stale { return stale }
        let value: Value?
        do {
            value = try read()
        } catch {
            if claimed { lock.writing { state.entries[key]?.recheckingSince = nil } }
            throw error
        }
        guard let value else {
            if claimed { lock.writing { state.entries[key]?.recheckingSince = nil } }
            return nil
        }
        if let generation {
            lock.writing {
                guard state.enabled, state.generation == generation || currentDespite(value) else {
                    if claimed { state.entries[key]?.recheckingSince = nil }
                    return
                }
                if state.entries.count >= capacity { state.entries.removeAll() }
                state.entries[key] = Entry(value: value, readAt: now)
            }
        }
        return value
    }

    /// Under `lock`.
    private func fresh(_ key: Key, now: Date) -> Value? {
        guard state.enabled, let entry = state.entries[key], entry.readAt <= now, now.timeIntervalSince(entry.readAt) < recheck else { return nil }
        return entry.value
    }
}
