import ExamData
import Foundation
import MailClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient

/// The `portal` command line: `portal serve | migrate | seed | import | export | corpus-check | gen-data | create-admin | refresh-leaderboard | rebuild-cards | fsrs-replay | fsrs-optimize`.
public enum Commands {
    static let usage = """
        usage: portal <command>

          serve      serve HTTP (HOST, PORT; DATABASE_URL for the app role)
          auth-agent [--once]
                     fetch the LMSs' and identity providers' key sets and exchange single sign-on codes,
                     as the portal_agent role (AUTH_AGENT_DATABASE_URL, never given to serve); --once:
                     one round, then exit (for a timer)
          migrate    apply pending migrations (DATABASE_ADMIN_URL, the owner role)
          create-admin --username NAME
                     create (or reset) an admin account; the password is read from standard input
          fsrs-replay
                     read review histories as JSON on standard input, print the FSRS-6 states
          fsrs-optimize
                     read review histories as fsrs-replay does, print the 21 weights fitted to them
          import FILE [--into REGION/EXAM] [--domain SLUG] [--skip-unsupported] [--dry-run | --draft]
                     import content as the owner role, all or nothing: a format-1 JSON document, or a
                     GIFT, Aiken, Moodle XML or QTI file (item or package) into an existing exam (categories become domains)
          export [--format json|moodle|qti3|qti21] REGION/EXAM FILE
                     write an exam as format-1 JSON, Moodle XML or a QTI 3.0 or 2.1 package (DATABASE_ADMIN_URL)
          corpus-check DIR [--qti21-out DIR]
                     import every file of a folder into an exam of its own, export it in all four formats and
                     import it again; print a table per collection (scripts/corpus-check.sh: a throwaway database)
          gen-data PRESET [--students N] [--answers N]
                     write a benchmark's synthetic data (Benchmarks/presets/*.json) as the owner role,
                     on a database made for the benchmark
          refresh-leaderboard
                     refresh the leaderboard now (DATABASE_URL)
          rebuild-cards
                     recompute every student's review cards from their answers (DATABASE_URL)
          seed       load the demo catalogue (twice is harmless); --if-empty: only into an empty catalogue
          lti add-platform --issuer URL --client-id ID --deployment-id ID [--deployment-id ID …]
                     --auth-url URL --token-url URL --jwks-url URL
                     register an LMS to launch the tool (DATABASE_ADMIN_URL; audited)
          lti rotate-key
                     a new signing key; the old one stays published for a week (DATABASE_ADMIN_URL)

        """

    /// Runs the command named by `arguments` and returns the process exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 2
        }
        do {
            let configuration = try PortalConfiguration.fromEnvironment()
            switch command {
            case "serve": try serve(configuration)
            case "auth-agent": try authAgent(configuration, once: arguments.dropFirst().contains("--once"))
            case "migrate": try migrate(configuration)
            case "create-admin": try createAdmin(configuration, arguments: Array(arguments.dropFirst()))
            case "fsrs-replay":
                let output = try FSRSReplay.run(FileHandle.standardInput.readDataToEndOfFile())
                FileHandle.standardOutput.write(output + Data("\n".utf8))
            case "fsrs-optimize":
                let output = try FSRSReplay.optimize(FileHandle.standardInput.readDataToEndOfFile())
                FileHandle.standardOutput.write(output + Data("\n".utf8))
            case "rebuild-cards": try rebuildCards(configuration)
            case "import": return try importContent(configuration, arguments: Array(arguments.dropFirst()))
            case "export": try exportContent(configuration, arguments: Array(arguments.dropFirst()))
            case "corpus-check": return try CorpusCheck.run(configuration, arguments: Array(arguments.dropFirst()))
            case "gen-data": try generateData(configuration, arguments: Array(arguments.dropFirst()))
            case "lti": try LTICommands.run(configuration, arguments: Array(arguments.dropFirst()))
            case "refresh-leaderboard": try refreshLeaderboard(configuration)
            case "seed": try seed(configuration, onlyIfEmpty: arguments.dropFirst().contains("--if-empty"))
            case "help", "--help", "-h": print(usage, terminator: "")
            default:
                FileHandle.standardError.write(Data("portal: unknown command \(command)\n\n\(usage)".utf8))
                return 2
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("portal \(command): \(error)\n".utf8))
            return 1
        }
    }

    static func migrate(_ configuration: PortalConfiguration) throws {
        guard let url = configuration.databaseAdminURL ?? configuration.databaseURL else {
            throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) to migrate")
        }
        let migrator = try Migrator(directory: configuration.migrationsDirectory, repeatables: configuration.repeatablesDirectory)
        let connection = try PostgresConnection(url: url)
        let applied = try migrator.migrate(connection)
        print(applied.isEmpty ? "migrate: the database is up to date" : "migrate: applied \(applied.joined(separator: ", "))")
    }

    static func seed(_ configuration: PortalConfiguration, onlyIfEmpty: Bool) throws {
        guard let url = configuration.databaseAdminURL else {
            throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) to seed")
        }
        let connection = try PostgresConnection(url: url)
        if onlyIfEmpty, try !ContentImport().catalogueIsEmpty(connection) {
            print("seed: the catalogue already has exams; nothing to do")
            return
        }
        let outcome = try DemoSeeder.seed(connection)
        // Thousands of questions at once: the planner learns of them now rather than at the
        // next automatic analysis, or the first sessions are planned for an empty catalogue
        // (a session's admission then scans every question for each of its own).
        try connection.execute("ANALYZE regions, exams, domains, questions")
        print("seed: \(outcome.exams) exams; \(outcome.newQuestions) new questions")
    }

    /// Review cards are derived data: this recomputes them from the answer history and
    /// rewrites any that differ (none should, when every answer went through the server).
    static func rebuildCards(_ configuration: PortalConfiguration) throws {
        guard let url = configuration.databaseAdminURL else { throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) to rebuild cards") }
        let result = try ReviewCardStore().rebuildAll(try PostgresConnection(url: url))
        print("rebuild-cards: \(result.students) students, \(result.cards) cards, \(result.differing) rewritten")
    }

    /// Imports content: a format-1 document, or a GIFT or Aiken file into an existing exam
    /// (`--into REGION/EXAM`, `--domain SLUG` for questions without a category). The format is
    /// told from the content and named in the report; every problem is listed and nothing is
    /// written unless the whole file is valid — items the portal has no kind for are refused by
    /// position, or with `--skip-unsupported` left out and listed. `--dry-run` prints what the
    /// import would do and stores nothing; `--draft` brings the questions new to their exam in
    /// as drafts (otherwise as the file says: format 1's `status`, other formats published).
    /// Exits 1 when refused.
    static func importContent(_ configuration: PortalConfiguration, arguments: [String]) throws -> Int32 {
        let usage = "usage: portal import FILE [--into REGION/EXAM] [--domain SLUG] [--skip-unsupported] [--dry-run | --draft]"
        guard let path = arguments.first, !path.hasPrefix("--") else { throw ConfigurationError(usage) }
        var into: String?, domain: String?, skipUnsupported = false, dryRun = false, drafts = false
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            switch flag {
            case "--into": into = rest.popFirst()
            case "--domain": domain = rest.popFirst()
            case "--skip-unsupported": skipUnsupported = true
            case "--dry-run": dryRun = true
            case "--draft": drafts = true
            default: throw ConfigurationError(usage)
            }
        }
        guard let url = configuration.databaseAdminURL else { throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) to import") }
        guard let data = FileManager.default.contents(atPath: path) else { throw ConfigurationError("cannot read \(path)") }
        func refuse(_ lines: [String]) -> Int32 {
            for line in lines { FileHandle.standardError.write(Data("import: \(line)\n".utf8)) }
            return 1
        }
        let connection = try PostgresConnection(url: url)
        let importer = ContentImport()
        let plan: ImportPlan
        do {
            plan = try ImportPlanner().plan(data, into: into, domain: domain, skipUnsupported: skipUnsupported, connection)
        } catch let refusal as ImportRefusal {
            switch refusal {
            case .unknownFormat: return refuse(["\(path) is in no format the importer knows (format 1 JSON, GIFT, Aiken, Moodle XML, or QTI 3.0 or 2.1, an item or a content package)"])
            case .needsExam(let format): return refuse(["\(format.rawValue) has no exams of its own: name the exam to import into with --into REGION/EXAM"])
            case .noSuchExam(let name): return refuse(["there is no exam \(name) to import into"])
            case .unsupported(let items):
                return refuse(items.map { "\($0)" } + ["\(items.count) items have no equivalent in the portal; nothing was imported (--skip-unsupported imports the rest)"])
            case .unreadable(let format, let error): return refuse(["\(format.rawValue): \(error)", "nothing was imported"])
            case .malformed(let problem): return refuse(["\(problem)"])
            }
        }
        let (format, document, skipped) = (plan.format, plan.document, plan.skipped)
        let problems = importer.problems(document, blueprint: format == .portalJSON)
        guard problems.isEmpty else {
            return refuse(problems.map { "\($0)" } + ["\(problems.count) problems; nothing was imported"])
        }
        guard !(dryRun && drafts) else { throw ConfigurationError(usage) }
        let summary = try connection.withTransaction { dryRun ? try importer.dryRun(document, $0) : try importer.apply(document, drafts: drafts, $0) }
        let said = dryRun ? "import (dry run, nothing stored)" : drafts ? "import (new questions as drafts)" : "import"
        print("\(said): \(format.rawValue); \(summary.exams) exams; \(summary.questionsAdded) questions added, \(summary.questionsChanged) changed, \(summary.questionsUnchanged) unchanged; \(summary.imagesAdded) pictures stored")
        for exam in summary.changes {
            if !exam.added.isEmpty { print("import: \(exam.exam): added \(exam.added.joined(separator: ", "))") }
            if !exam.changed.isEmpty { print("import: \(exam.exam): changed \(exam.changed.joined(separator: ", "))") }
        }
        for item in skipped { print("import: skipped \(item)") }
        for note in plan.notes { print("import: kept with a change \(note)") }
        return 0
    }

    /// Writes an exam as format-1 JSON, Moodle XML or a QTI 3.0 or 2.1 package (`--format
    /// json|moodle|qti3|qti21`, JSON by default).
    static func exportContent(_ configuration: PortalConfiguration, arguments: [String]) throws {
        let usage = "usage: portal export [--format json|moodle|qti3|qti21] REGION/EXAM FILE"
        var rest = ArraySlice(arguments), format = "json"
        if rest.first == "--format" {
            rest = rest.dropFirst()
            guard let chosen = rest.popFirst(), ["json", "moodle", "qti3", "qti21"].contains(chosen) else { throw ConfigurationError(usage) }
            format = chosen
        }
        guard rest.count == 2, case let parts = rest[rest.startIndex].split(separator: "/"), parts.count == 2 else { throw ConfigurationError(usage) }
        guard let url = configuration.databaseAdminURL else { throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) to export") }
        guard let document = try ContentImport().export(region: String(parts[0]), exam: String(parts[1]), try PostgresConnection(url: url)) else {
            throw ConfigurationError("there is no exam \(rest[rest.startIndex])")
        }
        let bytes: Data
        let carried = SiteImages(publicDirectory: configuration.publicDirectory).including(document)
        if format == "moodle" {
            bytes = Data(MoodleXMLExport.document(carried).utf8)
        } else if format == "qti3" || format == "qti21" {
            bytes = Data(QTIPackage.archive(carried, version3: format == "qti3"))
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            bytes = try encoder.encode(document)
        }
        try bytes.write(to: URL(fileURLWithPath: rest[rest.index(after: rest.startIndex)]))
        let count = document.regions.flatMap(\.exams).flatMap(\.domains).reduce(0) { $0 + $1.questions.count }
        print("export: \(count) questions of \(rest[rest.startIndex]) as \(["moodle": "Moodle XML", "qti3": "a QTI 3.0 package", "qti21": "a QTI 2.1 package"][format] ?? "format 1 (JSON)")")
        let leftOut = document.regions.flatMap(\.exams).flatMap(\.domains).flatMap(\.questions).filter(MoodleXMLExport.leftOut).count
        if format == "moodle", leftOut > 0 { print("export: \(leftOut) hotspot questions left out: Moodle XML has no type for them") }
    }

    /// Writes a preset's synthetic data; `--students` and `--answers` override the preset's.
    static func generateData(_ configuration: PortalConfiguration, arguments: [String]) throws {
        let usage = "usage: portal gen-data PRESET [--students N] [--answers N]"
        guard let path = arguments.first else { throw ConfigurationError(usage) }
        guard let url = configuration.databaseAdminURL else { throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) to generate data") }
        guard let data = FileManager.default.contents(atPath: path) else { throw ConfigurationError("cannot read \(path)") }
        var preset = try JSONDecoder().decode(SyntheticData.Preset.self, from: data)
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { throw ConfigurationError(usage) }
            switch flag {
            case "--students": preset.students = value
            case "--answers": preset.answers = value
            default: throw ConfigurationError(usage)
            }
        }
        print("gen-data: " + (try SyntheticData().generate(preset, try PostgresConnection(url: url))))
    }

    /// Refreshes the leaderboard once, unless an instance is refreshing it this moment.
    static func refreshLeaderboard(_ configuration: PortalConfiguration) throws {
        guard let url = configuration.databaseURL else { throw ConfigurationError("set DATABASE_URL (the app role) to refresh the leaderboard") }
        let connection = try PostgresConnection(url: url)
        let store = LeaderboardStore()
        let refreshed = try connection.withTransaction { try store.refresh(every: 0, instance: "portal refresh-leaderboard", $0) }
        print(refreshed ? "refresh-leaderboard: refreshed" : "refresh-leaderboard: another instance is refreshing it now; nothing to do")
    }

    static func createAdmin(_ configuration: PortalConfiguration, arguments: [String]) throws {
        guard arguments.count == 2, arguments[0] == "--username" else {
            throw ConfigurationError("usage: portal create-admin --username NAME  (the password comes on standard input)")
        }
        guard let url = configuration.databaseAdminURL else {
            throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) to create an admin")
        }
        let username = arguments[1]
        // The password never appears in the arguments, where other users of the machine could see it.
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw ConfigurationError("type the password on standard input")
        }
        if let problem = PasswordPolicy.problem(password, username: username) {
            throw ConfigurationError("the password is not acceptable (\(problem.replacingOccurrences(of: "account.", with: "").replacingOccurrences(of: "_", with: " ")))")
        }
        guard let hash = Crypto.hashPassword(password) else { throw ConfigurationError("the password could not be hashed") }
        let id = try AccountStore().createUser(username: username, displayName: username, passwordHash: hash, role: .admin, try PostgresConnection(url: url))
        print("create-admin: \(username) is an admin (\(id.lowercasedText))")
    }

    /// `portal auth-agent`: the process that fetches key sets and exchanges codes (`AuthAgent`),
    /// until SIGTERM or SIGINT.
    static func authAgent(_ configuration: PortalConfiguration, once: Bool) throws {
        guard let url = ProcessInfo.processInfo.environment["AUTH_AGENT_DATABASE_URL"], !url.isEmpty else {
            throw ConfigurationError("set AUTH_AGENT_DATABASE_URL: a direct connection as the portal_agent role")
        }
        var mail: (server: MailServer, linkOrigin: String)?
        if let server = configuration.mail {
            guard let origin = configuration.publicOrigin else {
                throw ConfigurationError("SMTP_URL needs PUBLIC_URL: the links in messages point there")
            }
            mail = (server, origin)
        }
        let agent = AuthAgent(databaseURL: url, outbound: configuration.outbound, mail: mail, templatesDirectory: configuration.templatesDirectory)
        if once {
            let (keySets, exchanges) = agent.runOnce()
            agent.queueDigests()
            agent.sendPushes()
            let (sent, failed) = agent.sendMail()
            print("auth-agent: \(keySets) key sets fetched, \(exchanges) codes exchanged, \(sent) messages sent, \(failed) to try again")
            return
        }
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        agent.start()
        print("auth-agent: keeping key sets and exchanging codes" + (mail == nil ? "" : ", sending mail through \(mail!.server.host)"))
        fflush(nil)
        stop.wait()
        sources.forEach { $0.cancel() }
        agent.stop()
        print("auth-agent: stopped")
    }

    static func serve(_ configuration: PortalConfiguration) throws {
        let application = try PortalApplication(configuration: configuration)
        if let database = application.database {
            // A database whose history does not match the code must not be served.
            let migrator = try Migrator(directory: configuration.migrationsDirectory, repeatables: configuration.repeatablesDirectory)
            do {
                try database.withConnection { try migrator.verify($0) }
            } catch let error as PostgresError where error.isConnectionFailure {
                FileHandle.standardError.write(Data("serve: the database is not reachable yet (\(error.message)); /readyz answers 503 until it is\n".utf8))
            }
        } else {
            FileHandle.standardError.write(Data("serve: DATABASE_URL is not set; only static files and health checks work\n".utf8))
        }
        let server = try application.makeServer()
        try server.start()
        application.startBackgroundJobs()
        print("Study Portal is serving on http://\(configuration.server.host):\(server.port)")
        fflush(nil)
        // SIGTERM: /readyz turns 503 first, so the load balancer stops sending; then the
        // listener closes and what is in flight finishes.
        server.runUntilSignalled(drainSeconds: configuration.shutdownDrain) { application.beginDraining() }
        application.stopBackgroundJobs()
        application.database?.shutdown()
        print("serve: stopped")
    }
}
