import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A connected byte stream with a deadline: plain TCP, or TLS over it.
package protocol Channel {
    func write(_ bytes: [UInt8]) throws(ClientError.Cause)
    /// The next bytes, or nil at the end of the stream.
    func read() throws(ClientError.Cause) -> [UInt8]?
    func close()
}

extension Channel {
    /// Sets the socket's send and receive timeouts to the time left before `deadline`.
    package static func limit(_ socket: Int32, to deadline: Date) throws(ClientError.Cause) {
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else { throw .timedOut }
        var value = timeval(tv_sec: Int(left), tv_usec: Int((left - Double(Int(left))) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}

/// Plain TCP (loopback only, by the client's rule).
package final class PlainChannel: Channel {
    let socket: Int32
    let deadline: Date

    package init(socket: Int32, deadline: Date) {
        self.socket = socket
        self.deadline = deadline
    }

    package func write(_ bytes: [UInt8]) throws(ClientError.Cause) {
        var sent = 0
        while sent < bytes.count {
            try Self.limit(socket, to: deadline)
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .connectionLost }
            sent += count
        }
    }

    package func read() throws(ClientError.Cause) -> [UInt8]? {
        try Self.limit(socket, to: deadline)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count == 0 { return nil }
        guard count > 0 else { throw errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .connectionLost }
        return Array(buffer.prefix(count))
    }

    package func close() { _ = Glibc.close(socket) }
}
