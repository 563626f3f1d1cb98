import ExamData
import Foundation
import HTTPServer
import OfflineBundle
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// The offline progress upload as a device sends it (`POST /api/progress`): its JSON body for the
/// mini exam, and its answer.
enum ProgressUpload {
    struct Outcome: Decodable {
        struct Rejection: Decodable { var id: String; var reason: String }
        var accepted: [String]
        var duplicates: [String]
        var rejected: [Rejection]
        var finishedSessions: [String]
    }

    static func body(
        session: UUID, answers: [(UUID, MiniExam.Item, [Int])], finished: Bool, questionIDs: [UUID] = MiniExam.items.map(\.id), mode: String? = nil
    ) -> String {
        let iso = ISO8601DateFormatter()
        let now = Date()
        let modeJSON = mode.map { "\"mode\": \"\($0)\", " } ?? ""
        let sessionJSON = """
            {"id": "\(session)", \(modeJSON)"region": "\(MiniExam.region)", "exam": "\(MiniExam.exam)", "startedAt": "\(iso.string(from: now.addingTimeInterval(-600)))",
             "questionIds": [\(questionIDs.map { "\"\($0)\"" }.joined(separator: ","))]\(finished ? ", \"finishedAt\": \"\(iso.string(from: now.addingTimeInterval(-10)))\"" : "")}
            """
        let answerJSON = answers.enumerated().map { index, answer in
            """
            {"id": "\(answer.0)", "sessionId": "\(session)", "questionId": "\(answer.1.id)", "questionVersion": 1, "response": [\(answer.2.map(String.init).joined(separator: ","))],
             "timeMs": 4000, "answeredAt": "\(iso.string(from: now.addingTimeInterval(Double(index) - 300)))", "correct": true}
            """
        }.joined(separator: ",")
        return "{\"sessions\": [\(sessionJSON)], \"answers\": [\(answerJSON)]}"
    }

    static func post(_ browser: Browser, csrf: String, _ body: String) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: browser.port)
        let bytes = Array(body.utf8)
        var head = "POST /api/progress HTTP/1.1\r\nHost: 127.0.0.1:\(browser.port)\r\nConnection: close\r\nContent-Type: application/json\r\n"
        head += "Content-Length: \(bytes.count)\r\nX-CSRF-Token: \(csrf)\r\n"
        if !browser.cookies.isEmpty { head += "Cookie: " + browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n" }
        client.send(Array((head + "\r\n").utf8) + bytes)
        return try #require(client.readResponse())
    }
}
