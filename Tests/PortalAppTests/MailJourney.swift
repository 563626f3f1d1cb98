import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A site that sends mail to the test's SMTP server, and the step of proving an address by the
/// code that mail carries.
enum MailJourney {
    /// A portal that sends mail through `server`, with `portal auth-agent`'s work on call.
    static func site(_ server: TestMailServer) throws -> PortalSite {
        try PortalSite(
            environment: ["SMTP_URL": server.url, "MAIL_FROM": "Study Portal <portal@school.example>", "OUTBOUND_CA_FILE": server.certificates.authority],
            agent: true)
    }

    /// Sets and proves `address` for the signed-in `browser`; the message it got.
    static func prove(_ address: String, _ browser: Browser, _ site: PortalSite, _ server: TestMailServer, expecting count: Int) throws -> TestMailServer.Received? {
        let asked = try browser.submit("/me/settings", to: "/me/email", ["email": address])
        #expect(asked.status == 303 && asked.header("Location") == "/me/settings?email=sent#email")
        site.agent!.sendMail()
        let message = server.waitForMessages(count).last
        let path = try #require(Self.link("/verify-email/", in: message))
        let opened = try site.browser().request("GET", path)
        #expect(opened.status == 200 && opened.bodyText.contains("Confirm the address"), "a mail scanner's fetch proves nothing")
        let confirmed = try site.browser().submit(path, to: path, [:])
        #expect(confirmed.status == 200 && confirmed.bodyText.contains("this address is now your account"), "\(confirmed.bodyText)")
        return message
    }

    /// The path of the link in a message's plain text (`/reset/…`, `/verify-email/…`).
    static func link(_ prefix: String, in message: TestMailServer.Received?) -> String? {
        guard let text = message?.part("text/plain"), let range = text.range(of: "http://127.0.0.1:") else { return nil }
        let url = text[range.lowerBound...].prefix { !$0.isWhitespace }
        guard let path = url.range(of: prefix) else { return nil }
        return String(url[path.lowerBound...])
    }
}
