import Foundation
import HTTPClient
#if canImport(Glibc)
import Glibc
#endif

/// Submits messages to the configured server (RFC 5321, RFC 6409): TLS always — STARTTLS on
/// 587, which must be offered, or TLS from the start on 465 — with the certificate verified
/// against the host name, then AUTH PLAIN (or LOGIN) when credentials are set, one message per
/// connection, a deadline for the whole exchange. The server is the operator's own, so its
/// address may be a private one.
public struct SMTPClient: Sendable {
    public let server: MailServer
    /// Seconds for the whole exchange.
    public var timeout: Double
    /// Certificates to trust instead of the system's (`OUTBOUND_CA_FILE`).
    public var trustedCertificates: String?

    public init(server: MailServer, timeout: Double = 30, trustedCertificates: String? = nil) {
        self.server = server
        self.timeout = timeout
        self.trustedCertificates = trustedCertificates
    }

    /// Hands `message` over; returns when the server accepted it (`250` after the data).
    public func send(_ message: MailMessage) throws(MailError) {
        let deadline = Date().addingTimeInterval(timeout)
        // The operator's server: any address, loopback included.
        let everywhere = OutboundAddresses(allowed: ["0.0.0.0/0", "::/0"].compactMap(AddressRange.init), allowsLoopback: true)
        let socket: Int32
        do throws(ClientError.Cause) {
            socket = try HTTPClient.connect(host: server.host, port: server.port, addresses: everywhere, deadline: deadline)
        } catch {
            throw MailError(error)
        }
        var conversation: SMTPConversation
        do throws(ClientError.Cause) {
            let channel: Channel = server.implicitTLS
                ? try TLSChannel(socket: socket, host: server.host, trusted: trustedCertificates, deadline: deadline)
                : PlainChannel(socket: socket, deadline: deadline)
            conversation = SMTPConversation(channel: channel)
        } catch {
            close(socket)
            throw MailError(error)
        }
        defer { conversation.channel.close() }
        try conversation.expect(220, after: "CONNECT")
        var extensions = try conversation.hello()
        if !server.implicitTLS {
            guard extensions.contains("STARTTLS") else { throw .noStartTLS }
            try conversation.command("STARTTLS", expecting: 220)
            do throws(ClientError.Cause) {
                // The plain channel's socket goes on under TLS; nothing read before is kept.
                conversation = SMTPConversation(channel: try TLSChannel(socket: socket, host: server.host, trusted: trustedCertificates, deadline: deadline))
            } catch {
                throw MailError(error)
            }
            extensions = try conversation.hello()
        }
        if let username = server.username {
            try authenticate(username: username, password: server.password ?? "", extensions: extensions, &conversation)
        }
        try conversation.command("MAIL FROM:<\(server.from.text)>", expecting: 250)
        try conversation.command("RCPT TO:<\(message.to.text)>", expecting: 250, 251)
        try conversation.command("DATA", expecting: 354)
        try conversation.send(Self.dotStuffed(message.rendered()) + ".\r\n", verb: "DATA")
        try conversation.expect(250, after: "DATA")
        try? conversation.command("QUIT", expecting: 221)
    }

    private func authenticate(username: String, password: String, extensions: Set<String>, _ conversation: inout SMTPConversation) throws(MailError) {
        let encode = { (text: String) in Data(text.utf8).base64EncodedString() }
        if extensions.contains("AUTH PLAIN") {
            try conversation.command("AUTH PLAIN " + encode("\0\(username)\0\(password)"), expecting: 235, verb: "AUTH")
        } else if extensions.contains("AUTH LOGIN") {
            try conversation.command("AUTH LOGIN", expecting: 334, verb: "AUTH")
            try conversation.command(encode(username), expecting: 334, verb: "AUTH")
            try conversation.command(encode(password), expecting: 235, verb: "AUTH")
        } else {
            throw .noUsableAuthentication
        }
    }

    /// A line that begins with a dot gets another (RFC 5321 §4.5.2).
    static func dotStuffed(_ text: String) -> String {
        (text.hasPrefix(".") ? "." : "") + text.replacingOccurrences(of: "\r\n.", with: "\r\n..")
    }
}
