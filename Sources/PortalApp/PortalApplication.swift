import Foundation
import HTTPServer
import PostgresClient

/// The portal: its routes on top of the HTTP server and the database pool.
public final class PortalApplication: Sendable {
    public let configuration: PortalConfiguration
    public let database: ConnectionPool?
    public let metrics = ServerMetrics()

    /// `databaseOverrides` replace keywords of `DATABASE_URL` (tests point it at their own database).
    public init(configuration: PortalConfiguration, databaseOverrides: [String: String] = [:]) {
        self.configuration = configuration
        database = configuration.databaseURL.map {
            ConnectionPool(.init(
                url: $0, overrides: databaseOverrides, maxConnections: configuration.databaseConnections,
                checkoutTimeout: .seconds(5)))
        }
    }

    /// Every route of the portal.
    public func makeRouter() -> Router {
        var router = Router()
        let metrics = self.metrics
        let database = self.database
        router.get("/healthz", onLoop: true) { _ in .text("ok\n") }
        router.get("/readyz") { _ in
            guard let database, database.ping() else {
                throw HTTPError(.serviceUnavailable, "The database is not reachable.", headers: ["Retry-After": "5"])
            }
            return .text("ready\n")
        }
        router.get("/metrics") { _ in
            var response = Response.text(metrics.prometheusText())
            response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return response
        }
        return router
    }

    /// Builds the server with the portal's routes and static files.
    public func makeServer() throws -> HTTPServer {
        let staticFiles = FileManager.default.fileExists(atPath: configuration.publicDirectory)
            ? try StaticFiles(directory: configuration.publicDirectory) : StaticFiles()
        return HTTPServer(configuration: configuration.server, router: makeRouter(), staticFiles: staticFiles, metrics: metrics)
    }
}
