import ExamData
import Foundation
import HTTPClient
import PostgresClient
import QuestionEngine

/// Sends the scores of finished graded sessions to their platforms' line items (Assignment and
/// Grade Services' score service) from the database's outbox: due scores are taken for a short
/// lease, posted, and marked sent — or put back to try again after a growing wait, so a platform
/// that is down gets its scores when it is back. A score is queued once per attempt (the
/// outbox's key is the session), so it is never posted twice for the same attempt.
final class ScoreSender: @unchecked Sendable {  // `loop` is set once, before start
    private let database: ConnectionPool
    private let tokens: PlatformTokens
    private let client: HTTPClient
    private var loop: BackgroundLoop?
    static let scopes = ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem", "https://purl.imsglobal.org/spec/lti-ags/scope/score"]

    init(database: ConnectionPool, tokens: PlatformTokens, client: HTTPClient) {
        self.database = database
        self.tokens = tokens
        self.client = client
    }

    func start() {
        let loop = BackgroundLoop(name: "lti-scores", interval: 15) { [self] in sendDue() }
        self.loop = loop
        loop.start()
    }

    func stop() { loop?.stop() }

    /// Sends what is due now (a graded session just finished).
    func wake() { loop?.wake() }

    /// Sends every score due now; how many went and how many must wait.
    @discardableResult
    func sendDue() -> (sent: Int, failed: Int) {
        var sent = 0, failed = 0
        do {
            while true {
                let due = try database.withConnection { try LTIScoreOutbox().takeDue(limit: 20, $0) }
                if due.isEmpty { break }
                for score in due {
                    do {
                        try send(score)
                        try database.withConnection { try LTIScoreOutbox().sent(sessionID: score.sessionID, $0) }
                        sent += 1
                    } catch {
                        try database.withConnection { try LTIScoreOutbox().failed(sessionID: score.sessionID, reason: "\(error)", $0) }
                        failed += 1
                    }
                }
            }
        } catch {
            FileHandle.standardError.write(Data("lti: sending scores failed: \(error)\n".utf8))
        }
        return (sent, failed)
    }

    /// Why a platform did not take a score.
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    private func send(_ score: LTIScoreOutbox.DueScore) throws {
        let token = try tokens.token(tokenURL: score.tokenURL, clientID: score.clientID, scopes: Self.scopes)
        let stamp = ISO8601DateFormatter()
        stamp.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let body: JSONValue = .object([
            "userId": .string(score.subject), "scoreGiven": .number(score.scoreGiven), "scoreMaximum": .number(score.scoreMaximum),
            "activityProgress": .string("Completed"), "gradingProgress": .string("FullyGraded"), "timestamp": .string(stamp.string(from: score.finishedAt)),
        ])
        let response = try client.send(
            "POST", Self.scoresURL(score.lineItemURL),
            headers: [("Authorization", "Bearer " + token), ("Content-Type", "application/vnd.ims.lis.v1.score+json")],
            body: Array(try JSONEncoder().encode(body)))
        if response.status == 401 { tokens.forget(tokenURL: score.tokenURL, clientID: score.clientID, scopes: Self.scopes) }
        guard (200..<300).contains(response.status) else {
            throw Refused(description: "the platform answered \(response.status) for the score")
        }
    }

    /// The line item's score service: `/scores` after its path, before any query.
    static func scoresURL(_ lineItem: String) -> String {
        let parts = lineItem.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts[0] + "/scores" + (parts.count > 1 ? "?" + parts[1] : "")
    }
}
