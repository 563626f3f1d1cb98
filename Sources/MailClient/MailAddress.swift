import Foundation

/// An e-mail address as the portal sends to it: ASCII (no SMTPUTF8), one `@`, a domain with a
/// dot or a bracketed literal, at most 254 characters, and nothing that could break a header or
/// an SMTP command (spaces, angle brackets, quotes, control characters).
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    /// Nil when `text` is not an address the portal sends to.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard (3...254).contains(trimmed.utf8.count), trimmed.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, (1...64).contains(local.utf8.count), !domain.isEmpty else { return nil }
        let forbidden = Set("<>()[]\\,;:\"")
        guard !local.contains(where: { forbidden.contains($0) }), !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else { return nil }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ label in
            (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }) else { return nil }
        self.text = trimmed
    }

    /// The part after `@`, for a message's `Message-ID`.
    public var domain: String { String(text[text.index(after: text.lastIndex(of: "@")!)...]) }

    public var description: String { text }
}
