import Foundation

/// One message as the portal sends it: `multipart/alternative` with a plain-text and an HTML
/// part (UTF-8, base64), in the reader's language, with `Date`, `Message-ID` and
/// `Auto-Submitted: auto-generated`; names and subjects beyond ASCII as RFC 2047 encoded words.
public struct MailMessage: Sendable {
    public var from: MailAddress
    public var fromName: String
    public var to: MailAddress
    public var toName: String
    public var subject: String
    public var text: String
    public var html: String
    /// The language of the text (`Content-Language`).
    public var language: String
    public var date: Date
    /// Unique per message and the same on every attempt (`<id@domain>`), so a receiver that
    /// got a message twice can tell.
    public var messageID: String
    /// Further fields (e.g. `List-Unsubscribe`), ASCII, without line breaks.
    public var extraHeaders: [(name: String, value: String)]

    public init(
        from: MailAddress, fromName: String, to: MailAddress, toName: String, subject: String, text: String, html: String, language: String,
        date: Date, messageID: String, extraHeaders: [(name: String, value: String)] = []
    ) {
        self.from = from
        self.fromName = fromName
        self.to = to
        self.toName = toName
        self.subject = subject
        self.text = text
        self.html = html
        self.language = language
        self.date = date
        self.messageID = messageID
        self.extraHeaders = extraHeaders
    }

    /// The message as sent after `DATA` (before dot-stuffing), lines ending in CRLF.
    public func rendered(boundary: String = "=_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")) -> String {
        var head: [String] = [
            "Date: " + Self.dateText(date),
            "From: " + HeaderEncoding.mailbox(name: fromName, address: from),
            "To: " + HeaderEncoding.mailbox(name: toName, address: to),
            "Subject: " + HeaderEncoding.unstructured(subject),
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Auto-Submitted: auto-generated",
            "Content-Language: " + language,
        ]
        for (name, value) in extraHeaders where !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) {
            head.append("\(name): \(value)")
        }
        head.append("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"")
        var lines = head + ["", "This is a message in two forms: plain text and HTML."]
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            lines += ["--" + boundary, "Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", ""]
            lines += Self.base64Lines(Array(Self.normalisedLineEnds(body).utf8))
        }
        lines.append("--" + boundary + "--")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 5322's date: `Sat, 05 Dec 2026 06:50:00 +0000`.
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// Lines of at most 76 characters.
    static func base64Lines(_ bytes: [UInt8]) -> [String] {
        let encoded = Data(bytes).base64EncodedString()
        return stride(from: 0, to: encoded.count, by: 76).map { start in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            return String(encoded[from..<(encoded.index(from, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
        }
    }

    /// Text with CRLF line ends, as a text part's lines must be on the wire.
    static func normalisedLineEnds(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
    }
}
