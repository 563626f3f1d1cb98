import Foundation
import HTTPClient
#if canImport(Glibc)
import Glibc
#endif

/// Commands and replies over one channel: a reply's lines read up to the one whose code is
/// followed by a space (RFC 5321 §4.2), at most 64 KiB of them.
struct SMTPConversation {
    let channel: Channel
    private var buffer: [UInt8] = []

    init(channel: Channel) {
        self.channel = channel
    }

    /// Sends EHLO; the extensions offered, upper-cased, each as its first words (`AUTH PLAIN`,
    /// `AUTH LOGIN` split from `AUTH PLAIN LOGIN`, `STARTTLS`, …).
    mutating func hello() throws(MailError) -> Set<String> {
        var name = [UInt8](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0 ? String(decoding: name.prefix { $0 != 0 }, as: UTF8.self) : "localhost"
        try send("EHLO \(host.isEmpty ? "localhost" : host)\r\n", verb: "EHLO")
        let (code, lines) = try reply()
        guard code == 250 else { throw .refused(command: "EHLO", code: code, text: lines.joined(separator: " ")) }
        var offered: Set<String> = []
        for line in lines.dropFirst() {
            let words = line.uppercased().split(separator: " ").map(String.init)
            guard let first = words.first else { continue }
            offered.insert(first)
            if first == "AUTH" { words.dropFirst().forEach { offered.insert("AUTH " + $0) } }
        }
        return offered
    }

    /// Sends a command and reads its reply, which must carry one of `codes`. `verb` names the
    /// command in errors (so a credential never reaches a log).
    mutating func command(_ line: String, expecting codes: Int..., verb: String? = nil) throws(MailError) {
        let name = verb ?? String(line.prefix { $0 != " " && $0 != ":" })
        try send(line + "\r\n", verb: name)
        let (code, lines) = try reply()
        guard codes.contains(code) else { throw .refused(command: name, code: code, text: lines.joined(separator: " ")) }
    }

    /// Reads a reply that must carry `code`.
    mutating func expect(_ code: Int, after command: String) throws(MailError) {
        let (received, lines) = try reply()
        guard received == code else { throw .refused(command: command, code: received, text: lines.joined(separator: " ")) }
    }

    func send(_ text: String, verb: String) throws(MailError) {
        do throws(ClientError.Cause) {
            try channel.write(Array(text.utf8))
        } catch {
            throw MailError(error)
        }
    }

    /// One reply: its code and the text of each line.
    mutating func reply() throws(MailError) -> (code: Int, lines: [String]) {
        var lines: [String] = []
        while true {
            let line = try nextLine()
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)), (200...599).contains(code) else {
                throw .malformedReply(line)
            }
            lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
            if bytes.count == 3 || bytes[3] == UInt8(ascii: " ") { return (code, lines) }
            guard bytes[3] == UInt8(ascii: "-"), lines.count < 200 else { throw .malformedReply(line) }
        }
    }

    private mutating func nextLine() throws(MailError) -> String {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard buffer.count < 65_536 else { throw .malformedReply("a reply line longer than 64 KiB") }
            let chunk: [UInt8]?
            do throws(ClientError.Cause) {
                chunk = try channel.read()
            } catch {
                throw MailError(error)
            }
            guard let chunk else { throw .unreachable(ClientError.Cause.connectionLost.description) }
            buffer += chunk
        }
    }
}
