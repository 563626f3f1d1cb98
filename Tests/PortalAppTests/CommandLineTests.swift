import ExamData
import Foundation
import Glibc
import Interop
import PostgresClient
import TestSupport
import Testing

/// The `portal` binary itself, as `make run` uses it: migrate, then serve until SIGTERM.
@Suite("portal migrate and serve", .onTestThreads)
struct CommandLineTests {
    static var binary: String { TestPaths.repository + "/.build/debug/portal" }

    /// Starts `portal` with extra environment; its output goes to a file.
    private func spawn(_ arguments: [String], environment: [String: String], output: String, input: String? = nil) throws -> pid_t {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let env = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let argv = ([Self.binary] + arguments).map { strdup($0) } + [nil]
        defer { (env + argv).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let input {
            let path = output + ".stdin"
            try input.write(toFile: path, atomically: true, encoding: .utf8)
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        }
        var pid: pid_t = 0
        guard withSignalsUnblocked({ posix_spawn(&pid, Self.binary, &actions, &$0, argv, env) }) == 0 else {
            throw TestEnvironmentError("could not start \(Self.binary); run the tests with `make test`")
        }
        return pid
    }

    /// The child's exit status; a child still running after `timeout` seconds is killed and
    /// reported as -1, so a server that ignores SIGTERM fails the test instead of hanging it.
    private func wait(_ pid: pid_t, timeout: Double = 20) -> Int32 {
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return -1
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    @Test("migrate applies the migrations, serve answers /healthz and /readyz; SIGTERM turns /readyz to 503 first, then stops it cleanly")
    func migrateThenServe() throws {
        let database = try TestDatabase()
        let log = NSTemporaryDirectory() + "portal-\(UUID().uuidString).log"
        let environment = ["DATABASE_ADMIN_URL": database.adminDatabaseURL, "DATABASE_URL": database.appDatabaseURL, "MIGRATIONS_DIR": TestPaths.repository + "/migrations", "TEMPLATES_DIR": TestPaths.repository + "/Templates"]

        #expect(wait(try spawn(["migrate"], environment: environment, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("applied 0001_roles.sql"))

        let server = try spawn(["serve"], environment: environment.merging([
            "PORT": "0", "PUBLIC_DIR": TestPaths.repository + "/Public", "SHUTDOWN_DRAIN_SECONDS": "2",
        ]) { $1 }, output: log)
        var port: Int?
        // Up to a minute: on a machine busy with the other suites, starting takes a while.
        for _ in 0..<600 where port == nil {
            Thread.sleep(forTimeInterval: 0.1)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "http://127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
        }
        let serving = try #require(port)
        let client = try RawHTTPClient(port: serving)
        client.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /readyz HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        #expect(client.readResponse()?.status == 200)
        let signalled = Date()
        kill(server, SIGTERM)
        // Draining: still serving, but a load balancer's check now says "not ready".
        Thread.sleep(forTimeInterval: 0.3)
        let draining = try RawHTTPClient(port: serving)
        draining.send("GET /readyz HTTP/1.1\r\nHost: a\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
        let ready = draining.readResponse()
        #expect(ready?.status == 503 && ready?.header("Retry-After") != nil)
        #expect(draining.readResponse()?.status == 200, "requests are still answered while draining")
        #expect(wait(server) == 0)
        #expect(Date().timeIntervalSince(signalled) >= 2, "the listener stays open for the drain")
        let output = try String(contentsOfFile: log, encoding: .utf8)
        #expect(output.contains("GET /healthz 200"))
        #expect(output.contains("serve: stopped"))
    }

    @Test("create-admin reads the password from standard input and makes an admin who can sign in")
    func createAdmin() throws {
        let database = try TestDatabase(migrated: true)
        let log = NSTemporaryDirectory() + "portal-\(UUID().uuidString).log"
        let environment = ["DATABASE_ADMIN_URL": database.adminDatabaseURL]
        #expect(wait(try spawn(["create-admin", "--username", "head-teacher"], environment: environment, output: log, input: "a long and private phrase\n")) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("head-teacher is an admin"))
        let owner = try database.adminConnection()
        try owner.execute("SET ROLE portal_auth")
        let row = try #require(try owner.query("SELECT role, password_hash FROM users WHERE username = 'head-teacher'").first)
        #expect(try row.decode("role", as: String.self) == "admin")
        #expect(try row.decode("password_hash", as: String.self).hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        // A common password is refused, and the password is never taken from the arguments.
        #expect(wait(try spawn(["create-admin", "--username", "x-admin"], environment: environment, output: log, input: "password123\n")) == 1)
        #expect(wait(try spawn(["create-admin", "--username", "x-admin", "secret-in-args"], environment: environment, output: log, input: "")) == 1)
    }

    @Test("portal import lists every problem and imports nothing, or imports all; twice changes nothing")
    func importCommand() throws {
        let database = try TestDatabase(migrated: true)
        let folder = NSTemporaryDirectory() + "import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let good = folder + "/good.json", bad = folder + "/bad.json", log = folder + "/log"
        try Data(ContentDocuments.document(stem: "What is 2 + 2?").utf8).write(to: URL(fileURLWithPath: good))
        try Data(ContentDocuments.document(stem: " ", passMark: 0).utf8).write(to: URL(fileURLWithPath: bad))
        let environment = ["DATABASE_ADMIN_URL": database.adminDatabaseURL]
        #expect(wait(try spawn(["import", bad], environment: environment, output: log)) == 1)
        let refused = try String(contentsOfFile: log, encoding: .utf8)
        #expect(refused.contains("passMark: must be from 1 to 100"))
        #expect(refused.contains("stem: must have 1 to 20000 characters"))
        #expect(refused.contains("nothing was imported"))
        #expect(try database.adminConnection().query("SELECT count(*) AS n FROM exams").first!.decode("n", as: Int.self) == 0)
        // A dry run says what the import would do and stores nothing.
        #expect(wait(try spawn(["import", good, "--dry-run"], environment: environment, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("import (dry run, nothing stored): format 1 (JSON); 1 exams; 3 questions added"))
        #expect(try database.adminConnection().query("SELECT count(*) AS n FROM exams").first!.decode("n", as: Int.self) == 0)
        #expect(wait(try spawn(["import", good, "--dry-run", "--draft"], environment: environment, output: log)) != 0)
        #expect(wait(try spawn(["import", good], environment: environment, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("3 questions added, 0 changed, 0 unchanged"))
        #expect(wait(try spawn(["import", good], environment: environment, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("0 questions added, 0 changed, 3 unchanged"))
    }

    @Test("portal import reads GIFT and Aiken into an exam: categories become domains, unsupported items are named, twice changes nothing")
    func importForeignFormats() throws {
        let database = try TestDatabase(migrated: true)
        try MiniExam.install(try database.adminConnection())
        let folder = NSTemporaryDirectory() + "import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let gift = TestPaths.repository + "/Tests/Fixtures/import/networking.gift"
        let aiken = TestPaths.repository + "/Tests/Fixtures/import/networking.aiken.txt"
        let log = folder + "/log", into = "\(MiniExam.region)/\(MiniExam.exam)"
        let environment = ["DATABASE_ADMIN_URL": database.adminDatabaseURL]
        func output() throws -> String { try String(contentsOfFile: log, encoding: .utf8) }
        func count(_ sql: SQL) throws -> Int { try database.adminConnection().query(sql).first!.decode("n", as: Int.self) }
        let before = try count("SELECT count(*) AS n FROM questions")

        // Without an exam to go into, or with items the portal has no kind for: nothing written.
        #expect(wait(try spawn(["import", gift], environment: environment, output: log)) == 1)
        #expect(try output().contains("GIFT has no exams of its own: name the exam to import into with --into REGION/EXAM"))
        #expect(wait(try spawn(["import", gift, "--into", into], environment: environment, output: log)) == 1)
        #expect(try output().contains("line 33: an essay question"))
        #expect(try output().contains("2 items have no equivalent in the portal; nothing was imported"))
        #expect(try count("SELECT count(*) AS n FROM questions") == before)

        #expect(wait(try spawn(["import", gift, "--into", into, "--skip-unsupported"], environment: environment, output: log)) == 0)
        #expect(try output().contains("import: GIFT; 1 exams; 12 questions added, 0 changed, 0 unchanged"))
        #expect(try output().contains("import: skipped line 41: a weight pattern"))
        #expect(try count("SELECT count(*) AS n FROM questions WHERE type IN ('matching', 'fill-in') AND source_key LIKE 'gift:%'") == 5)
        #expect(try count("SELECT count(*) AS n FROM domains WHERE slug IN ('ports', 'addressing') AND weight = 10") == 2)
        #expect(try count("SELECT count(*) AS n FROM questions q JOIN domains d ON d.id = q.domain_id WHERE d.slug = 'ports'") == 3)
        #expect(try count("SELECT count(*) AS n FROM questions WHERE type = 'multi-choice' AND source_key LIKE 'gift:%'") == 1)
        #expect(wait(try spawn(["import", gift, "--into", into, "--skip-unsupported"], environment: environment, output: log)) == 0)
        #expect(try output().contains("0 questions added, 0 changed, 12 unchanged"))
        // An edited source updates its question in place, as a new version.
        let edited = folder + "/edited.gift"
        try Data(try String(contentsOfFile: gift, encoding: .utf8)
            .replacingOccurrences(of: "What port does HTTPS use by default?", with: "Which port does HTTPS use unless told otherwise?").utf8)
            .write(to: URL(fileURLWithPath: edited))
        #expect(wait(try spawn(["import", edited, "--into", into, "--skip-unsupported"], environment: environment, output: log)) == 0)
        #expect(try output().contains("0 questions added, 1 changed, 11 unchanged"))
        #expect(try count("SELECT version AS n FROM questions WHERE source_key = 'gift:$course$/Networking/Ports/https port'") == 2)

        // Aiken has no categories: into the exam's domain named, or refused when there are several.
        #expect(wait(try spawn(["import", aiken, "--into", into], environment: environment, output: log)) == 1)
        #expect(try output().contains("has no category: name the domain"))
        #expect(wait(try spawn(["import", aiken, "--into", into, "--domain", "alpha"], environment: environment, output: log)) == 0)
        #expect(try output().contains("import: Aiken; 1 exams; 3 questions added"))

        // Moodle XML likewise; its ordering question becomes the portal's ordering kind.
        let moodle = TestPaths.repository + "/Tests/Fixtures/import/networking.moodle.xml"
        #expect(wait(try spawn(["import", moodle, "--into", into, "--skip-unsupported"], environment: environment, output: log)) == 0)
        #expect(try output().contains("import: Moodle XML; 1 exams; 5 questions added"))
        #expect(try count("SELECT count(*) AS n FROM questions WHERE source_key LIKE 'moodle:%' AND type = 'ordering'") == 1)

        // A broken file: its line, and nothing written.
        let broken = folder + "/broken.gift"
        try Data("::a::First?{=x ~y}\n\n::b::Second?{=x ~y\n".utf8).write(to: URL(fileURLWithPath: broken))
        #expect(wait(try spawn(["import", broken, "--into", into], environment: environment, output: log)) == 1)
        #expect(try output().contains("GIFT: line 3: the answer block opened here is never closed with }"))
        #expect(try count("SELECT count(*) AS n FROM questions WHERE source_key = 'gift:a'") == 0)
    }

    /// Two portals for a round trip, each on a database of its own, and a folder for the files:
    /// the source gets `document` (the small arithmetic exam with `stem`) imported by the test;
    /// `empty` is the same exam with no domains or questions, for the target.
    struct RoundTrip {
        let folder: String, log: String, document: String, empty: String
        let source: TestDatabase, target: TestDatabase
        var from: [String: String] { ["DATABASE_ADMIN_URL": source.adminDatabaseURL, "PUBLIC_DIR": TestPaths.repository + "/Public"] }
        var to: [String: String] { ["DATABASE_ADMIN_URL": target.adminDatabaseURL, "PUBLIC_DIR": TestPaths.repository + "/Public"] }

        /// The pictures the target portal's first question shows, and how many pictures it stores.
        func targetPictures() throws -> (paths: [String], stored: Int) {
            let connection = try target.adminConnection()
            let options = try connection.query("SELECT options FROM questions WHERE source_key = 'q1'").single().decodeJSON("options", as: [[String: String]].self)
            return (options.compactMap { $0["imageUrl"] }, try connection.query("SELECT count(*) AS n FROM content_images").single().decode("n", as: Int.self))
        }

        init(prefix: String, stem: String) throws {
            folder = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            (log, document, empty) = (folder + "/log", folder + "/exam.json", folder + "/empty.json")
            source = try TestDatabase(migrated: true)
            target = try TestDatabase(migrated: true)
            // The first question's options show pictures: one stored with content, one of the site's own files.
            let dot = try ContentImage(bytes: TestPictures.png)
            var text = ContentDocuments.document(stem: stem)
                .replacingOccurrences(of: #"{"id": "a", "text": "4", "explanation": "2 + 2."}, {"id": "b", "text": "5"}"#, with: """
                    {"id": "a", "text": "4", "explanation": "2 + 2.", "imageUrl": "\(dot.path)"}, {"id": "b", "text": "5", "imageUrl": "/images/diagrams/network-a.svg"}
                    """)
            text = String(text.dropLast()) + #", "images": [{"path": "\#(dot.path)", "mediaType": "image/png", "data": "\#(dot.data.base64EncodedString())"}]}"#
            // And a question of each newer kind, beside the four.
            text = text.replacingOccurrences(of: #""correct": [1, 2, 0]}]},"#, with: """
                "correct": [1, 2, 0]},
                  {"key": "q4", "type": "matching", "stem": "Match each sum with its value.", "difficulty": 2,
                   "options": [{"id": "a", "text": "1 + 1"}, {"id": "b", "text": "2 + 2"}],
                   "targets": [{"id": "t1", "text": "4"}, {"id": "t2", "text": "2"}, {"id": "t3", "text": "3"}], "correct": [1, 0]},
                  {"key": "q5", "type": "fill-in", "stem": "What is 7 × 6?", "difficulty": 2, "explanation": "Six sevens.",
                   "options": [], "accepted": ["42"], "match": "numeric", "tolerance": 0.5},
                  {"key": "q6", "type": "hotspot", "stem": "Click the dot.", "difficulty": 1, "imageUrl": "\(dot.path)",
                   "options": [{"id": "a", "text": "The dot", "region": {"shape": "circle", "coords": [1, 1, 1]}},
                               {"id": "b", "text": "The corner", "region": {"shape": "rect", "coords": [0, 0, 1, 1]}}], "correct": [0]}]},
                """)
            try Data(text.utf8).write(to: URL(fileURLWithPath: document))
            try Data(#"""
                {"format": 1, "regions": [{"code": "imported", "name": "Imported region", "exams": [{"slug": "arithmetic", "title": "Arithmetic",
                 "description": "Sums.", "language": "en", "passMark": 70, "timeLimitSeconds": 600, "questionCount": 2, "domains": []}]}]}
                """#.utf8).write(to: URL(fileURLWithPath: empty))
        }
    }

    @Test("an exam exported as Moodle XML imports into another portal as the same questions, and exports the same again")
    func moodleRoundTrip() throws {
        let portals = try RoundTrip(prefix: "moodle", stem: "What is 2 + 2?\nCount <carefully> & well.")
        let (target, from, to, document, empty, log) = (portals.target, portals.from, portals.to, portals.document, portals.empty, portals.log)
        let first = portals.folder + "/first.xml", second = portals.folder + "/second.xml"
        #expect(wait(try spawn(["import", document], environment: from, output: log)) == 0)
        #expect(wait(try spawn(["export", "--format", "moodle", "imported/arithmetic", first], environment: from, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("export: 6 questions of imported/arithmetic as Moodle XML"))
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("export: 1 hotspot questions left out: Moodle XML has no type for them"))
        #expect(wait(try spawn(["import", empty], environment: to, output: log)) == 0)
        #expect(wait(try spawn(["import", first, "--into", "imported/arithmetic"], environment: to, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("Moodle XML; 1 exams; 5 questions added"))
        #expect(wait(try spawn(["export", "--format", "moodle", "imported/arithmetic", second], environment: to, output: log)) == 0)
        // The same document, but for the hotspot question Moodle XML has no type for (named in the first).
        let hotspot = "  <!-- q6: a hotspot question, which Moodle XML has no type for -->\n"
        #expect(try String(contentsOfFile: first, encoding: .utf8).contains(hotspot))
        #expect(try String(contentsOfFile: first, encoding: .utf8).replacingOccurrences(of: hotspot, with: "") == String(contentsOfFile: second, encoding: .utf8))
        // The same questions: keys, kinds, stems with their line breaks and signs, code, status, difficulty.
        let rows = try target.adminConnection().query("""
            SELECT source_key, type, stem, code, code_language, status, difficulty FROM questions ORDER BY source_key
            """).rows
        #expect(try rows.map { try $0.decode("source_key", as: String.self) } == ["q1", "q2", "q3", "q4", "q5"])
        #expect(try rows.map { try $0.decode("type", as: String.self) } == ["single-choice", "ordering", "code-snippet", "matching", "fill-in"])
        let details = try target.adminConnection().query("SELECT details::text AS d FROM questions WHERE source_key IN ('q4', 'q5') ORDER BY source_key").rows
        #expect(try details.map { try $0.decode("d", as: String.self) } == [
            #"{"targets": [{"id": "t1", "text": "4"}, {"id": "t2", "text": "2"}, {"id": "t3", "text": "3"}]}"#,
            #"{"match": "numeric", "accepted": ["42"], "tolerance": 0.5}"#,
        ])
        #expect(try rows[0].decode("stem", as: String.self) == "What is 2 + 2?\nCount <carefully> & well.")
        #expect(try rows[2].decode("code", as: String?.self) == "print(1 + 1)" && rows[2].decode("code_language", as: String?.self) == "python")
        #expect(try rows[2].decode("status", as: String.self) == "draft" && rows[1].decode("difficulty", as: Int.self) == 2)
        // Both pictures came inside the file and are stored here now.
        let pictures = try portals.targetPictures()
        #expect(pictures.stored == 2 && pictures.paths.count == 2 && pictures.paths.allSatisfy { $0.hasPrefix("/content-images/") })
        #expect(try String(contentsOfFile: first, encoding: .utf8).contains(#"<file name="\#(pictures.paths[1].dropFirst("/content-images/".count))" path="/" encoding="base64">"#))
        // Importing it again changes nothing.
        #expect(wait(try spawn(["import", first, "--into", "imported/arithmetic"], environment: to, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("0 questions added, 0 changed, 5 unchanged"))
    }

    @Test("an exam exported as format 1 imports into an empty portal and exports the same document")
    func jsonRoundTrip() throws {
        let portals = try RoundTrip(prefix: "json", stem: "What is 2 + 2?")
        let (from, to, document, log) = (portals.from, portals.to, portals.document, portals.log)
        let first = portals.folder + "/first.json", second = portals.folder + "/second.json"
        #expect(wait(try spawn(["import", document], environment: from, output: log)) == 0)
        #expect(wait(try spawn(["export", "imported/arithmetic", first], environment: from, output: log)) == 0)
        #expect(wait(try spawn(["import", first], environment: to, output: log)) == 0)
        #expect(wait(try spawn(["export", "imported/arithmetic", second], environment: to, output: log)) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        // The stored picture travels in the document; the site's own file is at the same address everywhere.
        #expect(try portals.targetPictures() == ([try ContentImage(bytes: TestPictures.png).path, "/images/diagrams/network-a.svg"], 1))
    }

    @Test("an exam exported as a QTI 3.0 or 2.1 package imports into another portal with its domains, and exports the same package again",
          arguments: ["qti3", "qti21"])
    func qtiRoundTrip(format: String) throws {
        let portals = try RoundTrip(prefix: "qti", stem: "What is 2 + 2?\nCount <carefully> & well.")
        let (target, from, to, document, empty, log) = (portals.target, portals.from, portals.to, portals.document, portals.empty, portals.log)
        let first = portals.folder + "/first.zip", second = portals.folder + "/second.zip"
        #expect(wait(try spawn(["import", document], environment: from, output: log)) == 0)
        #expect(wait(try spawn(["export", "--format", format, "imported/arithmetic", first], environment: from, output: log)) == 0)
        #expect(wait(try spawn(["import", empty], environment: to, output: log)) == 0)
        #expect(wait(try spawn(["import", first, "--into", "imported/arithmetic"], environment: to, output: log)) == 0)
        // The draft stays at home: a package carries the published bank.
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("IMS content package (zip); 1 exams; 5 questions added"))
        #expect(wait(try spawn(["export", "--format", format, "imported/arithmetic", second], environment: to, output: log)) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        let rows = try target.adminConnection().query("""
            SELECT q.source_key, q.type, q.stem, d.slug FROM questions q JOIN domains d ON d.id = q.domain_id ORDER BY q.source_key
            """).rows
        #expect(try rows.map { try $0.decode("source_key", as: String.self) } == ["q1", "q2", "q4", "q5", "q6"])
        #expect(try rows.map { try $0.decode("type", as: String.self) } == ["single-choice", "ordering", "matching", "fill-in", "hotspot"])
        #expect(try rows.map { try $0.decode("slug", as: String.self) } == ["sums", "sums", "sums", "sums", "sums"])
        #expect(try rows[0].decode("stem", as: String.self) == "What is 2 + 2?\nCount <carefully> & well.")
        let pictures = try portals.targetPictures()
        #expect(pictures.stored == 2 && pictures.paths.count == 2 && pictures.paths.allSatisfy { $0.hasPrefix("/content-images/") })
    }

    @Test("portal lti add-platform registers an LMS and its deployments, audited; a second run adds deployments only; plain HTTP elsewhere and missing flags are refused")
    func ltiAddPlatform() throws {
        let database = try TestDatabase(migrated: true)
        let log = NSTemporaryDirectory() + "lti-\(UUID().uuidString).log"
        let environment = ["DATABASE_ADMIN_URL": database.adminDatabaseURL]
        let flags = ["--issuer", "https://lms.example.org", "--client-id", "portal-1", "--auth-url", "https://lms.example.org/auth",
                     "--token-url", "https://lms.example.org/token", "--jwks-url", "https://lms.example.org/jwks"]
        #expect(wait(try spawn(["lti", "add-platform"] + flags + ["--deployment-id", "d1"], environment: environment, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("lti: registered https://lms.example.org (client portal-1); deployments d1"))
        #expect(wait(try spawn(["lti", "add-platform"] + flags + ["--deployment-id", "d1", "--deployment-id", "d2"], environment: environment, output: log)) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("already registered"))
        let owner = try database.adminConnection()
        #expect(try owner.query("SELECT count(*) AS n FROM lti_platforms").single().decode("n", as: Int.self) == 1)
        #expect(try owner.query("SELECT count(*) AS n FROM lti_deployments").single().decode("n", as: Int.self) == 2)
        // (The audit log is read through its policies even by the owner: counted as the superuser.)
        #expect(try database.superuserConnection().query("SELECT count(*) AS n FROM audit_log WHERE action = 'lti.platform'").single().decode("n", as: Int.self) == 2)
        var plain = flags
        plain[plain.firstIndex(of: "https://lms.example.org/token")!] = "http://lms.example.org/token"
        #expect(wait(try spawn(["lti", "add-platform"] + plain + ["--deployment-id", "d3"], environment: environment, output: log)) == 1)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("--token-url must be an https:// address"))
        #expect(wait(try spawn(["lti", "add-platform"] + flags, environment: environment, output: log)) == 1)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("usage: portal lti add-platform"))
        #expect(try owner.query("SELECT count(*) AS n FROM lti_deployments").single().decode("n", as: Int.self) == 2)
    }

    @Test("gen-data writes a preset's history (overridable sizes) and leaves row-level security forced; a bad preset changes nothing")
    func generateData() throws {
        let database = try TestDatabase(migrated: true)
        let owner = try database.adminConnection()
        try MiniExam.install(owner)
        let folder = NSTemporaryDirectory() + "gen-data-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let preset = folder + "/history.json", wrong = folder + "/wrong.json", log = folder + "/log"
        try Data(#"{"kind": "history", "region": "\#(MiniExam.region)", "exam": "\#(MiniExam.exam)", "students": 500, "answers": 9000, "days": 5}"#.utf8)
            .write(to: URL(fileURLWithPath: preset))
        try Data(#"{"kind": "weather", "region": "\#(MiniExam.region)", "exam": "\#(MiniExam.exam)"}"#.utf8).write(to: URL(fileURLWithPath: wrong))
        let environment = ["DATABASE_ADMIN_URL": database.adminDatabaseURL]
        #expect(wait(try spawn(["gen-data", wrong], environment: environment, output: log)) == 1)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("unknown preset kind"))
        #expect(wait(try spawn(["gen-data", preset, "--students", "20", "--answers", "200"], environment: environment, output: log), timeout: 60) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("20 students, 20 finished sessions, 200 answers over 5 days"))
        func count(_ sql: SQL) throws -> Int { try owner.query(sql).first!.decode("n", as: Int.self) }
        #expect(try count("SELECT count(*) AS n FROM users WHERE username LIKE 'bench%'") == 20)
        #expect(try count("SELECT count(*) AS n FROM study_sessions WHERE finished_at IS NOT NULL") == 20)
        // Every answer is to a real question of the exam, in a session of its own student.
        #expect(try count("""
            SELECT count(*) AS n FROM answers a JOIN study_sessions s ON s.id = a.session_id AND s.user_id = a.user_id
            JOIN questions q ON q.id = a.question_id
            """) == 200)
        #expect(try count("""
            SELECT count(*) AS n FROM pg_class WHERE relname IN ('users', 'study_sessions', 'answers') AND relforcerowsecurity
            """) == 3)
    }

    @Test("fsrs-replay reproduces the reference scheduler's states from the histories alone")
    func fsrsReplay() throws {
        let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/fsrs-vectors.json"))) as! [String: Any]
        let cards = fixture["cards"] as! [[String: Any]]
        let input = try JSONSerialization.data(withJSONObject: ["cards": cards.map { ["reviews": $0["reviews"]!] }])
        let log = NSTemporaryDirectory() + "portal-\(UUID().uuidString).log"
        #expect(wait(try spawn(["fsrs-replay"], environment: [:], output: log, input: String(decoding: input, as: UTF8.self))) == 0)
        let output = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: log))) as! [String: Any]
        let replayed = output["cards"] as! [[String: Any]]
        #expect(replayed.count == cards.count)
        for (mine, reference) in zip(replayed, cards) {
            let mineStates = mine["states"] as! [[String: Any]], referenceStates = reference["states"] as! [[String: Any]]
            #expect(mineStates.count == referenceStates.count)
            for (a, b) in zip(mineStates, referenceStates) {
                #expect(a["state"] as? String == b["state"] as? String)
                #expect(a["due"] as? String == b["due"] as? String)
                #expect(abs((a["stability"] as! Double) - (b["stability"] as! Double)) <= 1e-4 * max(1, b["stability"] as! Double))
            }
        }
    }

    @Test("fsrs-optimize fits 21 weights to the histories it reads, and names a rating that is not one")
    func fsrsOptimize() throws {
        let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/fsrs-vectors.json"))) as! [String: Any]
        let cards = (fixture["cards"] as! [[String: Any]]).map { ["reviews": $0["reviews"]!] }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: ["cards": cards]), as: UTF8.self)
        let log = NSTemporaryDirectory() + "portal-\(UUID().uuidString).log"
        #expect(wait(try spawn(["fsrs-optimize"], environment: [:], output: log, input: input)) == 0)
        let output = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: log))) as! [String: Any]
        let parameters = try #require(output["parameters"] as? [Double])
        #expect(parameters.count == 21)
        #expect((output["reviews"] as? Int ?? 0) > 0)
        #expect((output["logLoss"] as? Double ?? 9) <= (output["logLossBefore"] as? Double ?? 0))
        let bad = NSTemporaryDirectory() + "portal-\(UUID().uuidString).log"
        #expect(wait(try spawn(["fsrs-optimize"], environment: [:], output: bad, input: #"{"cards":[{"reviews":[{"rating":5,"at":"2026-01-01T00:00:00Z"}]}]}"#)) == 1)
        #expect(try String(contentsOfFile: bad, encoding: .utf8).contains("a rating must be 1 (again) to 4 (easy), not 5"))
    }

    @Test("serve refuses a database whose applied migration no longer matches its file")
    func serveRefusesChangedMigration() throws {
        let database = try TestDatabase(migrated: true)
        try database.adminConnection().execute("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1")
        let log = NSTemporaryDirectory() + "portal-\(UUID().uuidString).log"
        let status = wait(try spawn(["serve"], environment: ["DATABASE_URL": database.appDatabaseURL, "PORT": "0", "MIGRATIONS_DIR": TestPaths.repository + "/migrations", "TEMPLATES_DIR": TestPaths.repository + "/Templates"], output: log))
        #expect(status == 1)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("0001_roles.sql was changed after it was applied"))
    }
}
