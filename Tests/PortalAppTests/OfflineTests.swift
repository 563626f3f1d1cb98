import ExamData
import Foundation
import HTTPServer
import OfflineBundle
import PortalApp
import PostgresClient
import TestSupport
import Testing

/// The offline catalogue over HTTP: the manifest, immutable bundles and change feeds.
@Suite("Offline bundles and change feeds")
struct OfflineTests {
    struct Manifest: Decodable {
        struct Item: Decodable { var region: String; var slug: String; var version: String; var questions: Int; var url: String; var bytes: Int }
        var format: Int
        var exams: [Item]
    }

    static func manifest(_ site: StudySessionTests.Site) throws -> Manifest.Item {
        let response = try site.browser().request("GET", "/offline/manifest.json")
        #expect(response.status == 200)
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(response.body))
        #expect(manifest.format == 1)
        return try #require(manifest.exams.first { $0.slug == MiniExam.exam })
    }

    @Test("the manifest names each exam's bundle; the bundle is immutable, tagged, gzipped on request, and only its current version is served")
    func bundles() throws {
        let site = try StudySessionTests.Site()
        let item = try Self.manifest(site)
        #expect(item.questions == 7)
        #expect(item.url == "/offline/exams/\(MiniExam.region)/\(MiniExam.exam).\(item.version).json")
        let plain = try site.browser().request("GET", item.url)
        #expect(plain.status == 200)
        #expect(plain.body.count == item.bytes)
        #expect(plain.header("Cache-Control") == "public, max-age=31536000, immutable")
        let etag = try #require(plain.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let bundle = try JSONDecoder().decode(ExamBundle.self, from: Data(plain.body))
        #expect(bundle.format == 1 && bundle.version == item.version && bundle.questions.count == 7 && bundle.domains.count == 2)
        #expect(bundle.questions.first { $0.id == MiniExam.items[4].id }?.correct == MiniExam.items[4].key)
        let gzipped = try site.browser().request("GET", item.url, extraHeaders: "Accept-Encoding: gzip\r\n")
        #expect(gzipped.header("Content-Encoding") == "gzip" && gzipped.body.count < plain.body.count)
        #expect(try site.browser().request("GET", item.url, extraHeaders: "If-None-Match: \(etag)\r\n").status == 304)
        // A content change makes a new version; the old URL says where the current one is.
        try site.database.adminConnection().execute("UPDATE questions SET stem = 'Changed?' WHERE id = \(MiniExam.items[0].id)")
        let newer = try Self.manifest(site)
        #expect(newer.version != item.version)
        let old = try site.browser().request("GET", item.url)
        #expect(old.status == 404)
        #expect(old.bodyText.contains("\"current\":\"\(newer.url)\""))
        #expect(try site.browser().request("GET", "/offline/exams/\(MiniExam.region)/\(MiniExam.exam).latest.json").status == 404)
        #expect(try site.browser().request("GET", "/offline/exams/\(MiniExam.region)/nothing.1.json").status == 404)
    }

    @Test("the change feed has exactly what changed since a version, tombstones included, and asks for the bundle when a delta is not worth it")
    func changeFeed() throws {
        let site = try StudySessionTests.Site()
        let owner = try site.database.adminConnection()
        // The content is an hour old, so the feed's overlap window holds none of it.
        try owner.execute("UPDATE questions SET updated_at = now() - interval '1 hour'")
        let before = try Self.manifest(site).version
        let unchanged = try JSONDecoder().decode(ChangeFeed.self, from: Data(try site.browser().request(
            "GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(before)").body))
        #expect(unchanged.version == before && unchanged.changed.isEmpty && unchanged.deleted.isEmpty && !unchanged.full)
        try owner.execute("UPDATE questions SET stem = 'Which animal?' WHERE id = \(MiniExam.items[0].id)")
        try owner.execute("UPDATE questions SET status = 'retired' WHERE id = \(MiniExam.items[6].id)")
        try owner.execute("UPDATE questions SET deleted_at = now() WHERE id = \(MiniExam.items[5].id)")
        let response = try site.browser().request("GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(before)")
        #expect(response.status == 200)
        let feed = try JSONDecoder().decode(ChangeFeed.self, from: Data(response.body))
        #expect(feed.version != before && !feed.full)
        #expect(feed.changed.map(\.id) == [MiniExam.items[0].id])
        #expect(feed.changed.first?.stem == "Which animal?" && feed.changed.first?.version == 2)
        #expect(Set(feed.deleted) == [MiniExam.items[5].id, MiniExam.items[6].id])
        #expect(feed.bundle == "/offline/exams/\(MiniExam.region)/\(MiniExam.exam).\(feed.version).json")
        let ancient = BundleVersion.string(site.clock.read().addingTimeInterval(-200 * 86_400))
        let old = try JSONDecoder().decode(ChangeFeed.self, from: Data(try site.browser().request(
            "GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(ancient)").body))
        #expect(old.full && old.changed.isEmpty)
        for bad in ["yesterday", "-5", "", "99999999999999"] {
            #expect(try site.browser().request("GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(bad)").status == 400, "\(bad)")
        }
        #expect(try site.browser().request("GET", "/api/exams/\(MiniExam.region)/nothing/changes?since=\(before)").status == 404)
    }
}
