import CSystem
import Foundation
import Synchronization

/// The HTTP/1.1 server: event loops that own the sockets and a worker pool for handlers.
///
///     var router = Router()
///     router.get("/healthz", onLoop: true) { _ in .text("ok") }
///     let server = HTTPServer(configuration: ServerConfiguration(), router: router)
///     try server.start()
///     server.runUntilSignalled()   // SIGTERM or SIGINT: drain and return
public final class HTTPServer: Sendable {
    private let context: ServerContext
    private let state = Mutex<State>(State())
    private let stopped = DispatchGroup()

    private struct State {
        var loops: [EventLoop] = []
        var port = 0
        var started = false
        var stopping = false
    }

    /// The counters this server updates (also what `/metrics` should print).
    public var metrics: ServerMetrics { context.metrics }

    /// `errorResponder` renders errors (404, 400 …) as pages; by default they are plain text.
    public init(
        configuration: ServerConfiguration, router: Router, staticFiles: StaticFiles = StaticFiles(),
        metrics: ServerMetrics = ServerMetrics(),
        errorResponder: (@Sendable (HTTPError, RequestHead?) -> Response)? = nil
    ) {
        context = ServerContext(
            configuration: configuration, router: router, staticFiles: staticFiles, metrics: metrics,
            errorResponder: errorResponder)
    }

    /// The port the server listens on (useful when configured with port 0).
    public var port: Int { state.withLock { $0.port } }

    /// Binds the sockets and starts the loops; returns once the server accepts connections.
    public func start() throws {
        let configuration = context.configuration
        csystem_ignore_sigpipe()
        var loops: [EventLoop] = []
        var port = configuration.port
        do {
            for _ in 0..<max(1, configuration.eventLoops) {
                // Each loop has its own socket on the same port; the kernel spreads connections.
                let fd = csystem_listen_tcp(configuration.host, Int32(port), 4096, 1)
                guard fd >= 0 else {
                    throw SystemError("listen on \(configuration.host):\(port)", errno)
                }
                port = Int(csystem_local_port(fd))
                loops.append(try EventLoop(context: context, listenFD: fd))
            }
        }
        state.withLock {
            $0.loops = loops
            $0.port = port
            $0.started = true
        }
        for (index, loop) in loops.enumerated() {
            stopped.enter()
            let thread = Thread { [stopped] in
                loop.run()
                stopped.leave()
            }
            thread.name = "portal-loop-\(index)"
            thread.start()
        }
    }

    /// Starts a graceful shutdown: stop accepting, finish in-flight requests, close idle
    /// connections; whatever is still open after the grace period is closed.
    public func shutdown() {
        let loops = state.withLock { state -> [EventLoop] in
            if state.stopping { return [] }
            state.stopping = true
            return state.loops
        }
        let deadline = System.monotonicNanos() + context.configuration.shutdownGracePeriod.nanoseconds
        loops.forEach { $0.beginStop(deadline: deadline) }
    }

    /// Blocks until every loop has stopped, then stops the workers.
    public func waitUntilStopped() {
        stopped.wait()
        context.workers.stop()
    }

    /// Blocks until SIGTERM or SIGINT, then shuts down gracefully and returns. `onSignal` runs
    /// first (the application starts answering "not ready"), then the server keeps serving for
    /// `drainSeconds` so a load balancer can stop sending, then stops accepting.
    public func runUntilSignalled(drainSeconds: Double = 0, onSignal: @escaping @Sendable () -> Void = {}) {
        let signalFD = eventfd(0, Int32(EFD_CLOEXEC))
        csystem_install_shutdown_signals(signalFD)
        let watcher = Thread { [self] in
            var value: UInt64 = 0
            _ = read(signalFD, &value, 8)
            onSignal()
            if drainSeconds > 0 { Thread.sleep(forTimeInterval: drainSeconds) }
            shutdown()
        }
        watcher.start()
        waitUntilStopped()
    }
}
