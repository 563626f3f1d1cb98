import CHiredis
import Foundation

/// One connection to Redis through hiredis. Commands go as argument vectors (binary-safe, never
/// a formatted string), so no value can change a command's meaning. Not shared between threads
/// at once: take it from a `RedisPool`.
public final class RedisConnection: @unchecked Sendable {
    private var context: UnsafeMutablePointer<redisContext>?

    /// Connects, waiting at most `timeout` for the connection and for each reply. For a Sentinel
    /// endpoint, the sentinels are asked which server is the master now, and that server is
    /// asked to confirm it (after a failover the old master is a replica).
    public init(_ endpoint: RedisEndpoint, timeout: Duration = .seconds(2)) throws {
        switch endpoint {
        case .tcp, .unix:
            context = try Self.connect(endpoint, timeout: timeout)
        case .sentinel(let sentinels, let master):
            var problems: [String] = []
            for sentinel in sentinels {
                do {
                    let asked = try RedisConnection(.tcp(host: sentinel.host, port: sentinel.port), timeout: timeout)
                    let address = try asked.command(["SENTINEL", "get-master-addr-by-name", master]).elements
                    asked.close()
                    guard address.count == 2, let host = address[0].text, let port = address[1].text.flatMap(Int.init) else {
                        problems.append("\(sentinel.host):\(sentinel.port) knows no master \(master)")
                        continue
                    }
                    let context = try Self.connect(.tcp(host: host, port: port), timeout: timeout)
                    self.context = context
                    guard try command(["ROLE"]).elements.first?.text == "master" else {
                        close()
                        problems.append("\(host):\(port) is not the master yet")
                        continue
                    }
                    return
                } catch {
                    problems.append("\(sentinel.host):\(sentinel.port): \(error)")
                }
            }
            throw RedisError(.connection, "\(endpoint): no master found (\(problems.joined(separator: "; ")))")
        }
    }

    private static func connect(_ endpoint: RedisEndpoint, timeout: Duration) throws -> UnsafeMutablePointer<redisContext> {
        let seconds = timeout.components.seconds
        let micros = Int(timeout.components.attoseconds / 1_000_000_000_000)
        let interval = timeval(tv_sec: Int(seconds), tv_usec: micros)
        let context: UnsafeMutablePointer<redisContext>? = switch endpoint {
        case .tcp(let host, let port): redisConnectWithTimeout(host, Int32(port), interval)
        case .unix(let path): redisConnectUnixWithTimeout(path, interval)
        case .sentinel: nil
        }
        guard let context else { throw RedisError(.connection, "cannot connect to \(endpoint)") }
        if context.pointee.err != 0 {
            let message = Self.errorText(context)
            redisFree(context)
            throw RedisError(.connection, "\(endpoint): \(message)")
        }
        redisSetTimeout(context, interval)
        // A peer that vanished without closing (a partition, a frozen host) is noticed.
        if case .tcp = endpoint { _ = redisEnableKeepAlive(context) }
        return context
    }

    deinit { close() }

    /// Closes the connection; later commands fail.
    public func close() {
        if let context { redisFree(context) }
        context = nil
    }

    /// Whether the connection can still be used (no I/O error so far).
    public var isHealthy: Bool { context.map { $0.pointee.err == 0 } ?? false }

    /// Sends one command and waits for its reply. An error reply throws `.reply`; a broken
    /// connection throws `.connection` and leaves this connection unusable.
    @discardableResult
    public func command(_ arguments: [String]) throws -> RedisReply {
        guard let context, context.pointee.err == 0 else { throw RedisError(.connection, "the connection is closed") }
        let buffers = arguments.map { Array($0.utf8) }
        let raw: UnsafeMutableRawPointer? = withArgumentVector(buffers) { count, pointers, lengths in
            redisCommandArgv(context, count, pointers, lengths)
        }
        guard let raw else { throw RedisError(.connection, Self.errorText(context)) }
        defer { freeReplyObject(raw) }
        return try Self.reply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Waits for the next message pushed on this connection (after SUBSCRIBE).
    func nextPush() throws -> RedisReply {
        guard let context, context.pointee.err == 0 else { throw RedisError(.connection, "the connection is closed") }
        var raw: UnsafeMutableRawPointer?
        guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw RedisError(.connection, Self.errorText(context)) }
        defer { freeReplyObject(raw) }
        return try Self.reply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Shuts the socket down from another thread, so a blocked `nextPush` returns.
    func interrupt() {
        if let context, context.pointee.fd >= 0 { shutdown(context.pointee.fd, Int32(SHUT_RDWR)) }
    }

    /// Sets how long a read may wait (nil: for ever), for a subscriber's long waits.
    func setReadTimeout(_ timeout: Duration?) {
        guard let context else { return }
        let interval = timeout.map { timeval(tv_sec: Int($0.components.seconds), tv_usec: Int($0.components.attoseconds / 1_000_000_000_000)) } ?? timeval()
        redisSetTimeout(context, interval)
    }

    private func withArgumentVector<Result>(
        _ buffers: [[UInt8]], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int] = []
        var storage: [UnsafeMutablePointer<CChar>] = []
        defer { storage.forEach { $0.deallocate() } }
        for buffer in buffers {
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, buffer.count))
            buffer.withUnsafeBufferPointer { source in
                source.withMemoryRebound(to: CChar.self) { copy.update(from: $0.baseAddress!, count: buffer.count) }
            }
            storage.append(copy)
            pointers.append(UnsafePointer(copy))
            lengths.append(buffer.count)
        }
        return pointers.withUnsafeMutableBufferPointer { pointerBuffer in
            lengths.withUnsafeBufferPointer { lengthBuffer in
                body(Int32(buffers.count), pointerBuffer.baseAddress!, lengthBuffer.baseAddress!)
            }
        }
    }

    private static func reply(_ reply: UnsafeMutablePointer<redisReply>) throws -> RedisReply {
        let value = reply.pointee
        func text() -> String {
            guard let bytes = value.str else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(value.len)), as: UTF8.self)
        }
        switch value.type {
        case REDIS_REPLY_STRING: return .string(text())
        case REDIS_REPLY_STATUS: return .status(text())
        case REDIS_REPLY_INTEGER: return .integer(Int(value.integer))
        case REDIS_REPLY_NIL: return .null
        case REDIS_REPLY_ERROR: throw RedisError(.reply, text())
        case REDIS_REPLY_ARRAY:
            var items: [RedisReply] = []
            for index in 0..<Int(value.elements) {
                guard let element = value.element[index] else { items.append(.null); continue }
                items.append(try Self.reply(element))
            }
            return .array(items)
        default: return .null
        }
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
