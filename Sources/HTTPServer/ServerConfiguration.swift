/// Everything about how the server listens, how much it accepts and how long it waits.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (see `HTTPServer.port`).
    public var port = 8080
    /// Event loops (threads owning sockets); one per core by default.
    public var eventLoops = System.coreCount
    /// Worker threads running dynamic handlers.
    public var workers = 2 * System.coreCount + 4
    /// Requests that may wait for a worker; when full, new ones get `503` with `Retry-After`.
    public var queueCapacity = 256
    /// The longest a request waits for a worker: one that waited longer gets `503` with
    /// `Retry-After` instead of an answer its reader stopped waiting for (WorkerPool).
    public var queueSojournLimit: Duration = .seconds(1)
    /// Once the oldest waiting request has waited this long, the newest are served first.
    public var queuePressureDelay: Duration = .milliseconds(100)
    /// Open connections at most; more are answered `503` and closed at once.
    public var maxConnections = 10_000
    /// Open connections from one client address at most (a school behind one address has many
    /// browsers, each with a few connections); more are answered `503` and closed at once.
    public var maxConnectionsPerAddress = 1_000
    /// Addresses the per-address limit leaves alone (a trusted proxy carries many clients).
    public var isExemptFromAddressLimit: @Sendable (String) -> Bool = { _ in false }
    /// Default request body limit; routes may set their own (a larger one with a preflight).
    public var requestBodyLimit = 256 * 1024
    /// A body must keep at least this pace (bytes a second) after `bodyTimeout` of grace: its
    /// whole-body deadline is `bodyTimeout` plus its length at this rate.
    public var minimumBodyRate = 32 * 1024
    /// The whole head must arrive within this time of its first byte (slowloris).
    public var headerTimeout: Duration = .seconds(10)
    /// A keep-alive connection with no request in progress is closed after this time.
    public var idleTimeout: Duration = .seconds(60)
    /// A body that makes no progress for this long is abandoned (and see `minimumBodyRate`).
    public var bodyTimeout: Duration = .seconds(10)
    /// A response the client does not read for this long is abandoned.
    public var writeTimeout: Duration = .seconds(30)
    /// In-flight requests get this long to finish at shutdown.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// `Retry-After` seconds sent with `503` when the queue is full or a request waited too long.
    public var retryAfterSeconds = 1
    /// One line per request on standard output.
    public var accessLog = true
    public var parserLimits = RequestParser.Limits()
    /// Added to every response that does not set the same field itself.
    public var securityHeaders: HTTPHeaders = [
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy":
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "Referrer-Policy": "strict-origin-when-cross-origin",
    ]

    public init() {}
}
