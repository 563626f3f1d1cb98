import Synchronization

/// Counters for `/metrics`, in the Prometheus text format.
public final class ServerMetrics: Sendable {
    struct Counters {
        var requestsByClass = [Int](repeating: 0, count: 6)
        var latencyBuckets = [Int](repeating: 0, count: ServerMetrics.bucketBounds.count)
        var latencySum = 0.0
        var latencyCount = 0
        var rejectedConnections = 0
        var rejectedRequests = 0
        var shedRequests = 0
    }

    /// Upper bounds of the latency histogram, in seconds.
    static let bucketBounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let counters = Mutex(Counters())
    let openConnections = Atomic<Int>(0)
    let queueDepth = Atomic<Int>(0)
    /// Requests answered on the event loop by their route's `EventLoopAnswer` (kept pages).
    let loopAnswers = Atomic<Int>(0)

    public init() {}

    func record(status: Int, seconds: Double) {
        counters.withLock { counters in
            counters.requestsByClass[min(5, max(0, status / 100))] += 1
            if let bucket = Self.bucketBounds.firstIndex(where: { seconds <= $0 }) { counters.latencyBuckets[bucket] += 1 }
            counters.latencySum += seconds
            counters.latencyCount += 1
        }
    }

    func recordRejectedConnection() { counters.withLock { $0.rejectedConnections += 1 } }
    func recordRejectedRequest() { counters.withLock { $0.rejectedRequests += 1 } }
    func recordShedRequest() { counters.withLock { $0.shedRequests += 1 } }

    /// Requests answered 503 because they waited for a worker longer than the queue allows.
    public var shedRequests: Int { counters.withLock { $0.shedRequests } }

    /// The number of requests answered with a status in `class` (2 for 2xx…).
    public func requests(statusClass: Int) -> Int { counters.withLock { $0.requestsByClass[statusClass] } }

    /// Requests answered on the event loop from what the application keeps, without a worker.
    public var answeredOnLoop: Int { loopAnswers.load(ordering: .relaxed) }

    /// Connections refused because the connection cap was reached.
    public var rejectedConnections: Int { counters.withLock { $0.rejectedConnections } }

    /// Open client connections now.
    public var currentConnections: Int { openConnections.load(ordering: .relaxed) }

    /// Every counter in the Prometheus text exposition format.
    public func prometheusText() -> String {
        let snapshot = counters.withLock { $0 }
        var text = "# HELP http_requests_total Requests answered, by status class.\n# TYPE http_requests_total counter\n"
        for statusClass in 1...5 {
            text += "http_requests_total{code=\"\(statusClass)xx\"} \(snapshot.requestsByClass[statusClass])\n"
        }
        text += "# HELP http_request_duration_seconds Time from a complete head to the response being queued.\n"
        text += "# TYPE http_request_duration_seconds histogram\n"
        var cumulative = 0
        for (bound, count) in zip(Self.bucketBounds, snapshot.latencyBuckets) {
            cumulative += count
            text += "http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "http_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.latencyCount)\n"
        text += "http_request_duration_seconds_sum \(snapshot.latencySum)\n"
        text += "http_request_duration_seconds_count \(snapshot.latencyCount)\n"
        text += "# HELP http_open_connections Client connections open now.\n# TYPE http_open_connections gauge\n"
        text += "http_open_connections \(openConnections.load(ordering: .relaxed))\n"
        text += "# HELP http_worker_queue_depth Requests waiting for a worker thread.\n# TYPE http_worker_queue_depth gauge\n"
        text += "http_worker_queue_depth \(queueDepth.load(ordering: .relaxed))\n"
        text += "# HELP http_loop_answers_total Requests answered on the event loop from what is kept, without a worker.\n"
        text += "# TYPE http_loop_answers_total counter\n"
        text += "http_loop_answers_total \(loopAnswers.load(ordering: .relaxed))\n"
        text += "# HELP http_rejected_connections_total Connections refused at the connection cap.\n"
        text += "# TYPE http_rejected_connections_total counter\n"
        text += "http_rejected_connections_total \(snapshot.rejectedConnections)\n"
        text += "# HELP http_rejected_requests_total Requests answered 503 because the worker queue was full.\n"
        text += "# TYPE http_rejected_requests_total counter\n"
        text += "http_rejected_requests_total \(snapshot.rejectedRequests)\n"
        text += "# HELP http_shed_requests_total Requests answered 503 because they waited for a worker longer than the queue allows.\n"
        text += "# TYPE http_shed_requests_total counter\n"
        text += "http_shed_requests_total \(snapshot.shedRequests)\n"
        return text
    }
}
