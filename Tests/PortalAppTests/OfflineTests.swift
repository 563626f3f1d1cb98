import ExamData
import Foundation
import HTTPServer
import OfflineBundle
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// The offline catalogue over HTTP: the manifest, immutable bundles and change feeds.
@Suite("Offline bundles and change feeds", .onTestThreads)
struct OfflineTests {

    @Test("the manifest names each exam's bundle; the bundle is immutable, tagged, gzipped on request, and only its current version is served")
    func bundles() throws {
        let site = try PortalSite()
        // Bundles carry answer keys: a visitor is told to sign in, a student gets them.
        let reader = site.browser()
        try reader.register("reader")
        let item = try OfflineBundles.manifest(site)
        let visitor = try site.browser().request("GET", item.url)
        #expect(visitor.status == 401 && visitor.bodyText.contains("Sign in"))
        #expect(item.questions == 7)
        #expect(item.url == "/offline/exams/\(MiniExam.region)/\(MiniExam.exam).\(item.version).json")
        let plain = try reader.request("GET", item.url)
        #expect(plain.status == 200)
        #expect(plain.body.count == item.bytes)
        #expect(plain.header("Cache-Control") == "private, max-age=31536000, immutable")
        #expect(plain.header("Vary")?.contains("Cookie") == true)
        let etag = try #require(plain.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let bundle = try JSONDecoder().decode(ExamBundle.self, from: Data(plain.body))
        #expect(bundle.format == 1 && bundle.version == item.version && bundle.questions.count == 7 && bundle.domains.count == 2)
        #expect(bundle.questions.first { $0.id == MiniExam.items[4].id }?.correct == MiniExam.items[4].key)
        let gzipped = try reader.request("GET", item.url, extraHeaders: "Accept-Encoding: gzip\r\n")
        #expect(gzipped.header("Content-Encoding") == "gzip" && gzipped.body.count < plain.body.count)
        #expect(try reader.request("GET", item.url, extraHeaders: "If-None-Match: \(etag)\r\n").status == 304)
        // A content change makes a new version; the old URL says where the current one is.
        try site.database.adminConnection().execute("UPDATE questions SET stem = 'Changed?' WHERE id = \(MiniExam.items[0].id)")
        let newer = try OfflineBundles.manifest(site)
        #expect(newer.version != item.version)
        let old = try reader.request("GET", item.url)
        #expect(old.status == 404)
        #expect(old.bodyText.contains("\"current\":\"\(newer.url)\""))
        #expect(try reader.request("GET", "/offline/exams/\(MiniExam.region)/\(MiniExam.exam).latest.json").status == 404)
        #expect(try reader.request("GET", "/offline/exams/\(MiniExam.region)/nothing.1.json").status == 404)
    }

    @Test("the change feed has exactly what changed since a version, tombstones included, and asks for the bundle when a delta is not worth it")
    func changeFeed() throws {
        let site = try PortalSite()
        let owner = try site.database.adminConnection()
        let reader = site.browser()
        try reader.register("reader")
        #expect(try site.browser().request("GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(BundleVersion.string(Date()))").status == 401)
        // The content is an hour old, so the feed's overlap window holds none of it.
        try owner.execute("UPDATE questions SET updated_at = now() - interval '1 hour'")
        let before = try OfflineBundles.manifest(site).version
        let unchanged = try JSONDecoder().decode(ChangeFeed.self, from: Data(try reader.request(
            "GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(before)").body))
        #expect(unchanged.version == before && unchanged.changed.isEmpty && unchanged.deleted.isEmpty && !unchanged.full)
        try owner.execute("UPDATE questions SET stem = 'Which animal?' WHERE id = \(MiniExam.items[0].id)")
        try owner.execute("UPDATE questions SET status = 'retired' WHERE id = \(MiniExam.items[6].id)")
        try owner.execute("UPDATE questions SET deleted_at = now() WHERE id = \(MiniExam.items[5].id)")
        let response = try reader.request("GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(before)")
        #expect(response.status == 200)
        let feed = try JSONDecoder().decode(ChangeFeed.self, from: Data(response.body))
        #expect(feed.version != before && !feed.full)
        #expect(feed.changed.map(\.id) == [MiniExam.items[0].id])
        #expect(feed.changed.first?.stem == "Which animal?" && feed.changed.first?.version == 2)
        #expect(Set(feed.deleted) == [MiniExam.items[5].id, MiniExam.items[6].id])
        #expect(feed.bundle == "/offline/exams/\(MiniExam.region)/\(MiniExam.exam).\(feed.version).json")
        let ancient = BundleVersion.string(site.clock.read().addingTimeInterval(-200 * 86_400))
        let old = try JSONDecoder().decode(ChangeFeed.self, from: Data(try reader.request(
            "GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(ancient)").body))
        #expect(old.full && old.changed.isEmpty)
        for bad in ["yesterday", "-5", "", "99999999999999"] {
            #expect(try reader.request("GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(bad)").status == 400, "\(bad)")
        }
        #expect(try reader.request("GET", "/api/exams/\(MiniExam.region)/nothing/changes?since=\(before)").status == 404)
    }
}

/// Progress recorded offline and uploaded later.
@Suite("Offline progress upload", .onTestThreads)
struct ProgressUploadTests {
    @Test("a batch is checked against the key, stored once however often it is sent, and each bad item is rejected on its own")
    func upload() throws {
        let site = try PortalSite()
        let (student, _, csrf) = try site.account("traveller", role: "student")
        let session = UUID()
        // All seven questions, every other one wrong; the client's "correct": true is ignored.
        let answers = MiniExam.items.enumerated().map { index, item in (UUID(), item, index % 2 == 0 ? item.key : item.wrong) }
        let first = try ProgressUpload.post(student, csrf: csrf, ProgressUpload.body(session: session, answers: answers, finished: true))
        #expect(first.status == 200)
        let outcome = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(first.body))
        #expect(outcome.accepted.count == 7 && outcome.duplicates.isEmpty && outcome.rejected.isEmpty)
        #expect(outcome.finishedSessions == [session.uuidString.lowercased()])
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE correct") == 4)
        #expect(try site.count("SELECT count(*) AS n FROM review_cards") == 7)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE finished_at IS NOT NULL AND score_correct = 4") == 1)
        // The cards written for the whole batch at once are the ones the history implies.
        #expect(try ReviewCardStore().rebuildAll(try site.database.adminConnection()).differing == 0)
        // The upload repeated (the device never heard the answer): nothing stored twice.
        let again = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, ProgressUpload.body(session: session, answers: answers, finished: true)).body))
        #expect(again.accepted.isEmpty && again.duplicates.count == 7 && again.rejected.isEmpty)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 7)
        // A batch with bad items: each refused with its reason, the good one stored.
        let other = UUID()
        let mixed = [
            (UUID(), MiniExam.items[0], MiniExam.items[0].key),                // good
            (UUID(), MiniExam.items[1], [9]),                                   // no such option
            (answers[2].0, MiniExam.items[2], MiniExam.items[2].wrong),         // a used id with another answer
        ]
        let result = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, ProgressUpload.body(
            session: other, answers: mixed, finished: false, questionIDs: [MiniExam.items[0].id, MiniExam.items[1].id])).body))
        #expect(result.accepted == [mixed[0].0.uuidString.lowercased()])
        #expect(result.rejected.count == 2)
        #expect(result.rejected.contains { $0.id == mixed[1].0.uuidString.lowercased() && $0.reason.contains("not an answer") })
        #expect(result.rejected.contains { $0.id == answers[2].0.uuidString.lowercased() })
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 8)
        // An answer the database refuses (its session is finished: the freeze trigger) costs
        // only itself; the answer beside it in the batch is stored.
        let late = UUID(), beside = UUID()
        let lateBody = ProgressUpload.body(session: session, answers: [(late, MiniExam.items[0], MiniExam.items[0].key)], finished: true)
        let besideBody = ProgressUpload.body(session: other, answers: [(beside, MiniExam.items[1], MiniExam.items[1].key)], finished: false,
                                   questionIDs: [MiniExam.items[0].id, MiniExam.items[1].id])
        func parts(_ body: String) throws -> (sessions: [Any], answers: [Any]) {
            let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as! [String: Any]
            return (object["sessions"] as! [Any], object["answers"] as! [Any])
        }
        let combined = try JSONSerialization.data(withJSONObject: [
            "sessions": try parts(lateBody).sessions + parts(besideBody).sessions,
            "answers": try parts(lateBody).answers + parts(besideBody).answers,
        ])
        let both = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, String(decoding: combined, as: UTF8.self)).body))
        #expect(both.accepted == [beside.uuidString.lowercased()])
        #expect(both.rejected.map(\.id) == [late.uuidString.lowercased()] && both.rejected[0].reason.contains("could not be stored"))
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 9)
        // The same new id twice in one batch: stored once, the repeat a duplicate; with another
        // answer under it, refused.
        let twice = UUID(), clash = UUID()
        let repeated = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, ProgressUpload.body(
            session: UUID(), answers: [(twice, MiniExam.items[3], MiniExam.items[3].key), (twice, MiniExam.items[3], MiniExam.items[3].key),
                                       (clash, MiniExam.items[4], MiniExam.items[4].key), (clash, MiniExam.items[4], MiniExam.items[4].wrong)],
            finished: false)).body))
        #expect(repeated.accepted == [twice.uuidString.lowercased(), clash.uuidString.lowercased()])
        #expect(repeated.duplicates == [twice.uuidString.lowercased()])
        #expect(repeated.rejected.map(\.id) == [clash.uuidString.lowercased()])
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 11)
    }

    @Test("an answer to an earlier version is checked by what was chosen: reordered options map by id, a removed one is refused, an unknown version too")
    func earlierVersions() throws {
        let site = try PortalSite()
        let (student, _, csrf) = try site.account("traveller", role: "student")
        let owner = try site.database.adminConnection()
        let reordered = MiniExam.items[0], trimmed = MiniExam.items[1]
        // Since the device downloaded version 1: the first question's options reversed (its key
        // "Ant" moves from first to last), the second question's last option ("Blue") removed.
        try owner.execute("""
            UPDATE questions SET options = (SELECT jsonb_agg(o ORDER BY n DESC) FROM jsonb_array_elements(options) WITH ORDINALITY AS e(o, n)),
                                 correct = '[3]' WHERE id = \(reordered.id)
            """)
        try owner.execute("UPDATE questions SET options = options - 2 WHERE id = \(trimmed.id)")
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE version = 2 AND id IN (\(reordered.id), \(trimmed.id))") == 2)
        let right = UUID(), gone = UUID(), kept = UUID(), future = UUID(), session = UUID()
        let body = ProgressUpload.body(session: session, answers: [
            (right, reordered, [0]),        // "Ant" as it was shown: still the key
            (gone, trimmed, [2]),           // "Blue": no longer an option
            (kept, trimmed, [1]),           // "Green": the key, same place
        ], finished: false)
        let outcome = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, body).body))
        #expect(Set(outcome.accepted) == [right.uuidString.lowercased(), kept.uuidString.lowercased()])
        #expect(outcome.rejected.count == 1 && outcome.rejected[0].id == gone.uuidString.lowercased() && outcome.rejected[0].reason.contains("gone"))
        // Stored as given, with the version it was given for, and marked right.
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE id = \(right) AND correct AND question_version = 1 AND response = '[0]'") == 1)
        // A version the question never had, for a question of the session not answered yet.
        let unknown = ProgressUpload.body(session: session, answers: [(future, MiniExam.items[2], MiniExam.items[2].key)], finished: false)
            .replacingOccurrences(of: "\"questionVersion\": 1", with: "\"questionVersion\": 9")
        let refused = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, unknown).body))
        #expect(refused.rejected.contains { $0.id == future.uuidString.lowercased() && $0.reason.contains("never published") })
    }

    @Test("a question retired since the download drops out of the offline session: its answer is refused, the others count")
    func retiredSinceDownload() throws {
        let site = try PortalSite()
        let (student, _, csrf) = try site.account("traveller", role: "student")
        let retired = MiniExam.items[2]
        try site.database.adminConnection().execute("UPDATE questions SET status = 'retired' WHERE id = \(retired.id)")
        let session = UUID()
        let answers = MiniExam.items.prefix(4).map { (UUID(), $0, $0.key) }
        let outcome = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, ProgressUpload.body(
            session: session, answers: Array(answers), finished: true, questionIDs: answers.map(\.1.id))).body))
        #expect(outcome.accepted.count == 3 && outcome.finishedSessions == [session.uuidString.lowercased()])
        #expect(outcome.rejected.count == 1 && outcome.rejected[0].id == answers[2].0.uuidString.lowercased())
        #expect(outcome.rejected.first?.reason.contains("no longer published") == true)
        #expect(try site.count("SELECT cardinality(question_ids) AS n FROM study_sessions WHERE id = \(session)") == 3)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(session) AND score_correct = 3") == 1)
    }

    @Test("uploads need a signed-in student, a CSRF token, JSON of the format and a bounded size")
    func refusals() throws {
        let site = try PortalSite()
        let (student, _, csrf) = try site.account("traveller", role: "student")
        let body = ProgressUpload.body(session: UUID(), answers: [(UUID(), MiniExam.items[0], [0])], finished: false)
        let visitor = site.browser()
        let token = visitor.csrfToken(from: try visitor.request("GET", "/login"))
        let anonymous = try ProgressUpload.post(visitor, csrf: token, body)
        #expect(anonymous.status == 401 && anonymous.bodyText.contains("Sign in to continue"))
        #expect(try ProgressUpload.post(student, csrf: "forged", body).status == 403)
        #expect(try ProgressUpload.post(student, csrf: csrf, "{\"answers\": 5}").status == 400)
        let many = ProgressUpload.body(session: UUID(), answers: (0..<501).map { _ in (UUID(), MiniExam.items[0], [0]) }, finished: false)
        #expect(try ProgressUpload.post(student, csrf: csrf, many).status == 413)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 0)
    }
}
