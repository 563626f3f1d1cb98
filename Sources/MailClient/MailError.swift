import HTTPClient

/// Why a message was not handed over.
public enum MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection, a failed TLS handshake, a lost connection or no answer in time.
    case unreachable(String)
    /// The server answered `code` to `command` (the command's verb; no secret is kept).
    case refused(command: String, code: Int, text: String)
    /// `smtp://` without STARTTLS on offer: the portal does not send in the clear.
    case noStartTLS
    /// Credentials are configured and the server offers neither AUTH PLAIN nor AUTH LOGIN.
    case noUsableAuthentication
    /// The server's reply is not SMTP.
    case malformedReply(String)

    /// Whether trying again cannot help: a 5xx answer to the recipient or the message.
    public var isPermanent: Bool {
        if case .refused(let command, let code, _) = self { return code >= 500 && (command == "RCPT" || command == "DATA" || command == "MAIL") }
        return false
    }

    public var description: String {
        switch self {
        case .unreachable(let reason): "the mail server could not be reached: \(reason)"
        case .refused(let command, let code, let text): "the mail server answered \(code) to \(command): \(text.prefix(300))"
        case .noStartTLS: "the mail server does not offer STARTTLS, and mail is never sent in the clear (use smtps:// for port 465)"
        case .noUsableAuthentication: "the mail server offers neither AUTH PLAIN nor AUTH LOGIN"
        case .malformedReply(let reply): "the mail server's reply is not SMTP: \(reply.prefix(200))"
        }
    }

    init(_ cause: ClientError.Cause) {
        self = .unreachable(cause.description)
    }
}
