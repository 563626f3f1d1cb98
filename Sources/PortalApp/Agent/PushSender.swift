import ExamData
import Foundation
import HTTPClient
import PostgresClient
import WebPush
import WebToken

/// Sends the reminders due on students' installed sites (Web Push), in `portal auth-agent`: the
/// portal's VAPID key made once and kept in the database (only this role reads its private
/// half), each reminder worded in the student's language, encrypted for the device (RFC 8291)
/// and posted to its push service signed (RFC 8292). A service that says the subscription is
/// gone (404, 410) has it forgotten; any other refusal is logged and the reminder dropped (the
/// next comes tomorrow).
struct PushSender: Sendable {
    let database: ConnectionPool
    let client: HTTPClient
    let pages: PageRenderer
    /// The contact a push service sees in the VAPID claims: the site's address when it is https.
    let contact: String?
    let clock: @Sendable () -> Date

    /// How long a push service keeps a reminder for a device that is offline: until the day is over.
    static let timeToLive = 12 * 3_600

    /// The VAPID key, made and kept on first use.
    func signingKey() throws -> P256Key {
        let store = PushReminders()
        if let pem = try database.withConnection({ try store.signingKey($0) }) { return try P256Key.privateKey(pem: pem) }
        let made = try P256Key.generate()
        let kept = try database.withConnection { try store.storeKey(pem: made.pem, point: made.publicPoint, $0) }
        return try P256Key.privateKey(pem: kept)
    }

    /// Sends the reminders due now; how many were accepted by their push services.
    func sendDue() -> Int {
        var delivered = 0
        let store = PushReminders()
        do {
            let key = try signingKey()
            while true {
                let due = try database.withConnection { try store.take(limit: 50, $0) }
                for device in due where send(device, key: key) { delivered += 1 }
                if due.count < 50 { break }
            }
        } catch {
            AuthAgent.log("auth-agent: push reminders could not be sent: \(error)")
        }
        return delivered
    }

    /// The reminder's payload, as the service worker reads it.
    func payload(_ device: PushReminders.Due) -> [UInt8] {
        let minutes = max(1, (device.reviews * device.secondsPerReview + 59) / 60)
        let arguments = ["count": String(device.reviews), "minutes": String(minutes)]
        let object: [String: String] = [
            "title": pages.message("push.title", locale: device.locale, arguments, count: Double(device.reviews)),
            "body": pages.message("push.body", locale: device.locale, arguments, count: Double(device.reviews)),
            "url": "/me", "tag": "reviews",
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map(Array.init) ?? []
    }

    private func send(_ device: PushReminders.Due, key: P256Key) -> Bool {
        do {
            let subscriber = try P256Key.publicKey(device.p256dh)
            let body = try WebPushEncryption.encrypt(payload(device), subscriber: subscriber, authSecret: device.auth)
            let authorization = try VAPID.authorization(
                endpoint: device.endpoint, key: key, subject: contact, expires: clock().addingTimeInterval(12 * 3_600))
            let response = try client.send("POST", device.endpoint, headers: [
                ("Authorization", authorization), ("TTL", String(Self.timeToLive)), ("Content-Encoding", "aes128gcm"),
                ("Content-Type", "application/octet-stream"), ("Urgency", "normal"), ("Topic", "reviews"),
            ], body: body)
            switch response.status {
            case 200..<300: return true
            case 404, 410:
                try database.withConnection { try PushReminders().gone(device.subscription, $0) }
            default:
                AuthAgent.log("auth-agent: a push service refused a reminder (\(response.status))")
            }
        } catch {
            AuthAgent.log("auth-agent: a push reminder could not be sent: \(error)")
        }
        return false
    }
}
