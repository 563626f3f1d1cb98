import Foundation

/// Reads Server-Sent Events from a chunked `text/event-stream` response, one event at a time.
public final class EventStreamReader {
    public struct Event: Sendable, Equatable {
        public var name: String
        public var data: String
    }

    public let client: RawHTTPClient
    public let status: Int
    private var pending: [UInt8] = []

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
            if let end = (0..<max(0, pending.count - 1)).first(where: { pending[$0] == 10 && pending[$0 + 1] == 10 }) {
                let text = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
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

    /// Skips events until one named `name` arrives.
    public func next(named name: String) -> Event? {
        while let event = next() {
            if event.name == name { return event }
        }
        return nil
    }
}
