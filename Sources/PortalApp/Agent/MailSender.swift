import ExamData
import Foundation
import MailClient
import PostgresClient

/// Sends the outbox's messages, in `portal auth-agent` as portal_agent (the only role that may
/// take them, since a message may carry a link's token): due messages are taken for a short
/// lease, each link built from this process's own origin and the token the database made, the
/// message handed to the mail server, and marked sent — its token and bodies erased — or put
/// back to try again after a growing wait, or given up when the server refuses it for good.
/// `Message-ID` is the outbox row's, so a message sent twice after a crash reads as one.
struct MailSender: Sendable {
    let database: ConnectionPool
    let client: SMTPClient
    /// `PUBLIC_URL`: where links in messages point.
    let linkOrigin: String
    let clock: @Sendable () -> Date

    /// Where a reminder's link to turn reminders off points (`mail_digest_queue` queues it).
    static let unsubscribePath = "/unsubscribe/"

    /// Words and queues the reminders due now (`mail_digests_take` chooses the students); how many.
    func queueDigests(wording: MailWording) -> Int {
        var queued = 0
        let digests = MailDigests()
        do {
            while true {
                let due = try database.withConnection { try digests.take(limit: 50, $0) }
                for student in due where try database.withConnection({ try digests.queue(try wording.digest(student), to: student.userID, $0) }) {
                    queued += 1
                }
                if due.count < 50 { break }
            }
        } catch {
            AuthAgent.log("auth-agent: reminders could not be queued: \(error)")
        }
        return queued
    }

    /// Sends everything due now; how many went and how many must wait.
    func sendDue() -> (sent: Int, failed: Int) {
        var sent = 0, failed = 0
        let outbox = MailOutbox()
        do {
            while true {
                let due = try database.withConnection { try outbox.takeDue(limit: 20, $0) }
                if due.isEmpty { break }
                for item in due {
                    do {
                        try client.send(message(item))
                        try database.withConnection { try outbox.sent(item.id, $0) }
                        sent += 1
                    } catch let error as MailError {
                        AuthAgent.log("auth-agent: a message could not be sent: \(error)")
                        try database.withConnection { try outbox.failed(item.id, reason: error.description, permanent: error.isPermanent, $0) }
                        failed += 1
                    }
                }
            }
        } catch {
            AuthAgent.log("auth-agent: the outbox could not be read: \(error)")
        }
        return (sent, failed)
    }

    /// The message of an outbox row, its link (if any) in place of the mark.
    func message(_ item: MailOutbox.Due) throws(MailError) -> MailMessage {
        guard let recipient = MailAddress(item.recipient) else { throw .refused(command: "RCPT", code: 553, text: "not an address the portal sends to") }
        var text = item.text.replacingOccurrences(of: MailWording.siteMark, with: linkOrigin)
        var html = item.html.replacingOccurrences(of: MailWording.siteMark, with: linkOrigin)
        var headers: [(name: String, value: String)] = []
        if let path = item.linkPath, let secret = item.secret {
            let link = linkOrigin + path + secret
            text = text.replacingOccurrences(of: MailDraft.linkMark, with: link)
            html = html.replacingOccurrences(of: MailDraft.linkMark, with: link)
            // A reminder's link turns reminders off: mail clients offer it themselves, in one
            // click (RFC 2369, RFC 8058).
            if path == Self.unsubscribePath {
                headers = [("List-Unsubscribe", "<\(link)>"), ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")]
            }
        }
        var message = MailMessage(
            from: client.server.from, fromName: client.server.fromName, to: recipient, toName: item.recipientName, subject: item.subject,
            text: text, html: html, language: item.locale, date: clock(), messageID: "\(item.id.uuidString.lowercased())@\(client.server.from.domain)")
        message.extraHeaders += headers
        return message
    }
}
