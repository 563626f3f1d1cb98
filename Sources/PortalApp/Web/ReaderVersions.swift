import Foundation

/// Signed-in readers' data versions (`users.data_version`), remembered between requests so a
/// student's own pages — the dashboard, a session's question and results pages — can be known
/// current without reading the version for every request.
///
/// A remembered version is forgotten when the database announces a newer one (`portal_readers`,
/// migration 0020) and, before this instance answers, by every write this instance makes for
/// the reader (`forget`), so a student never sees their own page from before their answer.
/// Served only while the notices arrive, and never longer than `recheck`, the bound on what a
/// lost notice could cost.
final class ReaderVersions: @unchecked Sendable {  // `state` only under `lock`
    private struct Entry {
        var version: Int64
        var readAt: Date
    }

    private let lock = ReadWriteLock()
    private var state = NoticedEntries<UUID, Entry>()
    /// The version each reader's latest notice announced: a reading that crossed a notice is
    /// kept only if it is that version.
    private var announced: [UUID: Int64] = [:]
    private let recheck: TimeInterval
    private let clock: @Sendable () -> Date
    private static let capacity = 50_000

    init(recheck: TimeInterval = 10, clock: @escaping @Sendable () -> Date) {
        self.recheck = recheck
        self.clock = clock
    }

    /// Forgets a reader on each of their notices, and everyone when listening starts or stops.
    func follow(_ events: DatabaseEvents) {
        events.onReset { [self] listening in
            lock.writing {
                state.reset(listening: listening)
                announced.removeAll()
            }
        }
        events.subscribe { [self] notice in
            // `class:<id>` notices are the class pages' (ClassVersions).
            guard notice.channel == "portal_readers", !notice.payload.hasPrefix("class:") else { return }
            let parts = notice.payload.split(separator: ":")
            guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), let version = Int64(parts[1]) else {
                lock.writing { state.forget { _, _ in true } }
                return
            }
            // The very version announced, already read back (this instance's own write), stays;
            // any other goes (versions are transaction ids: they do not commit in order).
            lock.writing {
                if announced.count >= Self.capacity { announced.removeAll() }
                announced[id] = version
                state.forget { key, entry in key == id && entry.version != version }
            }
        }
    }

    /// Forgets `userID`'s version: something was just written for them.
    func forget(_ userID: UUID) {
        lock.writing {
            announced[userID] = nil
            state.forget { key, _ in key == userID }
        }
    }

    /// `userID`'s data version: remembered, or `read` (and remembered unless a notice arrived
    /// meanwhile, which may have been about the value just read).
    func version(_ userID: UUID, read: () throws -> Int64) throws -> Int64 {
        let now = clock()
        let (remembered, generation) = lock.reading { () -> (Int64?, UInt64?) in
            guard state.enabled else { return (nil, nil) }
            if let entry = state.entries[userID], entry.readAt <= now, now.timeIntervalSince(entry.readAt) < recheck {
                return (entry.version, nil)
            }
            return (nil, state.generation)
        }
        if let remembered { return remembered }
        let value = try read()
        if let generation {
            lock.writing {
                // Something was forgotten meanwhile: keep the value only if it is what this
                // reader's latest notice announced (a notice of the very write just read back).
                guard state.enabled, state.generation == generation || announced[userID] == value else { return }
                if state.entries.count >= Self.capacity { state.entries.removeAll() }
                state.entries[userID] = Entry(version: value, readAt: now)
            }
        }
        return value
    }
}
