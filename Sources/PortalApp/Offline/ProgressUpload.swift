import ExamData
import Foundation
import HTTPServer

/// `POST /api/progress`: answers recorded offline, uploaded in a batch and stored by
/// `OfflineProgress` (every item stands alone: a bad one is refused with its reason, worded
/// here in the student's language, and the others still go in — never a 500 for one bad item).
struct ProgressUpload: Sendable {
    let clock: @Sendable () -> Date
    /// Words the refusals in the student's language (the offline page shows them).
    let pages: PageRenderer
    /// Told of each student whose answers arrive: their history may now be long enough to fit.
    var fitter: WeightFitter? = nil

    /// At most 1 MiB of body.
    static let bodyLimit = 1024 * 1024

    /// What the device is told, per answer and session.
    struct Reply: Encodable {
        struct Rejection: Encodable {
            var id: String
            var reason: String
        }
        var accepted: [String]
        var duplicates: [String]
        var rejected: [Rejection]
        var finishedSessions: [String]
    }

    func upload(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let batch: OfflineProgress.Batch
        do {
            batch = try decoder.decode(OfflineProgress.Batch.self, from: Data(request.body))
        } catch {
            return APIResponse.problem("The batch is not JSON of the progress format: \(error)".prefix(300).description, status: .badRequest)
        }
        guard batch.answers.count <= OfflineProgress.maximumAnswers else {
            return APIResponse.problem("At most \(OfflineProgress.maximumAnswers) answers per batch; send the rest in another.", status: .contentTooLarge)
        }
        guard (batch.sessions ?? []).count <= OfflineProgress.maximumSessions else {
            return APIResponse.problem("At most \(OfflineProgress.maximumSessions) sessions per batch; send the rest in another.", status: .contentTooLarge)
        }
        let now = clock(), locale = pages.locale(for: request)
        let outcome = try request.database.transaction { try OfflineProgress().record(batch, userID: user.userID, now: now, $0) }
        if !outcome.accepted.isEmpty { fitter?.enqueue(sessionToken: request.database.sessionToken) }
        let reply = Reply(
            accepted: outcome.accepted, duplicates: outcome.duplicates,
            rejected: outcome.rejected.map { .init(id: $0.id, reason: pages.message("offline.reason." + $0.reason.key, locale: locale, $0.reason.arguments)) },
            finishedSessions: outcome.finishedSessions)
        return try APIResponse.json(reply, cache: "no-store")
    }
}
