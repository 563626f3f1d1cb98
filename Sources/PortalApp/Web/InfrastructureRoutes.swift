import HTTPServer
import PostgresClient

/// `/healthz`, `/readyz` and `/metrics`: answered without the gate (no cookies, no session),
/// and without a database for all but readiness.
struct InfrastructureRoutes: Sendable {
    let metrics: ServerMetrics
    let monitoring: MonitoringAccess
    let database: ConnectionPool?
    /// Whether the instance is shutting down (SIGTERM): not ready, so a load balancer stops
    /// sending before the listener closes.
    let isDraining: @Sendable () -> Bool
    /// Whether live events are out of reach (Redis): ready, but said so.
    let liveEventsDegraded: @Sendable () -> Bool

    /// The three addresses, answered without the gate.
    var routes: [PortalRoute] {
        [
            PortalRoute("health", "GET /healthz", ungated: .infrastructure) { _ in .text("ok\n") },
            PortalRoute("metrics", "GET /metrics", ungated: .monitoring) { request in
                try monitoring.admit(request)
                var response = Response.text(metrics.prometheusText())
                response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                response.headers.set("Cache-Control", "no-store")
                return response
            },
            PortalRoute("ready", "GET /readyz", ungated: .infrastructure) { _ in
                guard !isDraining() else {
                    throw HTTPError(.serviceUnavailable, "This instance is shutting down.", headers: ["Retry-After": "5"])
                }
                guard let database, database.ping() else {
                    throw HTTPError(.serviceUnavailable, "The database is not reachable.", headers: ["Retry-After": "5"])
                }
                return .text(liveEventsDegraded() ? "ready; live events degraded: Redis is out of reach\n" : "ready\n")
            },
        ]
    }
}
