import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import Synchronization
import TestSupport
import Testing

/// The portal as a school or a hosting team deploys it: behind a TLS proxy, through a
/// connection pooler, with a database that is sometimes busy or away.
@Suite("Deployment", .onTestThreads)
struct DeploymentTests {
    @Test("through PgBouncer 1.18 in transaction mode, a student's whole round of pages and the API work")
    func throughPgBouncer() throws {
        let site = try PortalSite(throughPooler: true)
        let browser = site.browser()
        #expect(try browser.register("pooled").status == 303)
        #expect(try browser.request("GET", "/").status == 200)
        #expect(try browser.request("GET", MiniExam.path).status == 200)
        let (started, path) = try startSession(browser, count: "3")
        #expect(started.status == 303)
        for _ in 0..<3 {
            let form = try QuestionForm(try browser.request("GET", path))
            #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key)).status == 303)
        }
        let csrf = browser.csrfToken(from: try browser.request("GET", "/me/settings"))
        #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": csrf]).status == 303)
        #expect(try browser.request("GET", path + "/results").bodyText.contains("100"))
        #expect(try browser.request("GET", "/me").status == 200)
        #expect(try browser.request("GET", MiniExam.path + "/leaderboard").status == 200)
        let item = try OfflineBundles.manifest(site)
        #expect(try browser.request("GET", item.url).status == 200)
        let upload = try ProgressUpload.post(browser, csrf: csrf, ProgressUpload.body(
            session: UUID(), answers: [(UUID(), MiniExam.items[0], MiniExam.items[0].key)], finished: true))
        #expect(upload.status == 200)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 4)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE finished_at IS NOT NULL AND score_correct > 0") == 2)
    }

    @Test("behind a proxy that passes a port-less Host, forms are accepted from the public origin and refused from any other")
    func originFromPublicURL() throws {
        let site = try PortalSite(environment: ["PUBLIC_URL": "https://portal.example"])
        let browser = site.browser()
        try browser.register("proxied")
        let csrf = browser.csrfToken(from: try browser.request("GET", "/me/settings"))
        func save(origin: String) throws -> Int {
            try browser.request("POST", "/me/settings", form: ["csrf_token": csrf, "display_name": "Proxied", "time_zone": "UTC"],
                                extraHeaders: "Origin: \(origin)\r\n").status
        }
        // The browser's own Host line says 127.0.0.1:port; the proxy's would say portal.example.
        #expect(try save(origin: "https://portal.example") == 303)
        #expect(try save(origin: "http://127.0.0.1:\(site.server.port)") == 403, "the origin is the public one, not whatever Host says")
        #expect(try save(origin: "https://evil.example") == 403)
        // HTTPS: the browser keeps to it.
        #expect(try browser.request("GET", "/").header("Strict-Transport-Security")?.hasPrefix("max-age=") == true)
    }

    @Test("forwarded headers are believed from a trusted proxy only; absolute links follow the forwarded scheme")
    func forwardedHeaders() throws {
        let trusting = try PortalSite(environment: ["TRUSTED_PROXIES": "127.0.0.1", "METRICS_ALLOW": "198.51.100.0/24"])
        let plain = try PortalSite(environment: ["METRICS_ALLOW": "198.51.100.0/24"])
        let forwarded = "X-Forwarded-For: 198.51.100.7\r\nX-Forwarded-Proto: https\r\n"
        #expect(try trusting.browser().request("GET", "/metrics", extraHeaders: forwarded).status == 200, "the client is 198.51.100.7")
        #expect(try plain.browser().request("GET", "/metrics", extraHeaders: forwarded).status == 403, "a spoofed header changes nothing")
        for (site, scheme) in [(trusting, "https"), (plain, "http")] {
            let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
            let formToken = teacher.formToken(from: try teacher.request("GET", "/teach"))
            let created = try teacher.request("POST", "/teach/classes", form: ["csrf_token": csrf, "form_token": formToken, "name": "Year 11"], extraHeaders: forwarded)
            let page = try teacher.request("GET", created.header("Location") ?? "", extraHeaders: forwarded).bodyText
            #expect(page.contains("\(scheme)://127.0.0.1:\(site.server.port)/join/"), "\(scheme)")
        }
    }

    @Test("with the database stopped, a signed-in page is a 503 with Retry-After, and a visitor still gets the cached exam page")
    func databaseStopped() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let admin = cluster.adminURL
        let owner = try PostgresConnection(url: admin)
        try Migrator(directory: TestPaths.repository + "/migrations", repeatables: TestPaths.repository + "/db").migrate(owner)
        try MiniExam.install(owner)
        owner.close()
        var configuration = PortalConfiguration()
        configuration.databaseURL = cluster.appURL
        configuration.server.port = 0
        configuration.server.accessLog = false
        configuration.publicDirectory = TestPaths.repository + "/Public"
        configuration.templatesDirectory = TestPaths.repository + "/Templates"
        let server = try PortalApplication(configuration: configuration).makeServer()
        try server.start()
        defer { server.shutdown(); server.waitUntilStopped() }
        let student = Browser(port: server.port)
        try student.register("steady")
        #expect(try Browser(port: server.port).request("GET", MiniExam.path).status == 200)
        try cluster.stop()
        let signedIn = try student.request("GET", "/me")
        #expect(signedIn.status == 503 && signedIn.header("Retry-After") == "5")
        #expect(signedIn.bodyText.contains("cannot reach its database"), "the friendly page, not a 500")
        let visitor = try Browser(port: server.port).request("GET", MiniExam.path)
        #expect(visitor.status == 200 && visitor.bodyText.contains(MiniExam.exam))
        #expect(try Browser(port: server.port).request("GET", "/readyz").status == 503)
        try cluster.start()
        #expect(try student.request("GET", "/me").status == 200, "and it recovers by itself")
    }

    @Test("a locked table makes its statement give up in seconds, and the other pages keep answering meanwhile")
    func lockedTable() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("blocked")
        let (_, path) = try startSession(browser, count: "2")
        let form = try QuestionForm(try browser.request("GET", path))
        let locker = try site.database.adminConnection()
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE answers IN ACCESS EXCLUSIVE MODE")
        let started = Date()
        let answered = Mutex<RawHTTPClient.Response?>(nil)
        struct Shared: @unchecked Sendable { let browser: Browser; let form: QuestionForm }
        let shared = Shared(browser: browser, form: form)
        let thread = Thread {
            let response = try? shared.browser.request("POST", path + "/answers", pairs: shared.form.pairs(shared.form.item.key))
            answered.withLock { $0 = response }
        }
        thread.start()
        Thread.sleep(forTimeInterval: 0.5)
        // Meanwhile a visitor's page answers at once.
        let quick = Date()
        #expect(try site.browser().request("GET", MiniExam.path).status == 200)
        #expect(Date().timeIntervalSince(quick) < 2)
        while answered.withLock({ $0 }) == nil && Date().timeIntervalSince(started) < 20 { Thread.sleep(forTimeInterval: 0.1) }
        let response = try #require(answered.withLock { $0 })
        #expect(response.status == 503 && response.header("Retry-After") != nil)
        #expect(Date().timeIntervalSince(started) < 10, "the lock wait gave up (lock_timeout)")
        try locker.execute("ROLLBACK")
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 0)
    }

    @Test("more concurrent requests than the pool has connections: every page answers, none waits on a second connection")
    func smallPool() throws {
        let site = try PortalSite(environment: ["DB_POOL_SIZE": "2", "WORKERS": "8"])
        let (teacher, _, _) = try site.account("teacher", role: "teacher")
        _ = try teacher.submit("/teach", to: "/teach/classes", ["name": "Busy class"])
        let paths = ["/", MiniExam.path, MiniExam.path + "/leaderboard", "/teach", "/me", "/me/settings", "/api/me"]
        let statuses = Mutex<[Int]>([])
        struct Shared: @unchecked Sendable { let teacher: Browser }
        let shared = Shared(teacher: teacher)
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            let status = (try? shared.teacher.request("GET", paths[index % paths.count]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 }, "\(statuses.withLock { $0 })")
    }
}
