import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import Synchronization
import TestSupport
import Testing

/// Limits that hold however requests arrive: all at once, through two instances, from many
/// addresses behind a proxy, with a large body, or a code guessed again and again.
@Suite("Limits", .onTestThreads)
struct LimitTests {
    /// Behind a proxy on loopback: the client address is `X-Forwarded-For`.
    static func site() throws -> PortalSite {
        try PortalSite(environment: ["TRUSTED_PROXIES": "127.0.0.1"])
    }

    static func from(_ address: String) -> String { "X-Forwarded-For: \(address)\r\n" }

    /// A sign-in from `address` (through the trusted proxy).
    static func login(_ browser: Browser, _ username: String, password: String, from address: String) throws -> RawHTTPClient.Response {
        let token = browser.csrfToken(from: try browser.request("GET", "/login", extraHeaders: from(address)))
        return try browser.request("POST", "/login", form: ["csrf_token": token, "username": username, "password": password], extraHeaders: from(address))
    }

    @Test("twenty wrong passwords at once, through two instances, are tried at most five times; the rest wait")
    func concurrentWrongPasswords() throws {
        let site = try Self.site()
        let second = try site.anotherInstance()
        defer { second.shutdown(); second.waitUntilStopped() }
        try site.browser().register("victim", password: "the right password")
        // Each guesser has its form and token first; then all twenty send at once.
        let guessers = try (0..<20).map { index -> (Browser, String) in
            let browser = Browser(port: index % 2 == 0 ? site.server.port : second.port)
            return (browser, browser.csrfToken(from: try browser.request("GET", "/login", extraHeaders: Self.from("198.51.100.7"))))
        }
        let statuses = Mutex<[Int]>([])
        // Each worker uses its own browser only.
        struct Guessers: @unchecked Sendable { let all: [(Browser, String)] }
        let shared = Guessers(all: guessers)
        DispatchQueue.concurrentPerform(iterations: guessers.count) { index in
            let (browser, token) = shared.all[index]
            let status = (try? browser.request(
                "POST", "/login", form: ["csrf_token": token, "username": "victim", "password": "guess \(index)"],
                extraHeaders: Self.from("198.51.100.7")).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        let counted = statuses.withLock { $0 }
        #expect(counted.filter { $0 == 401 }.count == 5, "\(counted.sorted())")
        #expect(counted.filter { $0 == 429 }.count == 15, "\(counted.sorted())")
        // The next try waits too, whichever instance it reaches, and says for how long.
        let waiting = try Self.login(Browser(port: second.port), "victim", password: "the right password", from: "198.51.100.7")
        #expect(waiting.status == 429 && Int(waiting.header("Retry-After") ?? "") != nil)
    }

    @Test("strangers' failures do not lock the owner out at an address they have signed in from before")
    func ownerIsNotLockedOut() throws {
        let site = try Self.site()
        try site.browser().register("owner", password: "the right password")
        #expect(try Self.login(site.browser(), "owner", password: "the right password", from: "192.0.2.10").status == 303)
        for index in 0..<8 {
            let status = try Self.login(site.browser(), "owner", password: "wrong \(index)", from: "203.0.113.\(index + 1)").status
            #expect(status == (index < 5 ? 401 : 429))
        }
        #expect(try Self.login(site.browser(), "owner", password: "the right password", from: "203.0.113.99").status == 429, "a new address waits")
        #expect(try Self.login(site.browser(), "owner", password: "the right password", from: "192.0.2.10").status == 303, "the owner's address does not")
    }

    @Test("registrations from one address are limited before any password is hashed")
    func registrations() throws {
        let site = try Self.site()
        for index in 0..<10 {
            let browser = site.browser()
            let token = browser.csrfToken(from: try browser.request("GET", "/register", extraHeaders: Self.from("198.51.100.20")))
            let response = try browser.request("POST", "/register", form: [
                "csrf_token": token, "username": "new\(index)", "display_name": "New \(index)", "password": "a long password \(index)",
                "password_confirmation": "a long password \(index)"], extraHeaders: Self.from("198.51.100.20"))
            #expect(response.status == 303)
        }
        let browser = site.browser()
        let token = browser.csrfToken(from: try browser.request("GET", "/register", extraHeaders: Self.from("198.51.100.20")))
        let refused = try browser.request("POST", "/register", form: [
            "csrf_token": token, "username": "one-too-many", "display_name": "Late", "password": "a long password",
            "password_confirmation": "a long password"], extraHeaders: Self.from("198.51.100.20"))
        #expect(refused.status == 429 && refused.header("Retry-After") != nil)
        #expect(refused.bodyText.contains("value=\"one-too-many\""), "the form comes back with what was typed")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'one-too-many'") == 0)
        // Another address registers as usual.
        let other = site.browser()
        let otherToken = other.csrfToken(from: try other.request("GET", "/register", extraHeaders: Self.from("198.51.100.21")))
        #expect(try other.request("POST", "/register", form: [
            "csrf_token": otherToken, "username": "neighbour", "display_name": "N", "password": "a long password",
            "password_confirmation": "a long password"], extraHeaders: Self.from("198.51.100.21")).status == 303)
    }

    @Test("unknown join and live codes tried from one address run out; then even a real one waits there, not elsewhere")
    func codeGuessing() throws {
        let site = try Self.site()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (_, code) = try makeClass(teacher, csrf: csrf)
        let guesser = site.browser()
        for index in 0..<20 {
            #expect(try guesser.request("GET", "/join/ZZZZZZ\(index % 10)A", extraHeaders: Self.from("198.51.100.30")).status == 404)
        }
        let blocked = try guesser.request("GET", "/join/\(code)", extraHeaders: Self.from("198.51.100.30"))
        #expect(blocked.status == 429 && blocked.header("Retry-After") != nil)
        #expect(try site.browser().request("GET", "/join/\(code)", extraHeaders: Self.from("198.51.100.31")).status == 200)
    }

    @Test("unknown live-event codes tried from one address run out too")
    func liveCodeGuessing() throws {
        let site = try PortalSite(live: true, environment: ["TRUSTED_PROXIES": "127.0.0.1"])
        let guesser = site.browser()
        for _ in 0..<30 {
            #expect(try guesser.request("GET", "/live/QQQQQQ", extraHeaders: Self.from("198.51.100.32")).status == 404)
        }
        #expect(try guesser.request("GET", "/live/QQQQQQ", extraHeaders: Self.from("198.51.100.32")).status == 429)
        #expect(try guesser.request("GET", "/live/QQQQQQ", extraHeaders: Self.from("198.51.100.33")).status == 404)
    }

    @Test("reports are limited per student per hour")
    func reports() throws {
        let site = try Self.site()
        let (student, _, csrf) = try site.account("reporter", role: "student")
        let question = MiniExam.items[0].id.uuidString.lowercased()
        // Thirty reports, each its own (the same report sent again is the one filed: SentTwiceTests).
        for number in 0..<30 {
            #expect(try student.request("POST", "/questions/\(question)/reports", form: ["csrf_token": csrf, "reason": "typo", "comment": "x \(number)"]).status == 303)
        }
        let refused = try student.request("POST", "/questions/\(question)/reports", form: ["csrf_token": csrf, "reason": "typo", "comment": "x 30"])
        #expect(refused.status == 429)
        #expect(try site.count("SELECT count(*) AS n FROM question_reports") == 30)
    }

    @Test("a 20 MiB import from anyone but an admin is refused before its body is read")
    func importBodyNotRead() throws {
        let site = try Self.site()
        let (student, _, _) = try site.account("student", role: "student")
        for cookies in [[:], student.cookies] {
            let client = try RawHTTPClient(port: site.server.port)
            let cookie = cookies.isEmpty ? "" : "Cookie: " + cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n"
            client.send("POST /admin/import HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookie)Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 20971520\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 404, "not an admin: nothing here, and no body read")
            #expect(client.isClosedByPeer())
        }
    }
}
