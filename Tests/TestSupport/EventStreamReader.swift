import Foundation

/// Reads Server-Sent Events from a chunked `text/event-stream` response, one event at a time.
public final class EventStreamReader {
    public struct Event: Sendable, Equatable {
        public var name: String
        public var data: String
    }

    public let client: RawHTTPClient
    public let status: Int
    /// What arrived and is not yet read: `pending[head...]`, searched for a blank line up to
    /// `searched` (a reader far behind a busy stream holds many events; each is found once).
    private var pending: [UInt8] = []
    private var head = 0
    private var searched = 0

    /// Opens `path` with these cookies and reads the response head.
    public init(port: Int, path: String, cookies: [String: String] = [:], timeout: Double = 10) throws {
        client = try RawHTTPClient(port: port, timeout: timeout)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        if !cookies.isEmpty { head += "Cookie: " + cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") + "\r\n" }
        client.send(head + "\r\n")
        status = client.readHeadOnly()?.status ?? 0
    }

    /// The next event, or nil when the stream ends or nothing arrives in time.
    public func next() -> Event? {
        while true {
            if let end = blankLine() {
                let text = String(decoding: pending[head..<end], as: UTF8.self)
                head = end + 2
                searched = head
                if head > 65_536 { pending.removeFirst(head); (head, searched) = (0, 0) }
                var name = "message", data: [String] = []
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                if data.isEmpty && name == "message" { continue }  // a comment
                return Event(name: name, data: data.joined(separator: "\n"))
            }
            guard let chunk = client.readChunk() else { return nil }
            pending += chunk
        }
    }

    /// Where the next event's blank line begins, searching only what was not searched before.
    private func blankLine() -> Int? {
        var index = max(head, searched - 1)
        while index + 1 < pending.count {
            if pending[index] == 10, pending[index + 1] == 10 { return index }
            index += 1
        }
        searched = pending.count
        return nil
    }

    /// Skips events until one named `name` arrives.
    public func next(named name: String) -> Event? {
        while let event = next() {
            if event.name == name { return event }
        }
        return nil
    }
}
