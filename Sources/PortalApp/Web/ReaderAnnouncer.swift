import Foundation
import ExamData
import PostgresClient
import Synchronization

/// Tells the other instances whose data this instance just wrote, several readers to a notice.
///
/// A student's answer changes their data version in the database (`reader_changed`) without a
/// notice of its own: a `NOTIFY` takes a lock every notifying commit in the database waits for,
/// held through the commit's flush to disk, so one per answer made all answers commit one after
/// another. Instead every write of a signed-in reader is announced from here once it committed,
/// gathered for a tenth of a second (`ReaderNotice`: `readers:<instance>:<id>,<id>,…`),
/// which every other instance reads as "forget what you remember of these readers"
/// (ReaderVersions, ClassVersions). This instance forgot at once (the gate does it before
/// answering), and ignores its own notices: what it read again since is current. Should an
/// instance stop before it announced, the others recheck what they remember within seconds.
final class ReaderAnnouncer: @unchecked Sendable {  // `loop` is set once, before start
    /// This instance's name in its notices.
    let instance: String
    private let database: ConnectionPool
    private let pending = Mutex<Set<UUID>>([])
    private var loop: BackgroundLoop?

    init(database: ConnectionPool, instance: String) {
        self.database = database
        self.instance = instance
    }

    func start() {
        let loop = BackgroundLoop(name: "announce-readers", interval: 0.1) { [self] in announcePending() }
        self.loop = loop
        loop.start()
    }

    func stop() {
        loop?.stop()
        announcePending()
    }

    /// Something was written for `userID` and committed: the others hear of it shortly.
    func announce(_ userID: UUID) {
        pending.withLock { _ = $0.insert(userID) }
    }

    /// Sends what is waiting now (the loop does it every tenth of a second).
    func announcePending() {
        let readers = pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return Array(pending)
        }
        guard !readers.isEmpty else { return }
        do {
            try database.withConnection { try ReaderNotice.send(readers, from: instance, $0) }
        } catch {
            // The others' copies go stale for their recheck interval at most; say why.
            FileHandle.standardError.write(Data("announce: \(readers.count) readers' changes could not be announced: \(error)\n".utf8))
        }
    }
}
