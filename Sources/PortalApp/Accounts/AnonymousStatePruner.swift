import ExamData
import Foundation
import PostgresClient

/// Removes what anonymous visitors leave behind, once a minute: logins begun and never finished
/// (LTI and single sign-on states older than their ten minutes), tokens past their expiry, old
/// rate-limit windows. A flood of logins is bounded by the limits; this keeps the tables small
/// after one. Harmless on several instances at once.
final class AnonymousStatePruner: @unchecked Sendable {  // `loop` is set once, before start
    private let database: ConnectionPool
    private var loop: BackgroundLoop?

    init(database: ConnectionPool) {
        self.database = database
    }

    func start() {
        let loop = BackgroundLoop(name: "prune-anonymous", interval: 60) { [self] in _ = prune() }
        self.loop = loop
        loop.start()
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
