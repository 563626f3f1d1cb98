import CSystem
import Glibc
import Synchronization

/// One thread that owns a listening socket and the connections it accepted, driven by epoll.
///
/// Everything about a connection happens on its loop's thread. Other threads (workers, event
/// streams) hand work back with `execute`, which queues a closure and wakes the loop.
final class EventLoop: @unchecked Sendable {
    let context: ServerContext
    let epollFD: Int32
    private let wakeFD: Int32
    private var listenFD: Int32
    private var reserveFD: Int32
    private var connections: [Connection?] = []
    private let inbox = Mutex<[@Sendable () -> Void]>([])
    /// Set while a wake-up is written and not yet drained, so a burst of completions costs
    /// one eventfd write, not one each.
    private let wakePending = Atomic<Bool>(false)
    private let readBuffer: UnsafeMutableRawBufferPointer
    var encoder: ResponseEncoder
    private var accessLog: [UInt8] = []
    private(set) var stopping = false
    private var stopDeadline: UInt64 = 0
    private var nextTick: UInt64 = 0
    private static let tickNanos: UInt64 = 250_000_000

    init(context: ServerContext, listenFD: Int32) throws {
        self.context = context
        self.listenFD = listenFD
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard epollFD >= 0, wakeFD >= 0 else { throw SystemError("epoll_create1/eventfd", errno) }
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        encoder = ResponseEncoder(securityHeaders: context.configuration.securityHeaders)
        try register(fd: listenFD, events: csystem_epollin)
        try register(fd: wakeFD, events: csystem_epollin)
    }

    deinit {
        readBuffer.deallocate()
        close(epollFD)
        close(wakeFD)
        if reserveFD >= 0 { close(reserveFD) }
    }

    /// Runs `work` on the loop's thread soon. Safe from any thread.
    func execute(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.append(work) }
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Starts a graceful stop: no new connections; idle ones close; busy ones finish.
    func beginStop(deadline: UInt64) {
        execute { [self] in
            stopping = true
            stopDeadline = deadline
            if listenFD >= 0 {
                epoll_ctl(epollFD, EPOLL_CTL_DEL, listenFD, nil)
                close(listenFD)
                listenFD = -1
            }
            for connection in connections.compactMap({ $0 }) { connection.serverStopping() }
        }
    }

    /// The loop itself; returns once stopping and every connection is gone.
    func run() {
        let maxEvents = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: maxEvents)
        defer { events.deallocate() }
        nextTick = System.monotonicNanos() + Self.tickNanos
        while true {
            let now = System.monotonicNanos()
            let timeout = Int32(clamping: now >= nextTick ? 0 : (nextTick - now) / 1_000_000 + 1)
            let count = epoll_wait(epollFD, events, Int32(maxEvents), timeout)
            if count < 0 && errno != EINTR { logError("epoll_wait: \(String(cString: strerror(errno)))") }
            for index in 0..<max(0, Int(count)) {
                let event = events[index]
                let fd = Int32(truncatingIfNeeded: event.data.u64)
                if fd == listenFD {
                    acceptConnections()
                } else if fd == wakeFD {
                    drainInbox()
                } else if let connection = connectionFor(fd) {
                    connection.handle(events: event.events)
                }
            }
            flushAccessLog()
            if System.monotonicNanos() >= nextTick {
                tick()
                nextTick = System.monotonicNanos() + Self.tickNanos
            }
            if stopping && openCount == 0 { break }
        }
        drainInbox()
        flushAccessLog()
    }

    private var openCount = 0

    private func connectionFor(_ fd: Int32) -> Connection? {
        Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    private func drainInbox() {
        var value: UInt64 = 0
        _ = Glibc.read(wakeFD, &value, 8)
        // Cleared before taking the work: anything queued after this point writes a new wake-up.
        wakePending.store(false, ordering: .releasing)
        let work = inbox.withLock { work -> [@Sendable () -> Void] in
            defer { work.removeAll(keepingCapacity: true) }
            return work
        }
        work.forEach { $0() }
    }

    private func acceptConnections() {
        for _ in 0..<64 {
            let fd = csystem_accept(listenFD)
            if fd < 0 {
                if errno == EMFILE || errno == ENFILE {
                    // Out of descriptors: use the reserve to accept and close one pending
                    // connection, so the listen queue does not spin the loop.
                    if reserveFD >= 0 { close(reserveFD); reserveFD = -1 }
                    let victim = csystem_accept(listenFD)
                    if victim >= 0 { close(victim) }
                    reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
                    context.metrics.recordRejectedConnection()
                }
                return
            }
            let open = context.metrics.openConnections.add(1, ordering: .relaxed).newValue
            if open > context.configuration.maxConnections {
                refuse(fd, retryAfter: 1)
                continue
            }
            var address = [CChar](repeating: 0, count: 64)
            csystem_peer_address(fd, &address, 64)
            let peer = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // One address may not take every connection (a proxy the server trusts may).
            guard context.addresses.open(peer) else {
                refuse(fd, retryAfter: 5)
                continue
            }
            csystem_set_nodelay(fd)
            let connection = Connection(fd: fd, remoteAddress: peer, loop: self)
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: Int(fd) - connections.count + 64))
            }
            connections[Int(fd)] = connection
            openCount += 1
            do {
                try register(fd: fd, events: csystem_epollin)
            } catch {
                connection.close()
            }
        }
    }

    /// Answers a connection that may not be served `503` at once and closes it (it was counted
    /// as open; it no longer is).
    private func refuse(_ fd: Int32, retryAfter seconds: Int) {
        context.metrics.openConnections.subtract(1, ordering: .relaxed)
        context.metrics.recordRejectedConnection()
        let refusal = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: \(seconds)\r\nConnection: close\r\n\r\n".utf8)
        _ = refusal.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }

    /// Forgets a connection the loop has closed.
    func remove(_ connection: Connection) {
        guard connectionFor(connection.fd) === connection else { return }
        connections[Int(connection.fd)] = nil
        openCount -= 1
        context.metrics.openConnections.subtract(1, ordering: .relaxed)
        context.addresses.close(connection.remoteAddress)
    }

    func register(fd: Int32, events: UInt32) throws {
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(UInt32(bitPattern: fd))
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else { throw SystemError("epoll_ctl", errno) }
    }

    func modify(fd: Int32, events: UInt32) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(UInt32(bitPattern: fd))
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Reads from `fd` into the loop's scratch buffer and hands the bytes to `consume`.
    func read(from fd: Int32, _ consume: (UnsafeRawBufferPointer) -> Void) -> Int {
        let count = Glibc.read(fd, readBuffer.baseAddress, readBuffer.count)
        if count > 0 { consume(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])) }
        return count
    }

    private func tick() {
        let now = System.monotonicNanos()
        for connection in connections where connection != nil {
            connection!.checkTimeouts(now: now, forceClose: stopping && now >= stopDeadline)
        }
        context.metrics.queueDepth.store(context.workers.depth, ordering: .relaxed)
    }

    func logAccess(method: String, path: String, status: Int, bytes: Int, micros: UInt64) {
        guard context.configuration.accessLog else { return }
        accessLog += "\(method) \(path) \(status) \(bytes) \(micros)us\n".utf8
    }

    private func flushAccessLog() {
        guard !accessLog.isEmpty else { return }
        accessLog.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
        accessLog.removeAll(keepingCapacity: true)
    }
}

/// A failed system call, with errno's text.
struct SystemError: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }
    var description: String { "\(call): \(String(cString: strerror(code)))" }
}
