import Foundation
import Glibc

/// A blocking TCP client for tests that speak HTTP byte by byte, the way a hostile or broken
/// client would.
public final class RawHTTPClient {
    public let fd: Int32

    /// A response as read off the wire.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
    public init(port: Int, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TestEnvironmentError("connect to port \(port): \(String(cString: strerror(code)))")
        }
        var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { Glibc.close(fd) }

    private var buffer: [UInt8] = []

    /// Sends bytes; false when the peer has closed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends one byte at a time.
    @discardableResult
    public func sendSlowly(_ bytes: [UInt8]) -> Bool {
        for byte in bytes where !send([byte]) { return false }
        return true
    }

    /// Reads more bytes; 0 at end of stream, -1 on timeout or error.
    private func fill() -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { buffer += chunk[0..<count] }
        return count
    }

    /// Reads one response (`forHead` for a response to HEAD, which has no body).
    public func readResponse(forHead: Bool = false) -> Response? {
        while true {
            guard var response = readHeadOnly() else { return nil }
            if response.status == 100 { continue }
            if forHead || response.status == 204 || response.status == 304 { return response }
            if let length = response.header("Content-Length").flatMap(Int.init) {
                while buffer.count < length { if fill() <= 0 { return nil } }
                response.body = Array(buffer[0..<length])
                buffer.removeFirst(length)
                return response
            }
            // Delimited by close.
            while fill() > 0 {}
            response.body = buffer
            buffer.removeAll()
            return response
        }
    }

    /// Reads a response head only, leaving the body to be read in pieces (an event stream).
    public func readHeadOnly() -> Response? {
        while true {
            if let end = findHeadEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                buffer.removeFirst(end + 4)
                return Response(status: status, headers: headers, body: [])
            }
            if fill() <= 0 { return nil }
        }
    }

    /// Reads the next chunk of a chunked body; nil at its end, on a timeout or a framing error.
    public func readChunk() -> [UInt8]? {
        func line() -> String? {
            while true {
                if let end = (0..<max(0, buffer.count - 1)).first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                    let text = String(decoding: buffer[0..<end], as: UTF8.self)
                    buffer.removeFirst(end + 2)
                    return text
                }
                if fill() <= 0 { return nil }
            }
        }
        guard let sizeLine = line(), let size = Int(sizeLine.split(separator: ";")[0], radix: 16), size > 0 else { return nil }
        while buffer.count < size + 2 { if fill() <= 0 { return nil } }
        let chunk = Array(buffer[0..<size])
        buffer.removeFirst(size + 2)
        return chunk
    }

    /// Reads whatever arrives until the peer closes or `timeout` passes.
    public func readAvailable() -> [UInt8] {
        while fill() > 0 {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server closed the connection (end of stream) within the read timeout.
    public func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count > 0 { buffer.append(byte) }
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
