import Foundation
import HTTPServer
import TestSupport

/// A server on a free loopback port with a few routes that tests exercise.
final class TestServer {
    let server: HTTPServer
    var port: Int { server.port }

    /// Opened by `/block` handlers, which wait for it: lets a test hold workers busy.
    let gate = DispatchSemaphore(value: 0)

    init(_ configure: (inout ServerConfiguration) -> Void = { _ in }, routes: (inout Router) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.eventLoops = 2
        configuration.workers = 4
        configuration.requestBodyLimit = 1024
        configuration.accessLog = false
        configure(&configuration)
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/fast", onLoop: true) { _ in .text("fast") }
        router.post("/echo") { request in Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: .bytes(request.body)) }
        router.post("/upload", bodyLimit: 4 * 1024 * 1024) { request in .text("received \(request.body.count) bytes") }
        router.get("/exams/:region/:exam") { request in .text("\(request.parameter("region"))|\(request.parameter("exam"))") }
        router.get("/slow") { _ in
            Thread.sleep(forTimeInterval: 0.4)
            return .text("slow")
        }
        let gate = self.gate
        router.get("/block") { _ in
            gate.wait()
            return .text("unblocked")
        }
        router.get("/fail") { _ in throw HTTPError(.conflict, "That name is taken.") }
        router.get("/crash") { _ in
            struct Unexpected: Error {}
            throw Unexpected()
        }
        router.get("/events") { _ in
            .eventStream { stream in
                Thread.detachNewThread {
                    for number in 1...3 { stream.send(event: "tick", data: "event \(number)\nsecond line") }
                    stream.close()
                }
            }
        }
        router.get("/cookie") { _ in
            var response = Response.text("set")
            response.setCookie(SetCookie(name: "session", value: "abc", maxAge: 60, secure: true, sameSite: .lax))
            return response
        }
        routes(&router)
        server = HTTPServer(configuration: configuration, router: router, staticFiles: Self.files)
        try server.start()
    }

    /// The static files every test server serves, made once for the run: adding the 8 MiB file
    /// reads all of it (its fingerprint), and the framing tests start a server per case.
    static let files: StaticFiles = {
        var files = StaticFiles()
        files.add(path: "/app.js", bytes: Array(String(repeating: "console.log('study');\n", count: 100).utf8))
        files.add(path: "/sw.js", bytes: Array("self.addEventListener('fetch', () => {});".utf8))
        files.add(path: "/app.3f9a2c1d.css", bytes: Array(String(repeating: "body { margin: 0 }\n", count: 50).utf8))
        files.add(path: "/big.bin", bytes: [UInt8](repeating: 7, count: 8 * 1024 * 1024))
        return files
    }()

    func client(timeout: Double = 5) throws -> RawHTTPClient {
        try RawHTTPClient(port: port, timeout: timeout)
    }

    func stop() {
        server.shutdown()
        server.waitUntilStopped()
    }

    deinit {
        // Release any handler still waiting, then stop.
        for _ in 0..<16 { gate.signal() }
        stop()
    }
}
