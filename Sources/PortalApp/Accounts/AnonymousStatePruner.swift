import ExamData
import Foundation
import PostgresClient

/// Removes what anonymous visitors leave behind, once a minute: logins begun and never finished
/// (LTI and single sign-on states older than their ten minutes), tokens past their expiry, old
/// rate-limit windows. A flood of logins is bounded by the limits; this keeps the tables small
/// after one. Once an hour, retention too: guests' sessions and live-event entries, and accounts
/// never used, older than `GUEST_RETENTION_DAYS` (`purge_expired_data`). Harmless on several
/// instances at once.
final class AnonymousStatePruner: @unchecked Sendable {  // `loop` and `lastPurge` are the loop thread's
    private let database: ConnectionPool
    private let retentionDays: Int
    private var loop: BackgroundLoop?
    private var lastPurge: Date?

    init(database: ConnectionPool, retentionDays: Int) {
        self.database = database
        self.retentionDays = retentionDays
    }

    func start() {
        let loop = BackgroundLoop(name: "prune-anonymous", interval: 60) { [self] in
            _ = prune()
            if lastPurge.map({ Date().timeIntervalSince($0) >= 3600 }) ?? true {
                lastPurge = Date()
                _ = purgeExpired()
            }
        }
        self.loop = loop
        loop.start()
    }

    /// Retention: batches of a thousand until nothing past its time is left; how many rows went.
    @discardableResult
    func purgeExpired() -> AccountStore.Purged {
        var purged = AccountStore.Purged()
        do {
            while true {
                let batch = try database.withConnection { try AccountStore().purgeExpired(days: retentionDays, limit: 1000, $0) }
                purged.guestSessions += batch.guestSessions
                purged.guestPlayers += batch.guestPlayers
                purged.accounts += batch.accounts
                if max(batch.guestSessions, batch.guestPlayers, batch.accounts) < 1000 { break }
            }
        } catch {
            FileHandle.standardError.write(Data("prune: expired data could not be purged: \(error)\n".utf8))
        }
        return purged
    }

    func stop() { loop?.stop() }

    /// How many rows went.
    @discardableResult
    func prune() -> Int {
        do {
            return try database.withConnection { try AccountStore().pruneAnonymousState($0) }
        } catch {
            FileHandle.standardError.write(Data("prune: anonymous state could not be pruned: \(error)\n".utf8))
            return 0
        }
    }
}
