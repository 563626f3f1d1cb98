import ExamData
import Foundation
import HTTPServer
import Interop
import PortalApp
import PostgresClient
import PortalTestSupport
import TestSupport
import Testing

/// The catalogue pages over a real socket, against a seeded database.
@Suite("Catalogue pages", .onTestThreads)
struct CatalogPageTests {
    /// The demo catalogue and a running portal on it.
    func site() throws -> PortalSite { try PortalSite(content: .demoCatalogue) }

    @Test("the home page lists every region and exam with question counts and freshness")
    func home() throws {
        let site = try site()
        let page = try site.get("/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let html = page.bodyText
        for region in ["Europe", "Asia Pacific", "Americas"] { #expect(html.contains(region)) }
        #expect(html.contains(#"<a href="/exams/asia-pacific/database-kiso" lang="ja">データベース基礎</a>"#))
        #expect(html.contains(#"lang="it">Programmazione in Python</a>"#))
        #expect(html.contains("875 questions"))
        #expect(html.contains("Content updated just now"))
        #expect(html.contains(#"<html lang="en">"#))
    }

    @Test("the exam page shows domains with weights and counts by difficulty, and the start form")
    func examPage() throws {
        let site = try site()
        let html = try site.get("/exams/europe/network-fundamentals").bodyText
        #expect(html.contains("<h1 lang=\"en\">Network Fundamentals</h1>"))
        #expect(html.contains("Subnet sizes"))
        #expect(html.contains(#"<td class="number">15%</td>"#))
        #expect(html.contains(#"<abbr title="Expert">5</abbr>"#))
        #expect(html.contains(#"<form class="start" method="post" action="/sessions">"#))
        #expect(html.contains(#"<dd>1,500</dd>"#))
        let filtered = try site.get("/exams/europe/network-fundamentals?difficulty=1").bodyText
        #expect(filtered.contains(#"<option value="1" selected>1 · Introductory</option>"#))
        #expect(filtered.contains("Showing questions at difficulty 1 · Introductory"))
        #expect(!filtered.contains(#"<abbr title="Expert">5</abbr>"#))
    }

    @Test("bad difficulty values are a 400 page that says what is expected", arguments: ["9", "0", "abc", "3.5", "-1", "%F0%9F%98%80"])
    func badDifficulty(_ value: String) throws {
        let site = try site()
        let page = try site.get("/exams/europe/network-fundamentals?difficulty=\(value)")
        #expect(page.status == 400)
        #expect(page.bodyText.contains("Difficulty must be a whole number from 1 (introductory) to 5 (expert)"))
        #expect(page.bodyText.contains("<!DOCTYPE html>"))
    }

    @Test("an unknown region or exam is a real 404 page")
    func notFound() throws {
        let site = try site()
        for path in ["/exams/europe/no-such-exam", "/exams/mars/network-fundamentals", "/no/such/page"] {
            let page = try site.get(path)
            #expect(page.status == 404)
            #expect(page.bodyText.contains("Page not found"))
            #expect(page.bodyText.contains("There is no exam") || page.bodyText.contains("There is nothing at this address."))
            #expect(page.bodyText.contains(#"<a href="/">Back to the list of exams</a>"#))
        }
    }

    @Test("hostile text stored in the database is escaped on every page")
    func hostileContentIsEscaped() throws {
        let hostile = #"<script>alert("x")</script> & 'quoted'"#
        let site = try PortalSite(content: .demoCatalogue) { connection in
            _ = try ContentImport().apply(ContentDocument(regions: [ContentDocument.Region(code: "evil", name: hostile, exams: [ContentDocument.Exam(
                slug: "xss", title: hostile, description: hostile, language: "en", passMark: 50, timeLimitSeconds: 600, questionCount: 5,
                domains: [ContentDocument.Domain(slug: "d", title: hostile, weight: 100, questions: [])])])]), connection)
        }
        for path in ["/", "/exams/evil/xss"] {
            let html = try site.get(path).bodyText
            #expect(!html.contains("<script>"))
            #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;"))
        }
    }

    @Test("every page passes the Nu Html Checker")
    func pagesAreValidHTML() throws {
        let site = try site()
        let pages = [
            "home": "/", "exam": "/exams/europe/network-fundamentals", "exam-ja": "/exams/asia-pacific/database-kiso",
            "exam-filtered": "/exams/americas/security-essentials?difficulty=4", "not-found": "/exams/europe/nothing",
            "bad-request": "/exams/europe/network-fundamentals?difficulty=9",
        ]
        let check = try HTMLChecker.passes(try pages.map { name, path in (name, try site.get(path).body) })
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }
}

extension PortalSite {
    /// A visitor's GET, on a connection of its own.
    func get(_ path: String, headers: String = "") throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: server.port)
        client.send("GET \(path) HTTP/1.1\r\nHost: a\r\n\(headers)Connection: close\r\n\r\n")
        return try #require(client.readResponse())
    }
}
