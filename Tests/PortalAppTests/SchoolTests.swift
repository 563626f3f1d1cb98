import ExamData
import Foundation
import HTTPServer
import Identifiers
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Classes, share links and the teacher's view, over HTTP and through real `portal_app`
/// connections.
@Suite("Schools", .onTestThreads)
struct SchoolTests {
    @Test("a new class is made once however often its form is sent (a reload, a double tap, back and again); a name of spaces comes back beside its field with the school as typed")
    func classSentOnce() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let page = try teacher.request("GET", "/teach")
        let sent = ["csrf_token": csrf, "form_token": teacher.formToken(from: page), "name": "Year 9 science", "school": "Liceo Volta"]
        let first = try teacher.request("POST", "/teach/classes", form: sent)
        let again = try teacher.request("POST", "/teach/classes", form: sent)
        #expect(first.status == 303 && again.status == 303 && redirectLocation(again) == redirectLocation(first))
        #expect(try site.count("SELECT count(*) AS n FROM classes") == 1)
        // A fresh showing of the form makes a second class, as asked.
        _ = try teacher.submit("/teach", to: "/teach/classes", ["name": "Year 9 science", "school": "Liceo Volta"])
        #expect(try site.count("SELECT count(*) AS n FROM classes") == 2)

        let blank = try teacher.submit("/teach", to: "/teach/classes", ["name": "   ", "school": "Liceo Volta"])
        #expect(blank.status == 422)
        #expect(blank.bodyText.contains(#"<p class="form-error" id="class-name-error">Give the class a name of 1 to 120 characters.</p>"#))
        #expect(blank.bodyText.contains(#"name="school" type="text" maxlength="200" value="Liceo Volta""#))
        #expect(try site.count("SELECT count(*) AS n FROM classes") == 2)
        let check = try HTMLChecker.passes([("class refused", blank.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("a shared link starts exactly its preset; a guest signs up and comes back to it; revoked, expired and unknown links are friendly 404s")
    func shareLinks() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let token = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("due", "2030-06-30")])
        #expect(token.count == 43)
        // A guest sees what it is and who shared it, with a preview description for chats.
        let guest = site.browser()
        let page = try guest.request("GET", "/s/\(token)")
        #expect(page.status == 200)
        #expect(page.bodyText.contains("<title>Alpha warm-up · Mini exam · Study Portal</title>"))
        #expect(page.bodyText.contains(#"<meta name="description" content="Ms Rossi shared 2 questions of Mini exam on Study Portal.">"#))
        #expect(page.bodyText.contains("/register?next=/s/\(token)"))
        #expect(page.bodyText.contains("Domains: <span lang=\"en\">Alpha things</span>"), "domains by their titles, not their slugs")
        // Registering with that next brings the student back to the link; starting applies the preset.
        let registered = try guest.submit("/register?next=/s/\(token)", to: "/register", [
            "username": "newpupil", "display_name": "New Pupil", "password": "correct horse battery", "password_confirmation": "correct horse battery",
            "next": "/s/\(token)",
        ])
        #expect(redirectLocation(registered) == "/s/\(token)")
        _ = try guest.request("GET", "/s/\(token)")
        let started = try guest.submit("/s/\(token)", to: "/s/\(token)/start", [:])
        #expect(started.status == 303 && redirectLocation(started).hasPrefix("/sessions/"))
        let session = try #require(try site.admin { connection in
            try connection.query("SELECT mode, question_ids, share_link_id IS NOT NULL AS linked FROM study_sessions").first
        })
        #expect(try session.decode("mode", as: String.self) == "practice")
        #expect(try session.decode("linked", as: Bool.self))
        let chosen = try session.decode("question_ids", as: [UUID].self)
        let allowed = Set(MiniExam.items.filter { $0.domain == "alpha" && (1...2).contains($0.difficulty) }.map(\.id))
        #expect(chosen.count == 2 && Set(chosen).isSubset(of: allowed), "two alpha questions of difficulty 1–2, as the link says")
        #expect(try site.count("SELECT count(*) AS n FROM class_members WHERE left_at IS NULL") == 1, "the link joined the class")
        // Revoked: a friendly 404.
        let teach = try teacher.request("GET", "/teach/classes/\(classID)")
        #expect(teach.bodyText.contains("Alpha warm-up"))
        let linkID = try site.admin { try $0.query("SELECT id FROM share_links").first!.decode("id", as: UUID.self) }
        // Revoking asks first, on a page of its own; a form that did not ask is sent there.
        let revocation = "/teach/links/\(linkID.uuidString.lowercased())/revoke"
        #expect(teach.bodyText.contains(#"<a href="\#(revocation)">Revoke</a>"#), "\(teach.bodyText)")
        let question = try teacher.request("GET", revocation)
        #expect(question.status == 200 && question.bodyText.contains("<h1>Revoke “Alpha warm-up”?</h1>"), "\(question.bodyText)")
        let questionCheck = try HTMLChecker.passes([("revocation", question.body)])
        #expect(questionCheck.passed, "the Nu Html Checker found errors; run it on \(questionCheck.folder) to see them")
        let unasked = try teacher.request("POST", revocation, form: ["csrf_token": csrf])
        #expect(redirectLocation(unasked).hasSuffix(revocation))
        #expect(try guest.request("GET", "/s/\(token)").status == 200, "a form that did not ask revokes nothing")
        let confirmed = try teacher.request("POST", revocation, form: ["csrf_token": csrf, "confirm": "1"])
        #expect(redirectLocation(confirmed).hasSuffix("/teach/classes/\(classID)"))
        let revoked = try guest.request("GET", "/s/\(token)")
        #expect(revoked.status == 404)
        #expect(revoked.bodyText.contains("may have been revoked or have expired"))
        // Expired: a link for 1 day, then two days later.
        let expiring = try makeLink(teacher, csrf: csrf, classID: nil, extra: [("expires_days", "1")])
        #expect(try guest.request("GET", "/s/\(expiring)").status == 200)
        site.clock.advance(2 * 86_400)
        #expect(try guest.request("GET", "/s/\(expiring)").status == 404)
        #expect(try guest.request("GET", "/s/\(String(repeating: "A", count: 43))").status == 404)
        #expect(try guest.request("GET", "/s/short").status == 404)
    }

    @Test("a teacher reads their current students' rows and nobody else's; a student cannot read class results")
    func teacherVisibility() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (other, _, otherCSRF) = try site.account("otherteacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        _ = try makeClass(other, csrf: otherCSRF, name: "Other class")
        var students: [String: (Browser, UUID, String)] = [:]
        for name in ["member", "outsider", "leaver"] { students[name] = try site.account(name, role: "student") }
        for name in ["member", "leaver"] {
            let (browser, _, token) = students[name]!
            // Typing the code (any case) leads to the class's page, which joins it.
            #expect(redirectLocation(try browser.request("GET", "/join?code=\(code.lowercased())")) == "/join/\(code)")
            #expect(try browser.request("GET", "/join/\(code)").bodyText.contains("Year 10 networking"))
            #expect(try browser.request("POST", "/join/\(code)", form: ["csrf_token": token]).status == 303)
        }
        #expect(try site.browser().request("GET", "/join/NOSUCHCD").status == 404)
        // Everyone studies and finishes a session.
        for (_, (browser, _, token)) in students {
            let started = try browser.request("POST", "/sessions", pairs: [("csrf_token", token), ("region", MiniExam.region), ("exam", MiniExam.exam),
                                                                             ("mode", "practice"), ("count", "2"), ("domain", "alpha"), ("domain", "beta")])
            let path = redirectLocation(started)
            for _ in 0..<2 {
                let form = try QuestionForm(try browser.request("GET", path))
                try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
            }
            try browser.request("POST", path + "/finish", form: ["csrf_token": token])
        }
        let (leaver, leaverID, leaverToken) = students["leaver"]!
        let classUUID = try #require(UUID(uuidString: classID))
        #expect(try leaver.request("POST", "/me/classes/\(classID)/leave", form: ["csrf_token": leaverToken]).status == 303)
        /// What a browser's session may read, straight from the database as the server would ask.
        func visible(as browser: Browser) throws -> (sessions: Set<UUID>, answers: Int, names: Set<String>) {
            try site.pool.withTransaction(settings: ["app.session_token": browser.cookies["portal_session"] ?? ""]) { connection in
                (Set(try connection.query("SELECT user_id FROM study_sessions").rows.compactMap { try $0.decode("user_id", as: UUID?.self) }),
                 try connection.query("SELECT count(*) AS n FROM answers").first!.decode("n", as: Int.self),
                 Set(try connection.query("SELECT display_name FROM users").rows.map { try $0.decode("display_name", as: String.self) }))
            }
        }
        let memberID = students["member"]!.1
        let seenByTeacher = try visible(as: teacher)
        #expect(seenByTeacher.sessions == [memberID], "only the current member, not the outsider nor the student who left")
        #expect(seenByTeacher.answers == 2)
        #expect(seenByTeacher.names == ["Teacher", "Member"])
        let seenByOther = try visible(as: other)
        #expect(seenByOther.sessions.isEmpty && seenByOther.answers == 0)
        // A student sees their own rows only, and nothing of the class's results or links.
        let member = students["member"]!.0
        let seenByMember = try visible(as: member)
        #expect(seenByMember.sessions == [memberID])
        let (memberSees, linksSeen) = try site.pool.withTransaction(settings: ["app.session_token": member.cookies["portal_session"] ?? ""]) { connection in
            (try SchoolStore().members(classID: classUUID, connection).map(\.displayName),
             try connection.query("SELECT count(*) AS n FROM share_links").first!.decode("n", as: Int.self))
        }
        #expect(memberSees == ["Member"], "only their own membership")
        #expect(linksSeen == 0)
        #expect(try students["member"]!.0.request("GET", "/teach/classes/\(classID)").status == 404, "the teaching area is not there for students")
        #expect(try other.request("GET", "/teach/classes/\(classID)").status == 404, "nor another teacher's class")
        // The teacher's page shows the member and leaves out the others.
        let page = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        #expect(page.contains("Member") && !page.contains("Outsider") && !page.contains("Leaver"))
        // The class by domain, drawn and tabled from the member's answers alone (both right).
        #expect(page.contains(#"<title id="class-domains-title">Right answers by domain, the whole class</title>"#))
        #expect(page.contains(#"<td class="number" data-label="Accuracy">100%</td>"#), "\(page)")
        _ = leaverID
    }

    @Test("the class results export as CSV with a BOM, quoted where needed and safe from formulas")
    func csvExport() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let token = try makeLink(teacher, csrf: csrf, classID: classID)
        let (student, _, studentCSRF) = try site.account("pupil", role: "student", displayName: "=HYPERLINK(\"x\"), 山田")
        try student.request("POST", "/join/\(code)", form: ["csrf_token": studentCSRF])
        // Invisible or full-width characters before the formula's sign are skipped by
        // spreadsheets too: each of these cells must come out as text.
        let disguised = ["=\u{200D}1+1", "\u{200B}@SUM(A1:A9)", " \u{FF1D}1+1", "\u{202E}-2+3", "\u{00A0}+1"]
        for (number, name) in disguised.enumerated() {
            let (other, _, otherCSRF) = try site.account("pupil\(number)", role: "student", displayName: name)
            try other.request("POST", "/join/\(code)", form: ["csrf_token": otherCSRF])
            try other.submit("/s/\(token)", to: "/s/\(token)/start", [:])
        }
        let started = try student.submit("/s/\(token)", to: "/s/\(token)/start", [:])
        let path = redirectLocation(started)
        for _ in 0..<2 {
            let form = try QuestionForm(try student.request("GET", path))
            try student.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        }
        try student.request("POST", path + "/finish", form: ["csrf_token": studentCSRF])
        let csv = try teacher.request("GET", "/teach/classes/\(classID)/export.csv")
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(Array(csv.body.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let text = String(decoding: csv.body.dropFirst(3), as: UTF8.self)
        #expect(text.hasPrefix("Student,Assignment,Exam,Finished (UTC),Score %,Passed,Minutes,Attempts started\r\n"))
        #expect(text.contains("\"'=HYPERLINK(\"\"x\"\"), 山田\",Alpha warm-up,Mini exam,"))
        #expect(text.contains(",100.00,yes,"))
        let firstCells = text.split(separator: "\r\n").map { String($0.prefix { $0 != "," }) }
        for name in disguised { #expect(firstCells.contains("'" + name), "\(name.unicodeScalars.map { String($0.value, radix: 16) }) is not made text") }
        // In the teacher's language: the headers and yes or no; the numbers stay data.
        let japanese = try teacher.request("GET", "/teach/classes/\(classID)/export.csv", extraHeaders: "Accept-Language: ja\r\n")
        let japaneseText = String(decoding: japanese.body.dropFirst(3), as: UTF8.self)
        #expect(japaneseText.hasPrefix("学習者,課題,試験,完了日時（UTC）,得点 %,合格,分,開始した回数\r\n"))
        #expect(japaneseText.contains(",100.00,はい,"))
        let classPage = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        #expect(classPage.contains("1 of 6 done"), "one of the six pupils finished")
    }

    @Test("a class page with several assignments shows under each its own pupils' attempts and the questions they missed, and ranks the class by what they got right")
    func assignmentsKeepTheirOwnResults() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let homework = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("title", "Homework one"), ("count", "2")])
        _ = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("title", "Homework two"), ("count", "1")])
        let (pia, _, piaCSRF) = try site.account("pia", role: "student", displayName: "Pia Rossi")
        let (leo, _, leoCSRF) = try site.account("leo", role: "student", displayName: "Leo Bruni")
        try pia.request("POST", "/join/\(code)", form: ["csrf_token": piaCSRF])
        try leo.request("POST", "/join/\(code)", form: ["csrf_token": leoCSRF])
        // Pia does the first homework: its first question wrong, its second right.
        let path = redirectLocation(try pia.submit("/s/\(homework)", to: "/s/\(homework)/start", [:]))
        let first = try QuestionForm(try pia.request("GET", path))
        try pia.request("POST", path + "/answers", pairs: first.pairs(first.item.wrong))
        let second = try QuestionForm(try pia.request("GET", path))
        try pia.request("POST", path + "/answers", pairs: second.pairs(second.item.key))
        try pia.request("POST", path + "/finish", form: ["csrf_token": piaCSRF])
        let page = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        // Each assignment's article, by its title.
        let articles = page.components(separatedBy: "<h3 id=\"assignment-").dropFirst().map { $0.components(separatedBy: "</article>")[0] }
        #expect(articles.count == 2)
        let one = articles.first { $0.contains(">Homework one</h3>") } ?? "", two = articles.first { $0.contains(">Homework two</h3>") } ?? ""
        #expect(one.contains("1 of 2 done") && two.contains("0 of 2 done"))
        #expect(one.contains("Questions most often missed") && one.contains("1 wrong of 1"), "the missed question under its own assignment")
        #expect(!two.contains("Questions most often missed"))
        for article in [one, two] {
            #expect(article.contains("Pia Rossi") && article.contains("Leo Bruni"), "every pupil has a row under every assignment")
        }
        // The class board: Pia's one right answer (10 points a difficulty level) puts her first.
        let board = page.components(separatedBy: #"<ol class="scoreboard">"#).last?.components(separatedBy: "</ol>").first ?? ""
        let points = 10 * second.item.difficulty
        #expect(board.hasPrefix(#"<li><span class="name">Pia Rossi</span> <span class="points">\#(points)</span></li>"#), "\(board)")
        #expect(!board.contains("Leo Bruni"), "the board shows who has points, not a row of noughts")
    }

    @Test("a teacher is asked before removing a student: a page of its own says who and what it means; nothing happens until it is confirmed")
    func removalAsksFirst() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let (student, studentID, studentCSRF) = try site.account("pupil", role: "student", displayName: "Pia Rossi")
        try student.request("POST", "/join/\(code)", form: ["csrf_token": studentCSRF])
        let removal = "/teach/classes/\(classID)/members/\(studentID.lowercasedText)/remove"
        // The class lists the pupil; their own page has the way to remove them.
        let classPage = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        let memberPath = "/teach/classes/\(classID)/members/\(studentID.lowercasedText)"
        #expect(classPage.contains(#"<a href="\#(memberPath)">Pia Rossi</a>"#), "\(classPage)")
        let memberPage = try teacher.request("GET", memberPath).bodyText
        #expect(memberPage.contains(#"<a href="\#(removal)">Remove Pia Rossi from the class</a>"#), "\(memberPage)")
        let question = try teacher.request("GET", removal)
        #expect(question.status == 200)
        #expect(question.bodyText.contains("<h1>Remove Pia Rossi from Year 10 networking?</h1>"))
        #expect(question.bodyText.contains("They keep their account and everything they studied"))
        #expect(question.bodyText.contains(#"<button type="submit" class="danger">Remove Pia Rossi</button>"#))
        let members = { try site.count("SELECT count(*) AS n FROM class_members WHERE left_at IS NULL") }
        // A form that did not ask (an old page, one made elsewhere) is sent to the question.
        let unasked = try teacher.request("POST", removal, form: ["csrf_token": csrf])
        let stayed = try members()
        #expect(redirectLocation(unasked).hasSuffix(removal) && stayed == 1)
        let confirmed = try teacher.request("POST", removal, form: ["csrf_token": csrf, "confirm": "1"])
        let left = try members()
        #expect(redirectLocation(confirmed).hasSuffix("/teach/classes/\(classID)") && left == 0)
        // Another teacher's class is none of theirs to ask about.
        let (other, _, _) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", removal).status == 404)
    }

    @Test("the teaching pages pass the Nu Html Checker")
    func validHTML() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let token = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("due", "2030-01-31")])
        let (student, studentID, studentCSRF) = try site.account("pupil", role: "student")
        try student.request("POST", "/join/\(code)", form: ["csrf_token": studentCSRF])
        let started = try student.submit("/s/\(token)", to: "/s/\(token)/start", [:])
        let form = try QuestionForm(try student.request("GET", redirectLocation(started)))
        try student.request("POST", redirectLocation(started) + "/answers", pairs: form.pairs(form.item.wrong))
        try student.request("POST", redirectLocation(started) + "/finish", form: ["csrf_token": studentCSRF])
        try teacher.request("POST", "/teach/classes/\(classID)/members/\(studentID.lowercasedText)/accommodation",
                            form: ["csrf_token": csrf, "multiplier": "1.25", "extra_minutes": "5"])
        let (_, mock) = try startSession(student, mode: "mock", count: "4")
        var pages: [(name: String, body: [UInt8])] = []
        for (name, browser, path) in [
            ("teach", teacher, "/teach"), ("class", teacher, "/teach/classes/\(classID)"), ("exam-teacher", teacher, MiniExam.path),
            ("share-guest", site.browser(), "/s/\(token)"), ("share-student", student, "/s/\(token)"), ("join", site.browser(), "/join/\(code)"),
            ("my-classes", student, "/me/classes"), ("link-gone", site.browser(), "/s/\(String(repeating: "B", count: 43))"),
            ("enter-code", site.browser(), "/join"), ("wrong-code", student, "/join/NOSUCHCD"),
            ("exam-extra-time", student, MiniExam.path), ("mock-extra-time", student, mock),
            ("remove-student", teacher, "/teach/classes/\(classID)/members/\(studentID.lowercasedText)/remove"),
        ] {
            let response = try browser.request("GET", path)
            #expect(response.status < 500, "\(name)")
            pages.append((name, response.body))
        }
        let created = try teacher.request("POST", "/teach/links", pairs: [
            ("csrf_token", csrf), ("region", MiniExam.region), ("exam", MiniExam.exam), ("title", "Another"), ("mode", "mock"),
        ])
        pages.append(("link-created", created.body))
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("a pupil finds their homework without its link: listed under its class on My classes and, due within three days, first on the dashboard; opened and started from there; done shows their score; a pupil of another class finds nothing")
    func pupilsFindTheirAssignments() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let day = DateFormatter()
        (day.dateFormat, day.timeZone) = ("yyyy-MM-dd", .gmt)
        let soon = day.string(from: site.clock.read().addingTimeInterval(2 * 86_400))
        let later = day.string(from: site.clock.read().addingTimeInterval(20 * 86_400))
        _ = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("title", "Ports quiz"), ("due", soon), ("attempts", "2")])
        _ = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("title", "Layers essay"), ("due", later)])
        let (pupil, _, pupilCSRF) = try site.account("pia", role: "student", displayName: "Pia Rossi")
        #expect(try pupil.request("POST", "/join/\(code)", form: ["csrf_token": pupilCSRF]).status == 303)

        let classes = try pupil.request("GET", "/me/classes").bodyText
        #expect(classes.contains("Ports quiz") && classes.contains("Layers essay") && classes.contains("Not started yet"))
        #expect(classes.contains("0 of 2 attempts used"))
        #expect(classes.range(of: "Ports quiz")!.lowerBound < classes.range(of: "Layers essay")!.lowerBound, "the soonest due first")
        let dashboard = try pupil.request("GET", "/me").bodyText
        #expect(dashboard.contains("Due soon") && dashboard.contains("Ports quiz") && !dashboard.contains("Layers essay"),
                "only what is due within three days is put first")

        let id = try site.admin { try $0.query("SELECT id FROM share_links WHERE title = 'Ports quiz'").single().decode("id", as: UUID.self) }
        let path = "/me/assignments/\(id.lowercasedText)"
        #expect(classes.contains("href=\"\(path)\""))
        let opened = try pupil.request("GET", path)
        #expect(opened.status == 200 && opened.bodyText.contains("Ports quiz"))
        let started = try pupil.submit(path, to: path + "/start", [:])
        #expect(started.status == 303 && redirectLocation(started).hasPrefix("/sessions/"))
        let session = redirectLocation(started)
        for _ in 0..<2 {
            let form = try QuestionForm(try pupil.request("GET", session))
            try pupil.request("POST", session + "/answers", pairs: form.pairs(form.item.key))
        }
        try pupil.request("POST", session + "/finish", form: ["csrf_token": pupilCSRF])
        let after = try pupil.request("GET", "/me/classes").bodyText
        #expect(after.contains("Done: 100%") && after.contains("1 of 2 attempts used"), "\(after)")

        // Someone outside the class: nothing listed, nothing opened, nothing started.
        let (outsider, _, outsiderCSRF) = try site.account("leo", role: "student")
        #expect(!(try outsider.request("GET", "/me/classes").bodyText.contains("Ports quiz")))
        let refused = try outsider.request("GET", path)
        #expect(refused.status == 404 && refused.bodyText.contains("This assignment is not open to you"))
        let forced = try outsider.request("POST", path + "/start", form: ["csrf_token": outsiderCSRF])
        #expect(forced.status == 404)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'leo'") == 0)
        let outsiderAccount = try site.database.makeAccount("mallory")
        #expect(try site.pool.asCaller(outsiderAccount) { try $0.query("SELECT count(*) AS n FROM my_assignments(now())").single().decode("n", as: Int.self) } == 0)
        #expect(try site.pool.asCaller(outsiderAccount) {
            try $0.query("SELECT count(*) AS n FROM share_link_of_my_class(\(id), now())").single().decode("n", as: Int.self)
        } == 0)

        let check = try HTMLChecker.passes([("classes", try pupil.request("GET", "/me/classes").body), ("dashboard", try pupil.request("GET", "/me").body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("a class page lists its pupils one row each with when they last answered, the assignments they finished and their accuracy, sortable; each pupil's own page holds their attempts with the answers that counted, their extra time and the way to remove them")
    func rosterAndMemberPage() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let token = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("title", "Homework one")])
        let (pia, piaID, piaCSRF) = try site.account("pia", role: "student", displayName: "Pia Rossi")
        let (leo, _, leoCSRF) = try site.account("leo", role: "student", displayName: "Leo Bruni")
        try pia.request("POST", "/join/\(code)", form: ["csrf_token": piaCSRF])
        try leo.request("POST", "/join/\(code)", form: ["csrf_token": leoCSRF])
        let session = redirectLocation(try pia.submit("/s/\(token)", to: "/s/\(token)/start", [:]))
        let first = try QuestionForm(try pia.request("GET", session))
        try pia.request("POST", session + "/answers", pairs: first.pairs(first.item.key))
        let second = try QuestionForm(try pia.request("GET", session))
        try pia.request("POST", session + "/answers", pairs: second.pairs(second.item.wrong))
        try pia.request("POST", session + "/finish", form: ["csrf_token": piaCSRF])

        let page = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        let roster = page.components(separatedBy: "<table class=\"compact roster\">").last?.components(separatedBy: "</table>").first ?? ""
        #expect(roster.contains("Leo Bruni") && roster.contains("Pia Rossi"))
        #expect(roster.range(of: "Leo Bruni")!.lowerBound < roster.range(of: "Pia Rossi")!.lowerBound, "by name at first")
        #expect(roster.contains("1 of 1 done") && roster.contains("50% right") && roster.contains("no answer yet"))
        // Assignments first, then the members.
        #expect(page.range(of: "id=\"assignments-heading\"")!.lowerBound < page.range(of: "id=\"members-heading\"")!.lowerBound)
        let byAccuracy = try teacher.request("GET", "/teach/classes/\(classID)?sort=accuracy").bodyText
        let sorted = byAccuracy.components(separatedBy: "<table class=\"compact roster\">").last ?? ""
        #expect(sorted.range(of: "Pia Rossi")!.lowerBound < sorted.range(of: "Leo Bruni")!.lowerBound, "the most accurate first")
        #expect(sorted.contains("aria-sort=\"descending\"><a href=\"/teach/classes/\(classID)?sort=accuracy#members-heading\">Accuracy</a>"))

        let member = try teacher.request("GET", "/teach/classes/\(classID)/members/\(piaID.lowercasedText)")
        #expect(member.status == 200)
        let text = member.bodyText
        #expect(text.contains("Homework one") && text.contains("50%") && text.contains("Their answers"))
        #expect(text.contains("Question \(first.item.id.uuidString.suffix(2))?") && text.contains("Question \(second.item.id.uuidString.suffix(2))?"))
        #expect(text.contains("/accommodation\"") && text.contains("/reset\"") && text.contains("/remove\""))
        // Someone not in the class, and a class one does not teach: nothing there.
        let (stranger, strangerID, _) = try site.account("zoe", role: "student")
        _ = stranger
        #expect(try teacher.request("GET", "/teach/classes/\(classID)/members/\(strangerID.lowercasedText)").status == 404)
        let (other, _, _) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", "/teach/classes/\(classID)/members/\(piaID.lowercasedText)").status == 404)
        let check = try HTMLChecker.passes([("class", Array(page.utf8)), ("member", member.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("the gradebook: every pupil against every assignment, the first finished score marked late after the due time, each cell leading to the pupil's answers; the same grid as CSV, safe for spreadsheets; nobody else's class")
    func gradebook() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let day = DateFormatter()
        (day.dateFormat, day.timeZone) = ("yyyy-MM-dd", .gmt)
        let tomorrow = day.string(from: site.clock.read().addingTimeInterval(86_400))
        let token = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("title", "=Ports quiz"), ("due", tomorrow)])
        site.clock.advance(60)  // set a minute later
        _ = try makeLink(teacher, csrf: csrf, classID: classID, extra: [("title", "Layers")])
        let (pia, piaID, piaCSRF) = try site.account("pia", role: "student", displayName: "Pia Rossi")
        let (leo, _, leoCSRF) = try site.account("leo", role: "student", displayName: "Leo Bruni")
        try pia.request("POST", "/join/\(code)", form: ["csrf_token": piaCSRF])
        try leo.request("POST", "/join/\(code)", form: ["csrf_token": leoCSRF])
        let session = redirectLocation(try pia.submit("/s/\(token)", to: "/s/\(token)/start", [:]))
        for _ in 0..<2 {
            let form = try QuestionForm(try pia.request("GET", session))
            try pia.request("POST", session + "/answers", pairs: form.pairs(form.item.key))
        }
        site.clock.advance(3 * 86_400)  // finished two days after it was due
        try pia.request("POST", session + "/finish", form: ["csrf_token": piaCSRF])

        let page = try teacher.request("GET", "/teach/classes/\(classID)/gradebook")
        #expect(page.status == 200)
        let text = page.bodyText
        let rows = text.components(separatedBy: "<tr><th scope=\"row\">").dropFirst().map { $0.components(separatedBy: "</tr>")[0] }
        #expect(rows.count == 2)
        let piaRow = rows.first { $0.contains("Pia Rossi") } ?? "", leoRow = rows.first { $0.contains("Leo Bruni") } ?? ""
        #expect(piaRow.contains(">100%</a> <span class=\"late\">late</span>"), "\(piaRow)")
        #expect(piaRow.contains("/members/\(piaID.lowercasedText)#assignment-"))
        #expect(!leoRow.contains("%") && leoRow.contains(">—</a>"))
        #expect(text.range(of: "=Ports quiz")!.lowerBound < text.range(of: ">Layers<")!.lowerBound, "assignments in the order they were set")

        let csv = try teacher.request("GET", "/teach/classes/\(classID)/gradebook.csv")
        #expect(csv.status == 200 && csv.body.starts(with: [0xEF, 0xBB, 0xBF]))
        let lines = String(decoding: csv.body.dropFirst(3), as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines[0] == "Student,Username,'=Ports quiz,'=Ports quiz: attempts,'=Ports quiz: late,Layers,Layers: attempts,Layers: late")
        #expect(lines.contains("Pia Rossi,pia,100.00,1,yes,,0,") && lines.contains("Leo Bruni,leo,,0,,,0,"))

        let (other, _, _) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", "/teach/classes/\(classID)/gradebook").status == 404)
        #expect(try other.request("GET", "/teach/classes/\(classID)/gradebook.csv").status == 404)
        #expect(try pia.request("GET", "/teach/classes/\(classID)/gradebook").status == 404)
        let check = try HTMLChecker.passes([("gradebook", page.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("an assignment made from the class page: the exam chosen from the catalogue, then the share form with this class chosen; made, it leads back to the class, which lists it; a class one does not teach, or an exam that is none, is refused")
    func newAssignmentFromTheClass() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let classPage = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        let start = "/teach/classes/\(classID)/assignments/new"
        #expect(classPage.contains("href=\"\(start)\""))
        let choose = try teacher.request("GET", start)
        #expect(choose.status == 200)
        let examLink = start + "?exam=\(MiniExam.region)/\(MiniExam.exam)"
        #expect(choose.bodyText.contains("href=\"\(examLink)\""), "\(choose.bodyText)")
        let form = try teacher.request("GET", examLink)
        #expect(form.status == 200)
        let shareForm = try #require(PageForm.all(in: form.bodyText, action: "/teach/links").first)
        #expect(form.bodyText.contains("<option value=\"\(classID)\" selected>"))
        let made = try teacher.request("POST", "/teach/links", pairs: shareForm.filled(["title": "Homework from the class", "count": "2"]))
        #expect(made.status == 200 && made.bodyText.contains("href=\"/teach/classes/\(classID)\""))
        #expect(try teacher.request("GET", "/teach/classes/\(classID)").bodyText.contains("Homework from the class"))
        #expect(try site.count("SELECT count(*) AS n FROM share_links WHERE title = 'Homework from the class' AND class_id = \(UUID(uuidString: classID)!)") == 1)

        #expect(try teacher.request("GET", start + "?exam=nowhere/nothing").status == 404)
        let (other, _, _) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", start).status == 404)
        let check = try HTMLChecker.passes([("choose", choose.body), ("form", form.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("a mock assignment with its own time limit: the pupil sees it before starting, their session ends after it (their extra time added), and a time limit on practice or out of range is refused with what to do")
    func timedAssignment() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        let (pupil, pupilID, pupilCSRF) = try site.account("pia", role: "student", displayName: "Pia Rossi")
        #expect(try pupil.request("POST", "/join/\(code)", form: ["csrf_token": pupilCSRF]).status == 303)
        try site.admin { try $0.execute("INSERT INTO accommodations (student_id, time_multiplier, set_at) VALUES (\(pupilID), 1.5, now())") }
        let page = try teacher.request("GET", "/teach/classes/\(classID)/assignments/new?exam=\(MiniExam.region)/\(MiniExam.exam)").bodyText
        let shareForm = try #require(PageForm.all(in: page, action: "/teach/links").first)
        #expect(page.contains("name=\"time_limit\""))
        let practice = try teacher.request("POST", "/teach/links", pairs: shareForm.filled(["title": "Timed practice", "count": "2", "time_limit": "20"]))
        #expect(practice.status == 422 && practice.bodyText.contains("A time limit is for an assignment taken as a mock exam"))
        let zero = try teacher.request("POST", "/teach/links", pairs: shareForm.filled(["title": "Timed", "mode": "mock", "count": "2", "time_limit": "0"]))
        #expect(zero.status == 400 && zero.bodyText.contains("a number of minutes from 1 to 600"))
        #expect(try site.count("SELECT count(*) AS n FROM share_links") == 0, "nothing made by a refused form")

        let made = try teacher.request("POST", "/teach/links", pairs: shareForm.filled(["title": "Twenty minutes", "mode": "mock", "count": "2", "time_limit": "20"]))
        #expect(made.status == 200)
        #expect(try teacher.request("GET", "/teach/classes/\(classID)").bodyText.contains(" · 20 minutes"), "the class page lists the assignment with its time")
        let id = try site.admin { try $0.query("SELECT id FROM share_links WHERE title = 'Twenty minutes'").single().decode("id", as: UUID.self) }
        let path = "/me/assignments/\(id.uuidString.lowercased())"
        let shown = try pupil.request("GET", path).bodyText
        #expect(shown.contains("<dt>Time limit (minutes)</dt><dd>20 minutes</dd>"))
        let session = redirectLocation(try pupil.submit(path, to: path + "/start", [:]))
        let sessionID = try #require(UUID(uuidString: String(session.split(separator: "/").last ?? "")))
        let seconds = try site.admin {
            try $0.query("SELECT extract(epoch FROM deadline_at - started_at)::integer AS n FROM study_sessions WHERE id = \(sessionID)").single().decode("n", as: Int.self)
        }
        #expect(seconds == 30 * 60, "twenty minutes, with the pupil's half again")
        #expect(try pupil.request("GET", session).bodyText.contains("with your extra time"), "the question page says the time includes extra time")
    }
}
