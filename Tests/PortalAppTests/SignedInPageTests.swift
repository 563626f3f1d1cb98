import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Signed-in pages served from what is kept in memory: how often each waits for the database,
/// that a kept page or fragment never carries another reader's data, and that sign-out and
/// content edits reach every instance at once.
@Suite("Signed-in pages: round trips, privacy of what is kept, changes seen everywhere", .onTestThreads)
struct SignedInPageTests {

    private func waitUntil(_ what: String, seconds: Double = 5, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(20_000)
        }
        Issue.record("\(what) did not happen within \(seconds) seconds")
    }

    private func listeningSite() throws -> PortalSite {
        let site = try PortalSite(listening: true)
        try waitUntil("listening to the database") { site.application.isListeningToDatabase }
        return site
    }

    private func roundTrips(_ browser: Browser, _ path: String) throws -> Int {
        let page = try browser.request("GET", path)
        #expect(page.status == 200, "\(path) answered \(page.status)")
        return Int(try #require(page.header("X-Database-Round-Trips"), "\(path) says nothing of its round trips")) ?? -1
    }

    @Test("once warm, the catalogue, the dashboard and a student's own session pages cost no database at all: asked again, each is the copy kept for it, found on the event loop (visitors' pages too)")
    func roundTripBudget() throws {
        let site = try listeningSite()
        let student = site.browser()
        try student.register("ada")
        let (_, practice) = try startSession(student)
        let (_, mock) = try startSession(student, mode: "mock", count: "4")
        // A finished session for its results page.
        let (_, finished) = try startSession(student, count: "1", domains: ["alpha"])
        let form = try QuestionForm(try student.request("GET", finished))
        try student.request("POST", finished + "/answers", pairs: form.pairs(form.item.key))
        let confirm = try student.request("GET", finished + "/finish")
        try student.request("POST", finished + "/finish", form: ["csrf_token": student.csrfToken(from: confirm)])
        let budget: [(String, Int)] = [
            ("/", 0), (MiniExam.path, 0),
            (MiniExam.path + "/leaderboard", 0), ("/me", 0),
            (practice, 0), (mock, 0), (finished + "/results", 0), (finished + "/results?show=missed", 0),
        ]
        for (path, most) in budget {
            _ = try roundTrips(student, path)  // warms what is kept
            let answeredOnLoop = site.application.metrics.answeredOnLoop
            let spent = try roundTrips(student, path)
            #expect(spent <= most, "\(path) waited for the database \(spent) times, more than \(most)")
            // The event loop finds the copy a worker kept: one declaration names it both ways.
            #expect(site.application.metrics.answeredOnLoop == answeredOnLoop + 1, "\(path) asked again went to a worker, not the kept copy")
        }
        let visitor = site.browser()
        for path in ["/", MiniExam.path, MiniExam.path + "/leaderboard"] {
            #expect(try visitor.request("GET", path).status == 200)
            let answeredOnLoop = site.application.metrics.answeredOnLoop
            let again = try visitor.request("GET", path)
            #expect(again.status == 200)
            #expect(site.application.metrics.answeredOnLoop == answeredOnLoop + 1, "a visitor asking \(path) again went to a worker, not the kept copy")
        }
        // An answer: judged, stored, its card reviewed and the student's place read in one
        // statement, one round trip; a retry (the same answer again) alike.
        let question = try QuestionForm(try student.request("GET", practice))
        for attempt in ["first", "retry"] {
            let answered = try student.request("POST", practice + "/answers", pairs: question.pairs(question.item.key))
            #expect(answered.status == 303, "the \(attempt) answer got \(answered.status)")
            #expect(answered.header("X-Database-Round-Trips") == "1", "the \(attempt) answer took \(answered.header("X-Database-Round-Trips") ?? "?") round trips")
        }
    }

    @Test("pages go out gzipped to browsers that accept it, kept visitor copies too, and decode to what others get")
    func gzippedPages() throws {
        let site = try listeningSite()
        let student = site.browser(), visitor = site.browser()
        try student.register("ada")
        for (reader, path) in [(visitor, MiniExam.path), (visitor, MiniExam.path), (student, "/me"), (student, MiniExam.path)] {
            let plain = try reader.request("GET", path)
            let zipped = try reader.request("GET", path, extraHeaders: "Accept-Encoding: gzip, br\r\n")
            #expect(zipped.status == 200 && plain.status == 200)
            #expect(zipped.header("Content-Encoding") == "gzip", "\(path) went out uncompressed")
            #expect(zipped.header("Vary")?.contains("Accept-Encoding") == true)
            let decoded = try #require(Gzip.decompress(zipped.body), "\(path) is not gzip")
            // Signed-in pages carry a per-request nonce or time; the reader's name and the
            // page's heading are what must survive.
            let text = String(decoding: decoded, as: UTF8.self)
            // A visitor's page and a reader's kept page are the same bytes either way.
            if reader === visitor || path == "/me" { #expect(decoded == plain.body, "\(path): the gzip body differs from the plain one") }
            #expect(text.contains("</html>"))
            if reader === student { #expect(text.contains("Ada")) }
        }
    }

    @Test("a kept question page is new for each showing: its own answer id and shown-at stamp, gzipped or not, and both answer")
    func keptQuestionPageShowsAnew() throws {
        let site = try listeningSite()
        let student = site.browser()
        try student.register("ada")
        let (_, practice) = try startSession(student)
        let (_, mock) = try startSession(student, mode: "mock", count: "4")
        for path in [practice, mock] {
            let first = try student.request("GET", path)
            let second = try student.request("GET", path, extraHeaders: "Accept-Encoding: gzip\r\n")
            #expect(second.header("Content-Encoding") == "gzip" && second.header("Cache-Control") == "private, no-store")
            let decoded = String(decoding: try #require(Gzip.decompress(second.body), "\(path) is not gzip"), as: UTF8.self)
            let third = try student.request("GET", path)
            for page in [first.bodyText, decoded, third.bodyText] {
                #expect(!page.contains("\u{1}"), "\(path) went out with a hole unfilled")
                #expect(page.contains("</html>"), "\(path) went out cut short")
            }
            let forms = try [first, third].map { try QuestionForm($0) }
            let zipped = decoded.components(separatedBy: #"name="answer_id" value=""#).dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
            #expect(Set([forms[0].answerID, forms[1].answerID, zipped ?? ""]).count == 3, "\(path) repeated an answer id")
            if path == mock { #expect(decoded.contains(#"data-seconds-left=""#) && !decoded.contains(#"data-seconds-left="""#)) }
            // The form of an earlier showing still answers (its stamp is genuine), and a later
            // showing's answer id is not the same answer.
            let answered = try student.request("POST", path + "/answers", pairs: forms[0].pairs(forms[0].item.key))
            #expect(answered.status == 303, "\(path): an answer from the first showing got \(answered.status)")
        }
    }

    @Test("pages for two students and a visitor, asked in turn, each carry their reader's name and token only")
    func keptPagesStayPersonal() throws {
        let site = try listeningSite()
        let ada = site.browser(), grace = site.browser(), visitor = site.browser()
        try ada.register("ada")
        try grace.register("grace")
        let (_, adaSession) = try startSession(ada)
        let (_, graceSession) = try startSession(grace)
        let paths = ["/", MiniExam.path, MiniExam.path + "/leaderboard", "/me"]
        for round in 0..<3 {
            for path in paths {
                for (reader, name, other) in [(ada, "Ada", "Grace"), (grace, "Grace", "Ada"), (visitor, "", "")] where !(name.isEmpty && path == "/me") {
                    let page = try reader.request("GET", path)
                    #expect(page.status == 200, "\(path) answered \(page.status) in round \(round)")
                    let html = page.bodyText
                    let token = reader.csrfToken(from: page)
                    if name.isEmpty {
                        #expect(!html.contains("Ada") && !html.contains("Grace"), "a visitor's \(path) names a student")
                        #expect(!html.contains("logout-form"), "a visitor's \(path) offers to sign out")
                    } else {
                        #expect(html.contains("Signed in as \(name)"), "\(name)'s \(path) does not say who is signed in")
                        #expect(!html.contains(other), "\(name)'s \(path) names \(other)")
                        // Every form token on the page (the header's sign-out form has one on every
                        // page) is the reader's own.
                        let tokens = Set(html.components(separatedBy: #"name="csrf_token" value=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) })
                        #expect(!token.isEmpty && tokens == [token], "\(name)'s \(path) carries no token or someone else's: \(tokens.count) tokens")
                    }
                }
            }
            // Each student's question and results pages are theirs alone, kept or not.
            for (reader, name, own, other) in [(ada, "Ada", adaSession, graceSession), (grace, "Grace", graceSession, adaSession)] {
                let page = try reader.request("GET", own)
                #expect(page.status == 200 && page.bodyText.contains(name))
                let tokens = Set(page.bodyText.components(separatedBy: #"name="csrf_token" value=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) })
                #expect(tokens == [reader.csrfToken(from: page)], "\(name)'s question page carries someone else's token")
                #expect(try reader.request("GET", other).status == 404)
                #expect(try reader.request("GET", other + "/results").status == 404)
            }
        }
        // Finished sessions' results pages, kept whole per sign-in, asked in turn.
        for (reader, own) in [(ada, adaSession), (grace, graceSession)] {
            let confirm = try reader.request("GET", own + "/finish")
            #expect(try reader.request("POST", own + "/finish", form: ["csrf_token": reader.csrfToken(from: confirm)]).status == 303)
        }
        for _ in 0..<3 {
            for (reader, name, other, own) in [(ada, "Ada", "Grace", adaSession), (grace, "Grace", "Ada", graceSession)] {
                let results = try reader.request("GET", own + "/results")
                #expect(results.status == 200 && results.bodyText.contains(name) && !results.bodyText.contains(other))
                let tokens = Set(results.bodyText.components(separatedBy: #"name="csrf_token" value=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) })
                #expect(tokens == [reader.csrfToken(from: results)], "\(name)'s results carry someone else's token")
                #expect(try visitor.request("GET", own + "/results").status == 404)
            }
        }
    }

    @Test("signing out on one instance ends the session on another within a second, though it had it in memory")
    func signOutReachesEveryInstance() throws {
        try withStudentOnTwoInstances { student, elsewhere in
            // The second instance resolves the session and keeps it.
            #expect(try elsewhere.request("GET", "/me").status == 200)
            #expect(try elsewhere.request("GET", "/me").header("X-Database-Round-Trips") == "0", "the reader and their data version are remembered")
            let confirm = try student.request("GET", "/me")
            try student.request("POST", "/logout", form: ["csrf_token": student.csrfToken(from: confirm)])
            let signedOut = Date()
            try waitUntil("the second instance forgetting the session", seconds: 1) {
                try elsewhere.request("GET", "/me").status == 303
            }
            #expect(Date().timeIntervalSince(signedOut) < 1)
        }
    }

    /// Runs `body` with a registered student signed in on the first instance and, with the
    /// same cookie, on a second one listening on the same database.
    private func withStudentOnTwoInstances(_ body: (Browser, Browser) throws -> Void) throws {
        let site = try listeningSite()
        try withSecondInstance(site) { otherPort in
            let student = site.browser()
            try student.register("ada")
            let elsewhere = Browser(port: otherPort)
            elsewhere.cookies = student.cookies
            try body(student, elsewhere)
        }
    }

    /// Runs `body` with the port of a second instance listening on the same database.
    private func withSecondInstance(_ site: PortalSite, _ body: (Int) throws -> Void) throws {
        let (other, otherServer) = try site.anotherListeningInstance()
        defer {
            other.stopBackgroundJobs()
            otherServer.shutdown()
            otherServer.waitUntilStopped()
        }
        try waitUntil("the second instance listening") { other.isListeningToDatabase }
        try body(otherServer.port)
    }

    @Test("a session started after questions are withdrawn or published draws from the exam as it is now, though what selection reads is kept")
    func sessionStartsFollowEdits() throws {
        let site = try listeningSite()
        let student = site.browser()
        try student.register("ada")
        // The domains of a fresh session's seven questions (each still has its answer form).
        func domains(_ path: String) throws -> Set<String> {
            Set(try (1...7).map { try QuestionForm(student.request("GET", path + "?q=\($0)")).item.domain })
        }
        let alpha = MiniExam.items.filter { $0.domain == "alpha" }.map(\.id)
        let (first, firstPath) = try startSession(student)
        #expect(first.status == 303)
        #expect(try domains(firstPath) == ["alpha", "beta"])
        // Every alpha question withdrawn: the exam's version moves, so the next start reads again.
        try site.admin { try $0.execute("UPDATE questions SET status = 'draft' WHERE id = ANY (\(alpha)::uuid[])") }
        try waitUntil("a start that no longer finds alpha questions", seconds: 2) {
            try startSession(student, domains: ["alpha"]).0.status == 422
        }
        // Both domains asked for: only beta's three questions remain to draw.
        let (_, betaOnly) = try startSession(student, count: "3")
        #expect(try Set((1...3).map { try QuestionForm(student.request("GET", betaOnly + "?q=\($0)")).item.domain }) == ["beta"])
        // Published again: drawn again.
        try site.admin { try $0.execute("UPDATE questions SET status = 'published' WHERE id = ANY (\(alpha)::uuid[])") }
        try waitUntil("a start that finds alpha questions again", seconds: 2) {
            try startSession(student, domains: ["alpha"]).0.status == 303
        }
    }

    @Test("an edit to an exam shows on another instance's kept pages within a second")
    func contentEditsReachEveryInstance() throws {
        let site = try listeningSite()
        try withSecondInstance(site) { otherPort in
            let visitor = Browser(port: otherPort)
            #expect(try visitor.request("GET", MiniExam.path).bodyText.contains("Mini exam"))
            #expect(try visitor.request("GET", MiniExam.path).bodyText.contains("Mini exam"))
            try site.admin { connection in
                try connection.execute("UPDATE exams SET title = 'Mini exam, revised' WHERE slug = \(MiniExam.exam)")
            }
            try waitUntil("the edit showing on the second instance", seconds: 1) {
                try visitor.request("GET", MiniExam.path).bodyText.contains("Mini exam, revised")
            }
        }
    }

    @Test("a student's pages kept on another instance change within a second of their answer there")
    func answersReachEveryInstance() throws {
        try withStudentOnTwoInstances { student, elsewhere in
            let (_, path) = try startSession(student)
            // The other instance keeps the question page (once the first instance's announcement
            // of the session's start, up to a tenth of a second late, has made it read it again).
            #expect(try elsewhere.request("GET", path).status == 200)
            try waitUntil("the other instance keeping the question page", seconds: 2) {
                try elsewhere.request("GET", path).header("X-Database-Round-Trips") == "0"
            }
            #expect(try elsewhere.request("GET", path).bodyText.contains("Question 1 of"))
            let form = try QuestionForm(try student.request("GET", path))
            try student.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
            try waitUntil("the answer showing on the second instance", seconds: 1) {
                try elsewhere.request("GET", path).bodyText.contains("Question 2 of")
            }
        }
    }

    @Test("a student's kept leaderboard page follows their choice to appear, here at once and on another instance within a second")
    func leaderboardFollowsVisibility() throws {
        try withStudentOnTwoInstances { student, elsewhere in
            let board = MiniExam.path + "/leaderboard"
            func hidden(_ browser: Browser) throws -> Bool { try browser.request("GET", board).bodyText.contains("You are not shown on leaderboards.") }
            func appear(_ shown: Bool) throws {
                let token = student.csrfToken(from: try student.request("GET", "/me/settings"))
                var form = ["csrf_token": token, "display_name": "Ada", "time_zone": "UTC"]
                if shown { form["show_on_leaderboard"] = "on" }
                #expect(try student.request("POST", "/me/settings", form: form).status == 303)
            }
            try appear(true)
            #expect(try !hidden(student) && !hidden(elsewhere))
            // Kept there once the announcement of the change (up to a tenth of a second late) came.
            try waitUntil("the other instance keeping the leaderboard", seconds: 2) { try roundTrips(elsewhere, board) == 0 }
            try appear(false)
            #expect(try hidden(student), "at once where the change was made")
            try waitUntil("the other instance's kept page following", seconds: 1) { try hidden(elsewhere) }
        }
    }

    @Test("a teacher's kept class page costs no database, and follows a student joining and answering within a second")
    func classPageFollowsMembers() throws {
        let site = try listeningSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let page = "/teach/classes/\(classID)"
        _ = try roundTrips(teacher, page)
        let answeredOnLoop = site.application.metrics.answeredOnLoop
        #expect(try roundTrips(teacher, page) == 0, "a class page kept while nothing in it changed")
        #expect(site.application.metrics.answeredOnLoop == answeredOnLoop + 1, "the kept class page answered on the event loop")
        let (student, _, studentCSRF) = try site.account("mina", role: "student", displayName: "Mina")
        #expect(try student.request("POST", "/join/\(code)", form: ["csrf_token": studentCSRF]).status == 303)
        try waitUntil("the new member on the kept class page", seconds: 1) { try teacher.request("GET", page).bodyText.contains("Mina") }
        let before = try teacher.request("GET", page).bodyText
        let (_, path) = try startSession(student)
        let form = try QuestionForm(try student.request("GET", path))
        try student.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        try waitUntil("the member's answer on the kept class page", seconds: 1) { try teacher.request("GET", page).bodyText != before }
    }

    @Test("a student's dashboard changes with their next answer, though it was kept")
    func dashboardFollowsAnswers() throws {
        let site = try listeningSite()
        let student = site.browser()
        try student.register("ada")
        // Someone who has done nothing yet is welcomed, not welcomed back.
        let first = try student.request("GET", "/me").bodyText
        #expect(first.contains("Welcome, Ada.") && !first.contains("Welcome back"))
        let (_, path) = try startSession(student)
        let before = try student.request("GET", "/me").bodyText
        #expect(before.contains("Welcome back, Ada."))
        #expect(try student.request("GET", "/me").header("X-Database-Round-Trips") == "0", "a kept dashboard whose reader's version is remembered")
        let form = try QuestionForm(try student.request("GET", path))
        try student.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        let after = try student.request("GET", "/me").bodyText
        #expect(before != after)
        #expect(after.contains("1 question studied"), "the answer's card is on the dashboard at once")
    }
}

extension SignedInPageTests {
    @Test("a page a student or teacher opens first on an instance that has never seen them waits for the database twice: once for who they are, once for the page (a class of several assignments too)")
    func coldPagesReadOnce() throws {
        let site = try listeningSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (otherTeacher, _, otherCSRF) = try site.account("tutor", role: "teacher", displayName: "Mr Bianchi")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        _ = try makeClass(otherTeacher, csrf: otherCSRF, name: "Year 11 networking")
        let student = site.browser(), classmate = site.browser()
        try student.register("ada")
        try classmate.register("bea")
        for pupil in [student, classmate] {
            let joined = try pupil.request("GET", "/join/\(code)")
            try pupil.request("POST", "/join/\(code)", form: ["csrf_token": pupil.csrfToken(from: joined)])
            let (_, practice) = try startSession(pupil, count: "1", domains: ["alpha"])
            let form = try QuestionForm(try pupil.request("GET", practice))
            try pupil.request("POST", practice + "/answers", pairs: form.pairs(form.item.key))
        }
        // Three assignments (the same form sent again is the same link: each differs by its count).
        for count in ["2", "3", "4"] { _ = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("count", count)]) }
        #expect(try site.count("SELECT count(*) AS n FROM share_links WHERE class_id = \(UUID(uuidString: classID))") == 3)
        let classPage = "/teach/classes/\(classID)"
        let pages: [(reader: Browser, other: Browser, path: String)] = [
            (student, classmate, "/me"), (student, classmate, "/me/settings"), (student, classmate, "/me/classes"),
            (student, classmate, MiniExam.path), (student, classmate, MiniExam.path + "/leaderboard"),
            (teacher, otherTeacher, "/teach"), (teacher, otherTeacher, classPage),
        ]
        for (reader, other, path) in pages {
            // An instance of its own each time: what is everybody's (the catalogue, the exam's
            // facts) is read there by another reader of the same kind first; this reader is new to it.
            try withSecondInstance(site) { port in
                let warming = Browser(port: port)
                warming.cookies = other.cookies
                _ = try warming.request("GET", path)
                let fresh = Browser(port: port)
                fresh.cookies = reader.cookies
                let spent = try roundTrips(fresh, path)
                #expect(spent == 2, "\(path), for a reader new to the instance, waited for the database \(spent) times")
            }
        }
    }
}
