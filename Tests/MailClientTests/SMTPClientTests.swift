import Foundation
import MailClient
import TestSupport
import Testing

/// The SMTP client against a real server on loopback (aiosmtpd) that insists on STARTTLS and
/// AUTH: a message arrives whole, over TLS, authenticated, with its headers encoded; the client
/// refuses to go on in the clear, and says which answer stopped it.
@Suite("Outbound mail", .onTestThreads)
struct SMTPClientTests {
    static func message(to: String, subject: String = "Reset your password", name: String = "Zoë Šťastná") -> MailMessage {
        MailMessage(
            from: MailAddress("portal@school.example")!, fromName: "Study Portal · Schule", to: MailAddress(to)!, toName: name,
            subject: subject, text: "Hello,\n.\nA line with a dot above, and ümlauts.", html: "<p>Hello, <b>ümlauts</b></p>", language: "de",
            date: Date(timeIntervalSince1970: 1_796_000_000), messageID: "0b7c3f2e@school.example")
    }

    static func client(_ server: TestMailServer, url: String? = nil) throws -> SMTPClient {
        SMTPClient(
            server: try MailServer(url: url ?? server.url, from: "Study Portal <portal@school.example>"), timeout: 15,
            trustedCertificates: server.certificates.authority)
    }

    @Test("a message goes over STARTTLS with AUTH PLAIN and arrives with its headers and both parts")
    func delivered() throws {
        let server = try TestMailServer()
        try Self.client(server).send(Self.message(to: "ana@pupils.example", subject: "Passwort zurücksetzen – ein sehr langer Betreff, der über mehrere Wörter geht"))
        let received = try #require(server.waitForMessages(1).first)
        #expect(received.tls && received.user == server.username, "over TLS and signed in")
        #expect(received.from == "portal@school.example" && received.to == ["ana@pupils.example"])
        #expect(received.header("Date") == "Mon, 30 Nov 2026 00:53:20 +0000")
        #expect(received.header("Message-ID") == "<0b7c3f2e@school.example>")
        #expect(received.header("Auto-Submitted") == "auto-generated")
        #expect(received.header("Content-Language") == "de")
        let subject = try #require(received.header("Subject"))
        #expect(subject.hasPrefix("=?UTF-8?B?") && Self.decodedWords(subject) == "Passwort zurücksetzen – ein sehr langer Betreff, der über mehrere Wörter geht")
        #expect(received.data.components(separatedBy: "\r\n").filter { $0.utf8.count > 78 } == [], "no line longer than RFC 5322 asks")
        let to = try #require(received.header("To"))
        #expect(Self.decodedWords(String(to.prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)) == "Zoë Šťastná" && to.hasSuffix("<ana@pupils.example>"))
        #expect(received.header("From") == "\"Study Portal · Schule\" <portal@school.example>" || Self.decodedWords(String(received.header("From")!.prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)) == "Study Portal · Schule")
        #expect(received.header("Content-Type")?.hasPrefix("multipart/alternative; boundary=") == true)
        #expect(received.part("text/plain") == "Hello,\r\n.\r\nA line with a dot above, and ümlauts.")
        #expect(received.part("text/html") == "<p>Hello, <b>ümlauts</b></p>")
    }

    @Test("AUTH LOGIN when the server offers no PLAIN; a wrong password is refused with the server's answer")
    func loginAndWrongPassword() throws {
        let server = try TestMailServer(flags: ["--login-only"])
        try Self.client(server).send(Self.message(to: "ben@pupils.example"))
        #expect(server.waitForMessages(1).first?.user == server.username)
        let wrong = try Self.client(server, url: "smtp://\(server.username):nope@127.0.0.1:\(server.port)")
        let error = #expect(throws: MailError.self) { try wrong.send(Self.message(to: "ben@pupils.example")) }
        if case .refused(let command, let code, _) = error { #expect(command == "AUTH" && code == 535) } else { Issue.record("not refused: \(String(describing: error))") }
        #expect(!String(describing: error).contains("nope"), "the password never reaches an error")
        #expect(server.messages().count == 1)
    }

    @Test("no STARTTLS on offer: nothing is sent in the clear")
    func noStartTLS() throws {
        let server = try TestMailServer(flags: ["--no-starttls"])
        #expect(throws: MailError.noStartTLS) { try Self.client(server).send(Self.message(to: "ana@pupils.example")) }
        #expect(server.messages().isEmpty)
    }

    @Test("a certificate the trusted authority did not sign stops the exchange before AUTH")
    func untrustedCertificate() throws {
        let server = try TestMailServer()
        let client = SMTPClient(server: try MailServer(url: server.url, from: "portal@school.example"), timeout: 15)
        let error = #expect(throws: MailError.self) { try client.send(Self.message(to: "ana@pupils.example")) }
        #expect(String(describing: error).contains("TLS"))
        #expect(server.messages().isEmpty)
    }

    @Test("a refused recipient is permanent, a deferred one is worth another try")
    func refusals() throws {
        let server = try TestMailServer()
        let refused = #expect(throws: MailError.self) { try Self.client(server).send(Self.message(to: "refuse@pupils.example")) }
        #expect(refused?.isPermanent == true)
        let later = #expect(throws: MailError.self) { try Self.client(server).send(Self.message(to: "later@pupils.example")) }
        #expect(later?.isPermanent == false)
    }

    @Test("settings: smtp and smtps with their ports, credentials percent-decoded, a sender with a name; nonsense refused")
    func settings() throws {
        let submission = try MailServer(url: "smtp://me%40school:p%3Ass@mail.school.example", from: "Study Portal <portal@school.example>")
        #expect(submission.port == 587 && !submission.implicitTLS && submission.username == "me@school" && submission.password == "p:ss")
        #expect(submission.from.text == "portal@school.example" && submission.fromName == "Study Portal")
        let implicit = try MailServer(url: "smtps://mail.school.example", from: "portal@school.example")
        #expect(implicit.port == 465 && implicit.implicitTLS && implicit.username == nil)
        #expect(throws: MailServer.Problem.self) { try MailServer(url: "http://mail.school.example", from: "portal@school.example") }
        #expect(throws: MailServer.Problem.self) { try MailServer(url: "smtp://mail.school.example", from: "not an address") }
        for bad in ["a@b", "a b@c.example", "a@b..example", "<a@b.example>", "a@b.example\r\nBcc: x@y.example", "ä@b.example", String(repeating: "a", count: 65) + "@b.example"] {
            #expect(MailAddress(bad) == nil, "\(bad) is not an address the portal sends to")
        }
        #expect(MailAddress(" Ana.Lee+study@Pupils.example ")?.text == "Ana.Lee+study@Pupils.example")
    }

    /// The text of RFC 2047 encoded words (base64 ones), joined.
    static func decodedWords(_ value: String) -> String {
        value.split(separator: " ").map { word -> String in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?=") else { return String(word) }
            return Data(base64Encoded: String(word.dropFirst(10).dropLast(2))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }.joined()
    }
}
