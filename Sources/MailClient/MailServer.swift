import Foundation

/// Where mail is submitted and as whom: `SMTP_URL` (`smtp://user:password@host:587`, STARTTLS
/// required, or `smtps://…:465`, TLS from the first byte) and `MAIL_FROM` (`Name <address>` or
/// an address). The user name and password are percent-decoded; without them nothing is
/// authenticated (a relay that trusts the portal's address).
public struct MailServer: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// `smtps://`: TLS from the first byte; otherwise STARTTLS, which must be offered.
    public var implicitTLS: Bool
    public var username: String?
    public var password: String?
    public var from: MailAddress
    public var fromName: String

    /// Why a mail setting cannot be used, in words for the operator.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    public init(url: String, from: String) throws(Problem) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), scheme == "smtp" || scheme == "smtps",
              let host = parts.host, !host.isEmpty, parts.path.isEmpty || parts.path == "/" else {
            throw Problem(description: "SMTP_URL must be smtp://[user:password@]host[:587] or smtps://[user:password@]host[:465], not \(Self.withoutPassword(url))")
        }
        implicitTLS = scheme == "smtps"
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = parts.port ?? (implicitTLS ? 465 : 587)
        username = parts.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        password = parts.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        guard let sender = Self.mailbox(from) else {
            throw Problem(description: "MAIL_FROM must be an address, or a name and an address as Name <address>, not \(from)")
        }
        self.from = sender.address
        fromName = sender.name
    }

    /// `Name <address>` or a bare address.
    static func mailbox(_ text: String) -> (name: String, address: MailAddress)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard let address = MailAddress(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])) else { return nil }
            return (name, address)
        }
        return MailAddress(trimmed).map { ("", $0) }
    }

    /// The URL as a log may show it.
    static func withoutPassword(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = "…"
        return parts.string ?? url
    }
}
