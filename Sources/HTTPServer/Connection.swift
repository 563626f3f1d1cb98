import CSystem
import Glibc

/// One client connection: reads requests in order, answers them in order, and enforces the
/// timeouts. Lives on its event loop's thread; other threads reach it through `loop.execute`.
final class Connection {
    enum Phase {
        /// Between requests (keep-alive), nothing received yet.
        case waiting
        /// Part of a head has arrived.
        case head
        /// The head is in; a worker decides whether its large body may be read.
        case preflight
        /// The head is in; the body is arriving.
        case body
        /// A worker is running the handler.
        case dispatched
        /// An event stream is open.
        case streaming
        /// A final response is queued; nothing more is read as requests.
        case closing
        /// The response is sent and our side shut; unread input is drained before closing, so
        /// the peer is not sent a reset that could destroy the response.
        case lingering
    }

    /// Where a complete request goes.
    enum Target {
        case handler(Router.Endpoint)
        case staticFile
        case error(HTTPError)
    }

    let fd: Int32
    let remoteAddress: String
    unowned let loop: EventLoop
    private var context: ServerContext { loop.context }

    private var input: [UInt8] = []
    private var inputStart = 0
    private var parser: RequestParser
    private(set) var phase = Phase.waiting
    private var phaseSince: UInt64
    /// When the body must be complete: the stall timeout plus its length at the minimum rate.
    private var bodyDeadline: UInt64 = 0
    private var head: RequestHead?
    private var target: Target?
    private var requestStart: UInt64 = 0
    private var peerClosed = false
    private var closeAfterWrite = false
    private var closed = false

    /// What is waiting to be written: bytes, or a range of an in-memory file for sendfile.
    private enum Chunk {
        case bytes([UInt8])
        case file(MemoryFile, offset: Int)

        var remaining: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .file(let file, let offset): file.length - offset
            }
        }
    }

    private var output: [Chunk] = []
    private var outputOffset = 0
    private var pendingBytes = 0
    private var lastWriteProgress: UInt64 = 0
    private var interest: UInt32 = csystem_epollin

    private var stream: EventStream?
    private var streamChunked = false

    private static let outputHighWater = 256 * 1024
    private static let inputHighWater = 64 * 1024
    private static let streamBacklogLimit = 4 * 1024 * 1024
    private static let lingerNanos: UInt64 = 2_000_000_000

    init(fd: Int32, remoteAddress: String, loop: EventLoop) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.loop = loop
        parser = RequestParser(limits: loop.context.configuration.parserLimits)
        phaseSince = System.monotonicNanos()
    }

    // MARK: Events

    func handle(events: UInt32) {
        if events & csystem_epollerr != 0 {
            close()
            return
        }
        if events & csystem_epollout != 0 { flush() }
        if !closed, events & (csystem_epollin | csystem_epollhup | csystem_epollrdhup) != 0 { readInput() }
    }

    private func readInput() {
        let count = loop.read(from: fd) { bytes in
            if phase == .lingering || phase == .closing { return }
            input.append(contentsOf: bytes)
        }
        if count == 0 {
            peerClosed = true
            let idle = phase == .waiting && inputStart == input.count && pendingBytes == 0
            if idle || phase == .lingering || phase == .streaming {
                close()
                return
            }
        } else if count < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            close()
            return
        }
        process()
    }

    // MARK: Requests

    /// Parses and answers as many buffered requests as may be answered now.
    private func process() {
        while !closed, phase == .waiting || phase == .head || phase == .body, pendingBytes <= Self.outputHighWater {
            parseNext()
            if !madeProgress { break }
        }
        compactInput()
        updateInterest()
    }

    private var madeProgress = false

    /// Tries to move one step; sets `madeProgress` when another step may follow.
    private func parseNext() {
        madeProgress = false
        let now = System.monotonicNanos()
        if head == nil {
            guard inputStart < input.count else {
                if peerClosed && pendingBytes == 0 { close() }
                return
            }
            if phase == .waiting {
                phase = .head
                phaseSince = now
            }
            let parsed: (head: RequestHead, consumed: Int)?
            do {
                parsed = try input.withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                    try parser.parseHead(UnsafeBufferPointer(rebasing: buffer[inputStart...]))
                }
            } catch {
                fail(error)
                return
            }
            guard let parsed else {
                if peerClosed { close() }
                return
            }
            inputStart += parsed.consumed
            begin(parsed.head, now: now)
            if phase == .closing { return }
        }
        if !parser.isBodyComplete {
            do {
                let consumed = try input.withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                    try parser.parseBody(UnsafeBufferPointer(rebasing: buffer[inputStart...]))
                }
                inputStart += consumed
                if consumed > 0 { phaseSince = now }
            } catch {
                fail(error)
                return
            }
            guard parser.isBodyComplete else {
                if peerClosed { close() }
                return
            }
        }
        dispatch()
        madeProgress = !closed
    }

    private func begin(_ head: RequestHead, now: UInt64) {
        self.head = head
        requestStart = now
        let configuration = context.configuration
        var bodyLimit = configuration.requestBodyLimit
        var preflight: Preflight?
        switch context.router.match(head.method, path: head.path) {
        case .found(let endpoint):
            target = .handler(endpoint)
            bodyLimit = endpoint.bodyLimit ?? bodyLimit
            preflight = endpoint.preflight
        case .notFound:
            if (head.method == .GET || head.method == .HEAD), context.staticFiles.file(at: head.path) != nil {
                target = .staticFile
            } else {
                target = .error(HTTPError(.notFound, "There is nothing at this address."))
            }
        case .methodNotAllowed(let allowed):
            target = .error(HTTPError(
                .methodNotAllowed, "This address does not accept \(head.method.rawValue).",
                headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")]))
        case .badPath(let reason):
            target = .error(HTTPError(.badRequest, reason))
        }
        do {
            try parser.beginBody(head, limit: bodyLimit)
        } catch {
            fail(error)
            return
        }
        let declared: Int
        switch head.bodyFraming {
        case .none: declared = 0
        case .contentLength(let length): declared = length
        case .chunked: declared = bodyLimit
        }
        bodyDeadline = now &+ configuration.bodyTimeout.nanoseconds
            &+ UInt64(declared) * 1_000_000_000 / UInt64(max(1, configuration.minimumBodyRate))
        // A body larger than the default is read only once the route has looked at the head.
        if let preflight, !parser.isBodyComplete, declared > configuration.requestBodyLimit || head.bodyFraming == .chunked {
            startPreflight(preflight, head: head)
            return
        }
        startBody(head, now: now)
    }

    private func startBody(_ head: RequestHead, now: UInt64) {
        if head.expectsContinue, head.version == .http1_1, !parser.isBodyComplete, inputStart == input.count {
            enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        phase = .body
        phaseSince = now
    }

    /// Runs the route's preflight on a worker; the body is read only if it passes. A refusal is
    /// answered at once and the connection closes (the unread body cannot be skipped safely).
    private func startPreflight(_ preflight: @escaping Preflight, head: RequestHead) {
        phase = .preflight
        let connection = UncheckedConnection(self)
        let loop = self.loop, context = self.context, address = remoteAddress
        let busy = context.busy
        let accepted = context.workers.submit({
            var refusal: HTTPError?
            do {
                try preflight(head, address)
            } catch let error as HTTPError {
                refusal = error
            } catch {
                logError("\(head.method.rawValue) \(head.path) (before the body): \(error)")
                refusal = HTTPError(.internalServerError, "Something went wrong on our side. Please try again in a moment.")
            }
            let result = refusal
            loop.execute { connection.value.finishPreflight(refusal: result) }
        }, shed: {
            context.metrics.recordShedRequest()
            loop.execute { connection.value.finishPreflight(refusal: busy) }
        })
        if !accepted {
            context.metrics.recordRejectedRequest()
            finishPreflight(refusal: busy)
        }
    }

    private func finishPreflight(refusal: HTTPError?) {
        guard !closed, phase == .preflight, let head else { return }
        if let refusal {
            closeAfterWrite = true
            parser.reset()
            respond(context.errorResponse(refusal, head: head))
            phase = .closing
            flush()
            return
        }
        startBody(head, now: System.monotonicNanos())
        flush()
        process()
    }

    private func dispatch() {
        guard let head, let target else { return }
        let request = Request(head: head, body: parser.bodyBytes, parameters: [:], remoteAddress: remoteAddress)
        parser.reset()
        switch target {
        case .staticFile:
            if let (response, memoryFile) = context.staticFiles.lookup(head) {
                respond(response, memoryFile: memoryFile)
            } else {
                respond(context.errorResponse(HTTPError(.notFound, "There is nothing at this address."), head: head))
            }
        case .error(let error):
            respond(context.errorResponse(error, head: head))
        case .handler(let endpoint):
            var routed = request
            routed.parameters = endpoint.parameters
            let request = routed, handler = endpoint.handler
            if let answerOnLoop = endpoint.answerOnLoop, let response = answerOnLoop(request) {
                context.metrics.loopAnswers.add(1, ordering: .relaxed)
                respond(response)
                return
            }
            if endpoint.runsOnLoop {
                respond(context.run(handler, request))
                return
            }
            phase = .dispatched
            let connection = UncheckedConnection(self)
            let loop = self.loop
            let context = self.context
            let accepted = context.workers.submit({
                let response = context.run(handler, request)
                loop.execute { connection.value.finishDispatched(response) }
            }, shed: {
                context.metrics.recordShedRequest()
                let refusal = context.errorResponse(context.busy, head: head)
                loop.execute { connection.value.finishDispatched(refusal) }
            })
            if !accepted {
                context.metrics.recordRejectedRequest()
                respond(context.errorResponse(context.busy, head: head))
            }
        }
    }

    private func finishDispatched(_ response: Response) {
        guard !closed, phase == .dispatched else { return }
        respond(response)
        process()
    }

    /// Answers a request that could not be read, and closes after the answer.
    private func fail(_ error: HTTPParseError) {
        closeAfterWrite = true
        let response = context.errorResponse(HTTPError(error.status, "This request could not be read: \(error.reason)."), head: head)
        if head == nil { requestStart = System.monotonicNanos() }
        respond(response, method: head?.method.rawValue ?? "-", path: head?.path ?? "-")
        phase = .closing
        flush()
    }

    private func respond(_ response: Response, method: String? = nil, path: String? = nil, memoryFile: MemoryFile? = nil) {
        var response = response, memoryFile = memoryFile
        do {
            try ResponseEncoder.check(response.headers)
        } catch {
            // A programming error (a header value built from input): never sent, logged, and
            // this one response becomes a 500.
            logError("\(head?.method.rawValue ?? "-") \(head?.path ?? "-"): \(error); answered 500 instead")
            response = Response.text("Something went wrong on our side. Please try again in a moment.\n", status: .internalServerError)
            memoryFile = nil
        }
        let head = self.head
        let version = head?.version ?? .http1_1
        let keepAlive = (head?.keepAlive ?? false) && !closeAfterWrite && !loop.stopping && !peerClosed
        var bytesSent = 0
        switch response.body {
        case .bytes(let body):
            let headBytes = loop.encoder.head(response, version: version, keepAlive: keepAlive, bodyLength: body.count, chunked: false)
            enqueue(headBytes)
            let code = response.status.code
            if head?.method != .HEAD, code != 304, code != 204, !body.isEmpty {
                if let memoryFile {
                    output.append(.file(memoryFile, offset: 0))
                    pendingBytes += memoryFile.length
                } else {
                    enqueue(body)
                }
                bytesSent = body.count
            }
            if !keepAlive { closeAfterWrite = true }
            phase = closeAfterWrite ? .closing : .waiting
        case .eventStream(let open):
            streamChunked = version == .http1_1
            let headBytes = loop.encoder.head(response, version: version, keepAlive: streamChunked, bodyLength: nil, chunked: streamChunked)
            enqueue(headBytes)
            phase = .streaming
            let connection = UncheckedConnection(self)
            let loop = self.loop
            let stream = EventStream(
                deliver: { bytes in loop.execute { connection.value.writeStreamEvent(bytes) } },
                finish: { loop.execute { connection.value.endStream() } })
            self.stream = stream
            open(stream)
        }
        let now = System.monotonicNanos()
        let elapsed = now - requestStart
        context.metrics.record(status: response.status.code, seconds: Double(elapsed) / 1e9)
        loop.logAccess(
            method: method ?? head?.method.rawValue ?? "-", path: path ?? head?.path ?? "-",
            status: response.status.code, bytes: bytesSent, micros: elapsed / 1000)
        self.head = nil
        target = nil
        phaseSince = now
        flush()
    }

    // MARK: Event streams

    private func writeStreamEvent(_ bytes: [UInt8]) {
        guard !closed, phase == .streaming else { return }
        if pendingBytes > Self.streamBacklogLimit {
            // The client stopped reading; holding more for it would only grow memory.
            close()
            return
        }
        if streamChunked {
            enqueue(Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10])
        } else {
            enqueue(bytes)
        }
        flush()
    }

    private func endStream() {
        guard !closed, phase == .streaming else { return }
        if streamChunked { enqueue(Array("0\r\n\r\n".utf8)) }
        closeAfterWrite = true
        phase = .closing
        flush()
    }

    // MARK: Output

    private func enqueue(_ bytes: [UInt8]) {
        if pendingBytes == 0 { lastWriteProgress = System.monotonicNanos() }
        output.append(.bytes(bytes))
        pendingBytes += bytes.count
    }

    private func flush() {
        guard !closed else { return }
        while pendingBytes > 0 {
            let written = writeSome()
            if written > 0 {
                lastWriteProgress = System.monotonicNanos()
                advance(by: written)
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && errno == EAGAIN {
                break
            } else {
                close()
                return
            }
        }
        if pendingBytes == 0 {
            if closeAfterWrite && phase == .closing {
                startLingering()
                return
            }
            if peerClosed && phase == .waiting && inputStart == input.count {
                close()
                return
            }
        }
        updateInterest()
    }

    /// Writes from the front of the queue: consecutive byte chunks with one writev, a file
    /// chunk with sendfile. Returns what the system call returned.
    private func writeSome() -> Int {
        if case .file(let file, let offset) = output[0] {
            var position = offset
            let sent = csystem_sendfile(fd, file.fd, &position, file.length - offset)
            if sent > 0 {
                output[0] = .file(file, offset: position)
            }
            return sent
        }
        var buffers: [[UInt8]] = []
        for chunk in output.prefix(16) {
            guard case .bytes(let bytes) = chunk else { break }
            buffers.append(bytes)
        }
        let fileFollows = output.count > buffers.count
        var vectors = [iovec](repeating: iovec(), count: buffers.count)
        return withExtendedLifetime(buffers) {
            for index in 0..<buffers.count {
                let offset = index == 0 ? outputOffset : 0
                buffers[index].withUnsafeBytes { base in
                    vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base.baseAddress! + offset), iov_len: base.count - offset)
                }
            }
            return fileFollows ? csystem_writev_more(fd, vectors, Int32(buffers.count)) : writev(fd, vectors, Int32(buffers.count))
        }
    }

    private func advance(by written: Int) {
        var remaining = written
        pendingBytes -= written
        while remaining > 0 {
            switch output[0] {
            case .file(let file, let offset):
                // sendfile already moved the offset in the chunk itself.
                if offset >= file.length { output.removeFirst() }
                remaining = 0
            case .bytes(let bytes):
                let available = bytes.count - outputOffset
                if remaining >= available {
                    remaining -= available
                    output.removeFirst()
                    outputOffset = 0
                } else {
                    outputOffset += remaining
                    remaining = 0
                }
            }
        }
    }

    private func startLingering() {
        if peerClosed {
            close()
            return
        }
        shutdown(fd, Int32(SHUT_WR))
        phase = .lingering
        phaseSince = System.monotonicNanos()
        input.removeAll()
        inputStart = 0
        updateInterest()
    }

    private func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 128 * 1024)
            inputStart = 0
        } else if inputStart > 16 * 1024 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    private func updateInterest() {
        guard !closed else { return }
        let buffered = input.count - inputStart
        let busy = phase == .dispatched || phase == .preflight || pendingBytes > Self.outputHighWater
        var wanted: UInt32 = 0
        if !(busy && buffered > Self.inputHighWater) && !peerClosed { wanted |= csystem_epollin | csystem_epollrdhup }
        if phase == .lingering { wanted = csystem_epollin | csystem_epollrdhup }
        if pendingBytes > 0 { wanted |= csystem_epollout }
        if wanted != interest {
            interest = wanted
            loop.modify(fd: fd, events: wanted)
        }
    }

    // MARK: Timeouts and shutdown

    func checkTimeouts(now: UInt64, forceClose: Bool) {
        if forceClose {
            close()
            return
        }
        let configuration = context.configuration
        let age = now &- phaseSince
        switch phase {
        case .waiting where pendingBytes == 0:
            if age > configuration.idleTimeout.nanoseconds || loop.stopping { close() }
        case .head:
            if age > configuration.headerTimeout.nanoseconds {
                fail(HTTPParseError(.requestTimeout, "the request head did not arrive in time"))
            }
        case .body:
            if age > configuration.bodyTimeout.nanoseconds {
                fail(HTTPParseError(.requestTimeout, "the request body stopped arriving"))
            } else if now > bodyDeadline {
                // Trickling a byte now and then keeps a body "arriving"; it must also keep pace.
                fail(HTTPParseError(.requestTimeout, "the request body arrived too slowly"))
            }
        case .lingering:
            if age > Self.lingerNanos { close() }
        default:
            break
        }
        if !closed, pendingBytes > 0, now &- lastWriteProgress > configuration.writeTimeout.nanoseconds { close() }
    }

    /// The server is stopping: close at once when idle, otherwise after the current response.
    func serverStopping() {
        switch phase {
        case .waiting where pendingBytes == 0 && inputStart == input.count:
            close()
        case .streaming:
            stream?.connectionClosed()
            endStream()
        default:
            break
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        epoll_ctl(loop.epollFD, EPOLL_CTL_DEL, fd, nil)
        Glibc.close(fd)
        output.removeAll()
        pendingBytes = 0
        stream?.connectionClosed()
        stream = nil
        loop.remove(self)
    }
}

/// Carries a connection through a worker and back to its loop; only the loop touches it.
struct UncheckedConnection: @unchecked Sendable {
    let value: Connection
    init(_ value: Connection) { self.value = value }
}
