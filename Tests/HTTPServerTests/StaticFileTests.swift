import Foundation
import HTTPServer
import TestSupport
import Testing

@Suite("Static files", .onTestThreads)
struct StaticFileTests {
    @Test("a file is served with its type, a strong ETag and 304 on revalidation")
    func etagAndNotModified() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /app.js HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.header("Vary") == "Accept-Encoding")
        let etag = try #require(response.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        client.send("GET /app.js HTTP/1.1\r\nHost: a\r\nIf-None-Match: \(etag)\r\n\r\n")
        let revalidated = try #require(client.readResponse())
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
    }

    @Test("gzip is served when accepted, identity otherwise, each with its own ETag")
    func gzipVariant() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /app.js HTTP/1.1\r\nHost: a\r\nAccept-Encoding: br, gzip;q=0.8\r\n\r\n")
        let zipped = try #require(client.readResponse())
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(zipped.body.starts(with: [0x1f, 0x8b]))
        client.send("GET /app.js HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip;q=0\r\n\r\n")
        let plain = try #require(client.readResponse())
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.bodyText.hasPrefix("console.log('study');"))
        #expect(zipped.body.count < plain.body.count)
        #expect(zipped.header("ETag") != plain.header("ETag"))
    }

    @Test("versioned names are immutable for a year; sw.js is never cached unchecked")
    func cachePolicies() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /app.3f9a2c1d.css HTTP/1.1\r\nHost: a\r\n\r\nGET /sw.js HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(try #require(client.readResponse()).header("Cache-Control") == "no-cache")
    }

    @Test("a large file arrives whole")
    func largeFile() throws {
        let server = try TestServer()
        let client = try server.client(timeout: 10)
        client.send("GET /big.bin HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.body.count == 8 * 1024 * 1024)
        #expect(response.body.allSatisfy { $0 == 7 })
    }

    @Test("files load from a folder, dot-files left out")
    func loadsFolder() throws {
        let folder = NSTemporaryDirectory() + "public-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/css", withIntermediateDirectories: true)
        try "body{}".write(toFile: folder + "/css/site.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: folder + "/.env", atomically: true, encoding: .utf8)
        let files = try StaticFiles(directory: folder)
        #expect(files.count == 1)
    }
}
