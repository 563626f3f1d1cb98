import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import RedisClient
import Synchronization
import TestSupport
import Testing

/// Live events end to end: a teacher hosts, a hundred players join and listen over SSE, the
/// server's clock (injected) opens and closes each question, and the results are checked
/// against the stored answers and the live scoreboard in Redis.
@Suite("Live events", .onTestThreads)
struct LiveEventTests {

    struct Player: @unchecked Sendable {
        var browser: Browser
        var token: String
        var nickname: String
    }

    @Test("100 players over SSE see the same questions at the same moments; late answers are refused; final ranks equal the stored answers' scores and Redis's")
    func hundredPlayers() throws {
        let site = try PortalSite(live: true)
        let host = try LiveEvents.teacher(site)
        let code = try LiveEvents.createEvent(site, host: host)
        #expect(code.count == 6)
        let port = site.server.port
        let players = Mutex<[Int: Player]>([:])
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            do {
                let browser = Browser(port: port)
                let page = try browser.request("GET", "/live/\(code)")
                let token = browser.csrfToken(from: page)
                let nickname = String(format: "Player %03d", index)
                let joined = try browser.request("POST", "/live/\(code)/join", form: ["csrf_token": token, "nickname": nickname])
                guard joined.status == 303 else { throw TestEnvironmentError("join answered \(joined.status): \(joined.bodyText.prefix(200))") }
                players.withLock { $0[index] = Player(browser: browser, token: token, nickname: nickname) }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(2))")
        let everyone = players.withLock { $0 }.sorted { $0.key < $1.key }.map(\.value)
        #expect(everyone.count == 100)
        let readers = try everyone.map { try EventStreamReader(port: port, path: "/live/\(code)/events", cookies: $0.browser.cookies, timeout: 3) }
        #expect(readers.allSatisfy { $0.status == 200 })
        for reader in readers { #expect(reader.next(named: "phase").map { $0.data.contains("\"waiting\"") } == true) }

        #expect(try host.request("POST", "/live/\(code)/start", form: ["csrf_token": "teacher-csrf"]).status == 303)
        var seen: [[String]] = Array(repeating: [], count: readers.count)
        /// Reads each player's stream up to the announcement of `phase` (a "waiting" with the
        /// start time may come first).
        func waitForPhase(_ phase: String) {
            for (index, reader) in readers.enumerated() {
                while true {
                    guard let event = reader.next(named: "phase") else {
                        failures.add("reader \(index) heard no \(phase)")
                        break
                    }
                    if event.data.contains("\"\(phase)\"") {
                        seen[index].append(event.data)
                        break
                    }
                    if !event.data.contains("\"waiting\"") { failures.add("reader \(index) heard \(event.data) before \(phase)") }
                }
            }
        }
        var late: [RawHTTPClient.Response] = []
        for question in 0..<3 {
            site.clock.advance(question == 0 ? 6 : 5)  // the get-ready time (to the next whole second), then each pause
            waitForPhase("open")
            let page = try everyone[0].browser.request("GET", "/live/\(code)")
            #expect(page.bodyText.contains("Question \(question + 1) of 3"))
            // Half answer at once, the rest four seconds later; player 99 never answers in time.
            let opened = page.bodyText
            // The mini exam's stems name their question: "Question A1?".
            let questionID = try #require(MiniExam.items.first { opened.contains(">Question \($0.id.uuidString.suffix(2))?<") })
            for (index, player) in everyone.enumerated() where index < 99 {
                // The database's clock runs on from where the test set it while a busy machine
                // serves the hundred players; set it back to the server's moment before each
                // answer, so that what decides is the test's clock, not the machine's pace.
                site.clock.advance(index == 50 ? 4 : 0)
                let right = (index + question) % 3 != 0
                var pairs = [("csrf_token", player.token), ("index", String(question))]
                let response = right ? questionID.key : questionID.wrong
                if questionID.kind == "ordering" {
                    for (place, option) in response.enumerated() { pairs.append(("position_\(option)", String(place + 1))) }
                } else {
                    pairs += response.map { ("choice", String($0)) }
                }
                let answered = try player.browser.request("POST", "/live/\(code)/answers", pairs: pairs)
                if answered.status != 303 { failures.add("answer \(index) answered \(answered.status)") }
            }
            site.clock.advance(6)  // the bell
            waitForPhase("reveal")
            late.append(try everyone[99].browser.request("POST", "/live/\(code)/answers", pairs: [("csrf_token", everyone[99].token), ("index", String(question)), ("choice", "0")]))
        }
        site.clock.advance(5)
        waitForPhase("ended")
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(late.allSatisfy { $0.status == 409 && $0.bodyText.contains("answers after the bell do not count") })
        // Everyone heard the same questions in the same order at the same moments.
        #expect(Set(seen.map { $0.joined(separator: "|") }).count == 1)
        #expect(seen[0].filter { $0.contains("\"open\"") }.count == 3)

        // The results in PostgreSQL: ranks by the points the stored answers earn …
        let rows = try site.admin { connection in
            try connection.query("""
                SELECT p.nickname, a.question_index, a.correct, a.time_ms FROM live_answers a JOIN live_participants p ON p.id = a.participant_id
                """).rows.map { (try $0.decode("nickname", as: String.self), try $0.decode("question_index", as: Int.self),
                                 try $0.decode("correct", as: Bool.self), try $0.decode("time_ms", as: Int.self)) }
        }
        #expect(rows.count == 99 * 3, "one stored answer per player per question; none late")
        // What the stored answers earn, as the database's board sums them (the rule itself is
        // held by `scoringBySpeedAndRuns`).
        let eventID = try site.admin { try $0.query("SELECT id FROM live_events WHERE code = \(code)").single().decode("id", as: UUID.self) }
        let expected = Dictionary(uniqueKeysWithValues: try site.admin { try LiveStore().board(eventID: eventID, $0) }.map { ($0.nickname, $0.points) })
        #expect(expected.count == 100 && Set(expected.values).count > 1)
        let results = try site.admin { connection in
            try connection.query("SELECT nickname, rank, points FROM event_results ORDER BY rank, nickname").rows.map {
                (try $0.decode("nickname", as: String.self), try $0.decode("rank", as: Int.self), try $0.decode("points", as: Int.self))
            }
        }
        #expect(results.count == 100)
        #expect(Dictionary(uniqueKeysWithValues: results.map { ($0.0, $0.2) }) == expected)
        #expect(zip(results, results.dropFirst()).allSatisfy { $0.2 > $1.2 ? $0.1 < $1.1 : $0.1 == $1.1 })
        // … and the same totals the live scoreboard kept in Redis, by its own script.
        let redis = RedisPool(RedisEndpoint(url: ProcessInfo.processInfo.environment["PORTAL_TEST_REDIS_URL"]!)!)
        let live = try redis.command(["ZRANGE", "live:{\(code)}:scores", "0", "-1", "WITHSCORES"]).elements
        let names = try redis.command(["HGETALL", "live:{\(code)}:names"]).elements
        var nameOf: [String: String] = [:]
        for index in stride(from: 0, to: names.count - 1, by: 2) { nameOf[names[index].text!] = names[index + 1].text! }
        var redisTotals: [String: Int] = [:]
        for index in stride(from: 0, to: live.count - 1, by: 2) { redisTotals[nameOf[live[index].text!]!] = live[index + 1].number }
        #expect(redisTotals == expected)
        let final = try everyone[3].browser.request("GET", "/live/\(code)").bodyText
        #expect(final.contains("Final results"))
        #expect(final.contains("You finished in place"))
    }

    @Test("joining: nicknames are checked and unique per event; only teachers and admins host")
    func joining() throws {
        let site = try PortalSite(live: true)
        let host = try LiveEvents.teacher(site)
        let code = try LiveEvents.createEvent(site, host: host)
        func join(_ nickname: String) throws -> RawHTTPClient.Response {
            let browser = site.browser()
            let token = browser.csrfToken(from: try browser.request("GET", "/live/\(code)"))
            return try browser.request("POST", "/live/\(code)/join", form: ["csrf_token": token, "nickname": nickname])
        }
        #expect(try join("Aiko").status == 303)
        #expect(try join("aiko").status == 409, "nicknames are unique per event, whatever the case")
        for bad in ["A", String(repeating: "x", count: 25), "www.spam.example", "Sh1t_head", "fuckface"] {
            #expect(try join(bad).status == 422, "\(bad)")
        }
        #expect(try site.browser().request("GET", "/live/NOPE42").status == 404)
        let student = site.browser()
        try student.register("pupil")
        #expect(try student.request("GET", "/live/new").status == 404, "hosting is for teachers: not there for students")
        #expect(try student.request("GET", "/live/\(code)/host").status == 404, "only the host sees the host page")
        let form = try host.request("GET", "/live/new")
        #expect(form.status == 200)
    }

    @Test("without Redis, live events say they are unavailable and studying still works")
    func redisDown() throws {
        let database = try TestDatabase(migrated: true)
        try MiniExam.install(try database.adminConnection())
        var configuration = PortalConfiguration()
        configuration.databaseURL = database.appURL
        configuration.server.port = 0
        configuration.server.accessLog = false
        configuration.templatesDirectory = TestPaths.repository + "/Templates"
        configuration.redisURL = "unix:///nonexistent/redis.sock"
        configuration.leaderboardRefresh = 0
        let server = try PortalApplication(configuration: configuration, databaseOverrides: ["dbname": database.name]).makeServer()
        try server.start()
        defer { server.shutdown(); server.waitUntilStopped() }
        let browser = Browser(port: server.port)
        let live = try browser.request("GET", "/live/ABCDEF")
        #expect(live.status == 503)
        #expect(live.bodyText.contains("Live events are unavailable right now"))
        #expect(live.header("Retry-After") == "30")
        #expect(try browser.request("GET", MiniExam.path).status == 200)
        #expect(try browser.request("POST", "/sessions", form: ["region": MiniExam.region, "exam": MiniExam.exam, "mode": "practice", "domain": "alpha"]).status == 303)
    }

    @Test("the live pages pass the Nu Html Checker")
    func validHTML() throws {
        let site = try PortalSite(live: true)
        let host = try LiveEvents.teacher(site)
        let code = try LiveEvents.createEvent(site, host: host, count: 2)
        let player = site.browser()
        let token = player.csrfToken(from: try player.request("GET", "/live/\(code)"))
        try player.request("POST", "/live/\(code)/join", form: ["csrf_token": token, "nickname": "Valid Val"])
        var pages: [(name: String, body: [UInt8])] = []
        func save(_ name: String, _ browser: Browser, _ path: String) throws {
            let response = try browser.request("GET", path)
            #expect(response.status == 200, "\(name): \(response.status)")
            pages.append((name, response.body))
        }
        try save("new", host, "/live/new")
        try save("join", site.browser(), "/live/\(code)")
        let refusedBrowser = site.browser()
        let refusedToken = refusedBrowser.csrfToken(from: try refusedBrowser.request("GET", "/live/\(code)"))
        pages.append(("join-refused", try refusedBrowser.request("POST", "/live/\(code)/join", form: ["csrf_token": refusedToken, "nickname": "x"]).body))
        try save("host", host, "/live/\(code)/host")
        try save("waiting", player, "/live/\(code)")
        try host.request("POST", "/live/\(code)/start", form: ["csrf_token": "teacher-csrf"])
        try save("screen-starting", host, "/live/\(code)/screen")
        site.clock.advance(6)
        try save("open", player, "/live/\(code)")
        try save("screen-open", host, "/live/\(code)/screen")
        site.clock.advance(10)
        try save("reveal", player, "/live/\(code)")
        site.clock.advance(20)
        _ = try player.request("GET", "/live/\(code)")
        try save("ended", player, "/live/\(code)")
        try save("screen-ended", host, "/live/\(code)/screen")
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("a live event over matching, fill-in and hotspot questions: each form answered, checked on the database's clock and scored; each reveal shows its key")
    func newerKinds() throws {
        let site = try PortalSite(live: true)
        try QuestionKindsExam.install(site)
        let (code, player, token) = try LiveEvents.started(site, exam: "\(QuestionKindsExam.region)/\(QuestionKindsExam.exam)", count: 3)
        var reveals: [String] = []
        for index in 0..<3 {
            site.clock.advance(index == 0 ? 6 : 5)
            let page = try player.request("GET", "/live/\(code)").bodyText
            // The right answer in each kind's own fields.
            let answer: [(String, String)] = page.contains(QuestionKindsExam.matchingStem) ? [("target_0", "2"), ("target_1", "4"), ("target_2", "1")]
                : page.contains(QuestionKindsExam.fillInStem) ? [("answer", " 1801 ")] : [("point_x", "100"), ("point_y", "110")]
            #expect(page.contains("name=\"target_0\"") || page.contains("name=\"answer\"") || page.contains("class=\"hotspot-image\""))
            let sent = try player.request("POST", "/live/\(code)/answers", pairs: [("csrf_token", token), ("index", String(index))] + answer)
            #expect(sent.status == 303, "question \(index + 1)")
            site.clock.advance(10)
            reveals.append(try player.request("GET", "/live/\(code)").bodyText)
        }
        #expect(reveals.allSatisfy { $0.contains("You were right") } , "every answer was right")
        let joined = reveals.joined()
        #expect(joined.contains("<dt>Accepted answers</dt><dd><ul><li>1801</li></ul></dd>"))
        #expect(joined.contains("<li class=\"key\"><span class=\"option-text\">Device A</span>"))
        #expect(try site.count("SELECT count(*) AS n FROM live_answers WHERE correct AND base_points > 0") == 3)
        let pairs = try site.admin { try $0.query("SELECT response::text AS r FROM live_answers WHERE response ? 'pairs'").single().decode("r", as: String.self) }
        #expect(pairs == #"{"pairs": [1, 3, 0]}"#)
    }

    @Test("the database judges a live answer: nothing chosen or a choice the question lacks is refused with what to do, a question the event lacks asks for a reload, one not yet open or past its bell is closed, a second answer keeps the first")
    func refusedLiveAnswers() throws {
        let site = try PortalSite(live: true)
        let (code, player, token) = try LiveEvents.started(site, exam: "\(MiniExam.region)/\(MiniExam.exam)", count: 3)
        let ids = try site.admin { try $0.query("SELECT question_ids FROM live_events WHERE code = \(code)").single().decode("question_ids", as: [UUID].self) }
        let items = ids.compactMap(MiniExam.item)
        #expect(items.count == 3)
        func send(_ index: Int, _ fields: [(String, String)]) throws -> RawHTTPClient.Response {
            try player.request("POST", "/live/\(code)/answers", pairs: [("csrf_token", token), ("index", String(index))] + fields)
        }
        /// The form fields of the item's right answer.
        func right(_ item: MiniExam.Item) -> [(String, String)] {
            item.kind == "ordering" ? item.key.enumerated().map { ("position_\($0.element)", String($0.offset + 1)) } : item.key.map { ("choice", String($0)) }
        }
        func stored() throws -> Int { try site.count("SELECT count(*) AS n FROM live_answers") }
        site.clock.advance(6)
        let nothing = try send(0, [])
        #expect(nothing.status == 422)
        #expect(nothing.bodyText.contains(items[0].kind == "ordering" ? "Give each of the 3 items a position" : "Choose an answer before sending it."))
        if items[0].kind != "ordering" {
            let beyond = try send(0, [("choice", "9")])
            #expect(beyond.status == 422 && beyond.bodyText.contains("“9” is not one of the options."))
        }
        let elsewhere = try send(7, right(items[0]))
        #expect(elsewhere.status == 400 && elsewhere.bodyText.contains("This answer form is incomplete. Reload the page."))
        let ahead = try send(1, right(items[1]))
        #expect(ahead.status == 409 && ahead.bodyText.contains("That question has closed"))
        #expect(try stored() == 0, "nothing refused is stored")

        let first = try send(0, right(items[0]))
        #expect(first.status == 303)
        let again = try send(0, right(items[0]).map { ($0.0, $0.0 == "choice" ? String((Int($0.1)! + 1) % items[0].options.count) : $0.1) })
        #expect(again.status == 303 && again.header("Location") == "/live/\(code)?already=1")
        #expect(try site.count("SELECT count(*) AS n FROM live_answers WHERE correct") == 1, "the first answer stands")

        // Question 2 opens after the first one's 10 seconds and a 5-second pause, and closes 10 seconds later.
        site.clock.advance(10 + 5 + 12)
        let late = try send(1, right(items[1]))
        #expect(late.status == 409 && late.bodyText.contains("That question has closed"))
        #expect(try stored() == 1)
    }

    @Test("a live answer's moment is when the server received it, believed within the second before the database's clock: received before the bell it counts though it is stored after, timed from its receipt; a connection that dates a late answer early is refused")
    func bellIsTheServersReceipt() throws {
        let site = try PortalSite(live: true)
        let (code, player, _) = try LiveEvents.started(site, exam: "\(MiniExam.region)/\(MiniExam.exam)", count: 3)
        let event = try site.admin {
            try $0.query("SELECT id, question_ids, starts_at, seconds_per_question, pause_seconds FROM live_events WHERE code = \(code)").single()
        }
        let eventID = try event.decode("id", as: UUID.self), ids = try event.decode("question_ids", as: [UUID].self)
        let startsAt = try event.decode("starts_at", as: Date.self)
        let seconds = try event.decode("seconds_per_question", as: Int.self), pause = try event.decode("pause_seconds", as: Int.self)
        func opens(_ index: Int) -> Date { startsAt.addingTimeInterval(Double(index * (seconds + pause))) }
        let guest = try #require(player.cookies["portal_guest"])
        /// Stores the participant's right answer to question `index` as a `portal_app` connection
        /// would, saying it was received at `receivedAt`, with the database's clock at `databaseAt`.
        func send(_ index: Int, receivedAt: Date, databaseAt: Date) throws -> LiveAnswerRecord? {
            try site.database.setClock(databaseAt)
            let item = try #require(MiniExam.item(ids[index]))
            return try site.pool.asCaller(nil, guestToken: guest) { connection in
                let participant = try #require(try LiveStore().participant(eventID: eventID, connection))
                return try LiveStore().record(
                    participantID: participant.id, questionIndex: index, questionID: item.id, response: .indexes(item.key), receivedAt: receivedAt,
                    eventID: eventID, connection)
            }
        }
        // Received a tenth of a second before the bell, stored half a second after it.
        let bell = opens(0).addingTimeInterval(Double(seconds))
        let inTime = try send(0, receivedAt: bell.addingTimeInterval(-0.1), databaseAt: bell.addingTimeInterval(0.5))
        #expect(inTime.map { abs($0.milliseconds - (seconds * 1000 - 100)) <= 1 } == true, "\(String(describing: inTime))")
        // Two seconds after the next bell, dated by the caller as if sent mid-question.
        var refusal: AnswerRefusal?
        do {
            _ = try send(1, receivedAt: opens(1).addingTimeInterval(4), databaseAt: opens(1).addingTimeInterval(Double(seconds) + 2))
        } catch {
            refusal = AnswerRefusal(error)
        }
        #expect(refusal == .notAdmitted(.closed))
        // Received just after the last bell and stored at once: still late.
        refusal = nil
        let lastBell = opens(2).addingTimeInterval(Double(seconds))
        do {
            _ = try send(2, receivedAt: lastBell.addingTimeInterval(0.2), databaseAt: lastBell.addingTimeInterval(0.3))
        } catch {
            refusal = AnswerRefusal(error)
        }
        #expect(refusal == .notAdmitted(.closed))
        #expect(try site.count("SELECT count(*) AS n FROM live_answers") == 1)
    }

    @Test("a board Redis lost mid-event comes back from the stored answers: names, points and runs intact")
    func boardRestoredAfterRedisLoss() throws {
        let site = try PortalSite(live: true)
        let host = try LiveEvents.teacher(site)
        let code = try LiveEvents.createEvent(site, host: host, count: 2, seconds: 10)
        var players: [Player] = []
        for name in ["Ada", "Brook", "Cyd"] {
            let browser = site.browser()
            let token = browser.csrfToken(from: try browser.request("GET", "/live/\(code)"))
            #expect(try browser.request("POST", "/live/\(code)/join", form: ["csrf_token": token, "nickname": name]).status == 303)
            players.append(Player(browser: browser, token: token, nickname: name))
        }
        #expect(try host.request("POST", "/live/\(code)/start", form: ["csrf_token": "teacher-csrf"]).status == 303)
        func answerOpenQuestion(_ index: Int, rightFor names: Set<String>) throws {
            let page = try players[0].browser.request("GET", "/live/\(code)").bodyText
            let item = try #require(MiniExam.items.first { page.contains(">Question \($0.id.uuidString.suffix(2))?<") })
            for player in players {
                let response = names.contains(player.nickname) ? item.key : item.wrong
                var pairs = [("csrf_token", player.token), ("index", String(index))]
                if item.kind == "ordering" {
                    for (place, option) in response.enumerated() { pairs.append(("position_\(option)", String(place + 1))) }
                } else {
                    pairs += response.map { ("choice", String($0)) }
                }
                #expect(try player.browser.request("POST", "/live/\(code)/answers", pairs: pairs).status == 303)
            }
        }
        site.clock.advance(6)
        try answerOpenQuestion(0, rightFor: ["Ada", "Brook"])
        // What a restart without persistence leaves: nothing of this event in Redis.
        let redis = RedisPool(RedisEndpoint(url: ProcessInfo.processInfo.environment["PORTAL_TEST_REDIS_URL"]!)!)
        let keys = try redis.command(["KEYS", "live:{\(code)}:*"]).elements.compactMap(\.text)
        #expect(!keys.isEmpty)
        try redis.command(["DEL"] + keys)
        // Reading the board puts it back.
        let page = try players[2].browser.request("GET", "/live/\(code)").bodyText
        #expect(page.contains("Ada") && page.contains("Brook") && !page.contains(">?<"))
        site.clock.advance(15)
        try answerOpenQuestion(1, rightFor: ["Ada", "Cyd"])
        let stored = try site.admin { connection in
            try connection.query("SELECT id FROM live_events WHERE code = \(code)").single().decode("id", as: UUID.self)
        }
        let board = try site.admin { try LiveStore().board(eventID: stored, $0) }
        let flat = try redis.command(["ZRANGE", "live:{\(code)}:scores", "0", "-1", "WITHSCORES"]).elements
        var redisPoints: [String: Int] = [:]
        for index in stride(from: 0, to: flat.count - 1, by: 2) { redisPoints[flat[index].text!] = flat[index + 1].number }
        #expect(redisPoints == Dictionary(uniqueKeysWithValues: board.map { ($0.participantID.uuidString.lowercased(), $0.points) }))
        // Ada's run carried on across the loss: two right in a row earn the bonus.
        let ada = try #require(board.first { $0.nickname == "Ada" })
        #expect(ada.streak == 2 && ada.correct == 2)
        #expect(redisPoints[ada.participantID.uuidString.lowercased()] == ada.points)
    }
    @Test("a right answer scores 1000 at once and 500 at the bell; each right answer in a row after the first adds 50, at most 250; a wrong or skipped question ends the run; the stored board and the live one agree")
    func scoringBySpeedAndRuns() throws {
        let site = try PortalSite(live: true)
        let host = try LiveEvents.teacher(site)
        let code = try LiveEvents.createEvent(site, host: host, count: 7, seconds: 10)
        var players: [Player] = []
        for name in ["Ada", "Brook"] {
            let browser = site.browser()
            let token = browser.csrfToken(from: try browser.request("GET", "/live/\(code)"))
            #expect(try browser.request("POST", "/live/\(code)/join", form: ["csrf_token": token, "nickname": name]).status == 303)
            players.append(Player(browser: browser, token: token, nickname: name))
        }
        #expect(try host.request("POST", "/live/\(code)/start", form: ["csrf_token": "teacher-csrf"]).status == 303)
        let event = try site.admin {
            try $0.query("SELECT id, question_ids, starts_at, seconds_per_question, pause_seconds FROM live_events WHERE code = \(code)").single()
        }
        let ids = try event.decode("question_ids", as: [UUID].self), startsAt = try event.decode("starts_at", as: Date.self)
        let period = try event.decode("seconds_per_question", as: Int.self) + event.decode("pause_seconds", as: Int.self)
        #expect(ids.count == 7)
        /// Sends `player`'s answer to question `index`, right or wrong, `after` seconds into it.
        func answer(_ player: Player, _ index: Int, right: Bool, after seconds: Double) throws {
            let moment = startsAt.addingTimeInterval(Double(index * period) + seconds)
            site.clock.advance(moment.timeIntervalSince(site.clock.read()))
            let item = try #require(MiniExam.item(ids[index]))
            let response = right ? item.key : item.wrong
            var pairs = [("csrf_token", player.token), ("index", String(index))]
            if item.kind == "ordering" {
                for (place, option) in response.enumerated() { pairs.append(("position_\(option)", String(place + 1))) }
            } else {
                pairs += response.map { ("choice", String($0)) }
            }
            #expect(try player.browser.request("POST", "/live/\(code)/answers", pairs: pairs).status == 303)
        }
        let (ada, brook) = (players[0], players[1])
        for index in 0..<7 {
            try answer(ada, index, right: true, after: 0)
            switch index {
            case 0: try answer(brook, 0, right: true, after: 0)  // 1000
            case 1: try answer(brook, 1, right: true, after: 5)  // 750 + 50
            case 2: try answer(brook, 2, right: false, after: 1)  // 0, the run ends
            case 3: try answer(brook, 3, right: true, after: 0)  // 1000
            case 4: break  // skipped: the run ends
            case 5: try answer(brook, 5, right: true, after: 0)  // 1000
            default: try answer(brook, 6, right: true, after: 10 - 0.001)  // 500 (a millisecond before the bell) + 50
            }
        }
        let board = try site.admin { try LiveStore().board(eventID: try event.decode("id", as: UUID.self), $0) }
        let stored = Dictionary(uniqueKeysWithValues: board.map { ($0.nickname, $0.points) })
        // Seven right at once: 7 × 1000 and 0 + 50 + 100 + 150 + 200 + 250 + 250.
        #expect(stored == ["Ada": 8000, "Brook": 1000 + 800 + 0 + 1000 + 1000 + 550])
        #expect(board.first { $0.nickname == "Ada" }?.streak == 7 && board.first { $0.nickname == "Brook" }?.streak == 2)
        let redis = RedisPool(RedisEndpoint(url: ProcessInfo.processInfo.environment["PORTAL_TEST_REDIS_URL"]!)!)
        let flat = try redis.command(["ZRANGE", "live:{\(code)}:scores", "0", "-1", "WITHSCORES"]).elements
        var live: [String: Int] = [:]
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            let participant = board.first { $0.participantID.uuidString.lowercased() == flat[index].text }
            live[participant?.nickname ?? "?"] = flat[index + 1].number
        }
        #expect(live == stored, "the live scoreboard adds what the stored answers earn")
    }

    @Test("without JavaScript nothing refreshes itself: each page offers a link; players are told how they did; the host's end page has the results; the projector shows the code and a QR code, no menu")
    func pagesWithoutScript() throws {
        let site = try PortalSite(live: true)
        let host = try LiveEvents.teacher(site)
        let code = try LiveEvents.createEvent(site, host: host, count: 1, seconds: 10)
        var players: [Player] = []
        for name in ["Rita", "Wes", "Idle"] {
            let browser = site.browser()
            let token = browser.csrfToken(from: try browser.request("GET", "/live/\(code)"))
            try browser.request("POST", "/live/\(code)/join", form: ["csrf_token": token, "nickname": name])
            players.append(Player(browser: browser, token: token, nickname: name))
        }
        let waiting = try host.request("GET", "/live/\(code)/host").bodyText
        #expect(!waiting.contains("http-equiv=\"refresh\""), "the host page does not reload itself")
        #expect(waiting.contains("<noscript>") && waiting.contains("href=\"/live/\(code)/host\">Show who has joined now</a>"))
        #expect(waiting.contains("<li>Rita</li>"))
        try host.request("POST", "/live/\(code)/start", form: ["csrf_token": "teacher-csrf"])
        let screen = try host.request("GET", "/live/\(code)/screen").bodyText
        #expect(!screen.contains("class=\"site-header\"") && !screen.contains("class=\"site-footer\""), "no site menu on the projector")
        #expect(screen.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr\""))
        #expect(screen.contains("aria-label=\"QR code of the address to join\""))
        #expect(screen.contains("class=\"code big-code\">\(code)</strong>"))
        site.clock.advance(6)
        let open = try players[0].browser.request("GET", "/live/\(code)").bodyText
        #expect(!open.contains("http-equiv=\"refresh\""))
        #expect(open.contains("href=\"/live/\(code)\">Show what is happening now</a>"))
        let item = try #require(MiniExam.items.first { open.contains(">Question \($0.id.uuidString.suffix(2))?<") })
        for (player, response) in [(players[0], item.key), (players[1], item.wrong)] {
            var pairs = [("csrf_token", player.token), ("index", "0")]
            if item.kind == "ordering" {
                for (place, option) in response.enumerated() { pairs.append(("position_\(option)", String(place + 1))) }
            } else {
                pairs += response.map { ("choice", String($0)) }
            }
            try player.browser.request("POST", "/live/\(code)/answers", pairs: pairs)
        }
        site.clock.advance(10)
        #expect(try players[0].browser.request("GET", "/live/\(code)").bodyText.contains("You were right."))
        #expect(try players[1].browser.request("GET", "/live/\(code)").bodyText.contains("Not this time"))
        #expect(try players[2].browser.request("GET", "/live/\(code)").bodyText.contains("You did not answer this one in time."))
        site.clock.advance(20)
        let ended = try host.request("GET", "/live/\(code)/host")
        #expect(redirectLocation(ended) == "/live/\(code)/host", "the host's look finishes the event")
        let hostEnd = try host.request("GET", "/live/\(code)/host").bodyText
        #expect(hostEnd.contains("data-ended"))
        #expect(hostEnd.contains("<th scope=\"row\">Rita</th>"), "the host's end page shows the results")
        let final = try players[0].browser.request("GET", "/live/\(code)").bodyText
        #expect(final.contains("You finished in place 1"))
        #expect(!final.contains("You are in place"), "one sentence about the final place, not two")
        #expect(!final.contains("<noscript>"), "an ended event offers nothing to refresh")
    }
}
