/// What every event loop of one server shares: routes, files, limits, counters and workers.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let router: Router
    let staticFiles: StaticFiles
    let metrics: ServerMetrics
    let workers: WorkerPool
    let addresses: AddressConnections
    let errorResponder: @Sendable (HTTPError, RequestHead?) -> Response
    /// The answer to a request there is no worker for: the queue is full, or it waited too long.
    let busy: HTTPError

    init(
        configuration: ServerConfiguration, router: Router, staticFiles: StaticFiles, metrics: ServerMetrics,
        errorResponder: (@Sendable (HTTPError, RequestHead?) -> Response)?
    ) {
        self.configuration = configuration
        self.router = router
        self.staticFiles = staticFiles
        self.metrics = metrics
        self.workers = WorkerPool(
            threads: configuration.workers, capacity: configuration.queueCapacity,
            sojournLimit: configuration.queueSojournLimit, pressureDelay: configuration.queuePressureDelay)
        self.busy = HTTPError(
            .serviceUnavailable, "The server is busy. Please try again in a moment.",
            headers: ["Retry-After": String(configuration.retryAfterSeconds)])
        self.addresses = AddressConnections(limit: configuration.maxConnectionsPerAddress, isExempt: configuration.isExemptFromAddressLimit)
        self.errorResponder = errorResponder ?? { error, _ in
            var response = Response.text(error.message + "\n", status: error.status)
            for field in error.headers { response.headers.add(field.name, field.value) }
            return response
        }
    }

    /// Runs a handler and turns whatever it throws into a response.
    func run(_ handler: Handler, _ request: Request) -> Response {
        var response: Response
        do {
            response = try handler(request)
        } catch let error as HTTPError {
            response = errorResponse(error, head: request.head)
        } catch {
            logError("\(request.method.rawValue) \(request.path): \(error)")
            response = errorResponse(HTTPError(.internalServerError, "Something went wrong on our side. Please try again in a moment."), head: request.head)
        }
        ResponseCompression.apply(&response, acceptEncoding: request.headers["Accept-Encoding"])
        return response
    }

    /// The rendered answer to an error, carrying the error's own fields (`Allow`, `Retry-After`).
    func errorResponse(_ error: HTTPError, head: RequestHead?) -> Response {
        var response = errorResponder(error, head)
        for field in error.headers where !response.headers.contains(field.name) { response.headers.add(field.name, field.value) }
        return response
    }
}

/// Writes a line to standard error (errors only; the access log goes to standard output).
func logError(_ message: String) {
    var line = Array("error: \(message)\n".utf8)
    line.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
}

import Glibc
