import Foundation
import HTTPServer
import PortalApp
import PostgresClient
import TestSupport
import Testing

@Suite("Health, readiness and metrics", .onTestThreads)
struct HealthTests {
    private func start(databaseURL: String?, overrides: [String: String] = [:]) throws -> (HTTPServer, PortalApplication) {
        var configuration = PortalConfiguration()
        configuration.databaseURL = databaseURL
        configuration.server.port = 0
        configuration.server.accessLog = false
        configuration.publicDirectory = TestPaths.repository + "/Public"
        configuration.templatesDirectory = TestPaths.repository + "/Templates"
        let application = try PortalApplication(configuration: configuration, databaseOverrides: overrides)
        let server = try application.makeServer()
        try server.start()
        return (server, application)
    }

    @Test("/healthz answers 200 and /readyz 200 while the database answers")
    func readyWithDatabase() throws {
        let database = try TestDatabase(migrated: true)
        let (server, _) = try start(databaseURL: database.appURL, overrides: ["dbname": database.name])
        defer { server.shutdown(); server.waitUntilStopped() }
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /readyz HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).status == 200)
        #expect(try #require(client.readResponse()).status == 200)
    }

    @Test("/readyz answers 503 with Retry-After when the database does not answer; /healthz still 200")
    func notReadyWithoutDatabase() throws {
        let (server, _) = try start(databaseURL: "postgresql://portal_app@%2Fnonexistent%2Fsocket/portal")
        defer { server.shutdown(); server.waitUntilStopped() }
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /readyz HTTP/1.1\r\nHost: a\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
        let ready = try #require(client.readResponse())
        #expect(ready.status == 503)
        #expect(ready.header("Retry-After") != nil)
        #expect(try #require(client.readResponse()).status == 200)
    }

    @Test("/metrics prints Prometheus text with the request counters")
    func metrics() throws {
        let (server, _) = try start(databaseURL: nil)
        defer { server.shutdown(); server.waitUntilStopped() }
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = client.readResponse()
        let response = try #require(client.readResponse())
        #expect(response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(response.bodyText.contains("http_requests_total{code=\"2xx\"} 1"))
        #expect(response.bodyText.contains("# TYPE http_request_duration_seconds histogram"))
    }

    @Test("configuration from the environment: bad values are refused with the variable's name")
    func environment() throws {
        let configuration = try PortalConfiguration.fromEnvironment(["PORT": "9090", "HOST": "::1", "ACCESS_LOG": "off", "WORKERS": "3"])
        #expect(configuration.server.port == 9090)
        #expect(configuration.server.host == "::1")
        #expect(!configuration.server.accessLog)
        #expect(configuration.server.workers == 3)
        let error = #expect(throws: ConfigurationError.self) { try PortalConfiguration.fromEnvironment(["PORT": "http"]) }
        #expect(error?.description.contains("PORT") == true)
    }
}
