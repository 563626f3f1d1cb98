import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

@Suite("Quizzes of chosen questions", .onTestThreads)
struct QuizTests {
    /// The mini exam's question shown as "Question a1?" and so on.
    static func stem(_ item: MiniExam.Item) -> String { "Question \(item.id.uuidString.suffix(2))?" }

    /// A new quiz for the mini exam; its address.
    static func makeQuiz(_ teacher: Browser, title: String = "Layers, in my order") throws -> String {
        let made = try teacher.submit("/teach/quizzes", to: "/teach/quizzes", ["exam": "\(MiniExam.region)/\(MiniExam.exam)", "title": title])
        #expect(made.status == 303)
        return redirectLocation(made)
    }

    /// Adds the item found by searching its stem's words; the form's fields as sent.
    @discardableResult
    static func add(_ teacher: Browser, _ quiz: String, _ item: MiniExam.Item) throws -> [(String, String)] {
        let words = String(stem(item).dropLast())
        let found = try teacher.request("GET", quiz + "?q=" + words.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let form = try #require(PageForm.all(in: found.bodyText, action: quiz + "/questions").first { $0.fields.contains { $0.value == item.id.uuidString.lowercased() } })
        let added = try teacher.request("POST", quiz + "/questions", pairs: form.filled([:]))
        #expect(added.status == 303 && redirectLocation(added).contains("q="), "back to the same search")
        return form.filled([:])
    }

    @Test("a teacher builds a quiz from chosen questions, orders it, previews it and assigns it to a class; each pupil gets exactly those questions in that order; a question retired later is left out and the teacher told")
    func builtAssignedAndTaken() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacher, csrf: csrf)
        #expect(try teacher.request("GET", "/teach").bodyText.contains("href=\"/teach/quizzes\""))
        let quiz = try Self.makeQuiz(teacher)
        #expect(quiz.hasPrefix("/teach/quizzes/"))
        let items = MiniExam.items.filter { $0.kind == "single-choice" }
        let (first, second, third) = (items[0], items[1], items[2])
        var sent: [(String, String)] = []
        for item in [second, first, third] { sent = try Self.add(teacher, quiz, item) }
        // The same add sent again (a reload, a double tap) changes nothing.
        #expect(try teacher.request("POST", quiz + "/questions", pairs: sent).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM quiz_questions") == 3)
        // The search by domain leaves out what the quiz holds already.
        let alpha = try teacher.request("GET", quiz + "?domain=alpha").bodyText
        #expect(!alpha.contains("value=\"\(first.id.uuidString.lowercased())\""))

        // Second first: moved down one place. Now first, second, third.
        let page = try teacher.request("GET", quiz).bodyText
        let move = try #require(PageForm.all(in: page, action: quiz + "/questions/\(second.id.uuidString.lowercased())/move").first)
        #expect(try teacher.request("POST", quiz + "/questions/\(second.id.uuidString.lowercased())/move", pairs: move.filled(["direction": "down"])).status == 303)
        let ordered = try teacher.request("GET", quiz).bodyText
        let positions = [first, second, third].map { ordered.range(of: Self.stem($0))!.lowerBound }
        #expect(positions == positions.sorted(), "the quiz in the order chosen")

        let preview = try teacher.request("GET", quiz + "/preview")
        #expect(preview.status == 200 && preview.bodyText.contains("Question 1 of 3") && preview.bodyText.contains(Self.stem(first)))
        let last = try teacher.request("GET", quiz + "/preview?n=3").bodyText
        #expect(last.contains(Self.stem(third)) && !last.contains(">Next<"))

        // Assigned to the class with the quiz's own form.
        let assign = try #require(PageForm.all(in: ordered, action: "/teach/links").first)
        let made = try teacher.request("POST", "/teach/links", pairs: assign.filled(["title": "Quiz one", "class": classID]))
        #expect(made.status == 200, "\(made.bodyText.prefix(400))")
        let (pupil, _, pupilCSRF) = try site.account("pia", role: "student", displayName: "Pia Rossi")
        #expect(try pupil.request("POST", "/join/\(code)", form: ["csrf_token": pupilCSRF]).status == 303)
        let id = try site.admin { try $0.query("SELECT id FROM share_links WHERE title = 'Quiz one'").single().decode("id", as: UUID.self) }
        let path = "/me/assignments/\(id.uuidString.lowercased())"
        let session = redirectLocation(try pupil.submit(path, to: path + "/start", [:]))
        #expect(session.hasPrefix("/sessions/"))
        var seen: [String] = []
        for _ in 0..<3 {
            let form = try QuestionForm(try pupil.request("GET", session))
            seen.append(Self.stem(form.item))
            try pupil.request("POST", session + "/answers", pairs: form.pairs(form.item.key))
        }
        #expect(seen == [first, second, third].map(Self.stem), "the quiz's questions in its order")
        try pupil.request("POST", session + "/finish", form: ["csrf_token": pupilCSRF])
        #expect(try teacher.request("GET", "/teach/classes/\(classID)/gradebook").bodyText.contains(">100%</a>"))

        // An admin retires the second question: the teacher is told, pupils no longer get it.
        try site.admin { try $0.execute("UPDATE questions SET status = 'retired' WHERE id = \(second.id)") }
        let told = try teacher.request("GET", quiz).bodyText
        #expect(told.contains("1 question was retired since you chose it"))
        let again = redirectLocation(try pupil.submit(path, to: path + "/start", [:]))
        #expect(try site.count("SELECT cardinality(question_ids) AS n FROM study_sessions WHERE id = \(UUID(uuidString: String(again.split(separator: "/").last!))!)") == 2)

        let check = try HTMLChecker.passes([
            ("quizzes", try teacher.request("GET", "/teach/quizzes").body), ("quiz", Array(told.utf8)), ("preview", preview.body),
            ("search", try teacher.request("GET", quiz + "?q=Question").body),
        ])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("bad quizzes are refused with what to do, nothing half-made: no title, no exam, assigning one with no question or without a class, a due day already over, a question of another exam, another teacher's quiz")
    func refusals() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let untitled = try teacher.submit("/teach/quizzes", to: "/teach/quizzes", ["exam": "\(MiniExam.region)/\(MiniExam.exam)", "title": "  "])
        #expect(untitled.status == 422 && untitled.bodyText.contains("Give the quiz a title"))
        let noExam = try teacher.submit("/teach/quizzes", to: "/teach/quizzes", ["exam": "", "title": "A quiz"])
        #expect(noExam.status == 422 && noExam.bodyText.contains("Choose the exam"))
        #expect(try site.count("SELECT count(*) AS n FROM quizzes") == 0)

        let quiz = try Self.makeQuiz(teacher)
        let quizID = String(quiz.split(separator: "/").last!)
        func assign(_ extra: [(String, String)]) throws -> RawHTTPClient.Response {
            var pairs = [("csrf_token", csrf), ("region", MiniExam.region), ("exam", MiniExam.exam), ("quiz", quizID), ("title", "Quiz"), ("mode", "practice")]
            let replaced = Set(extra.map(\.0))
            pairs = pairs.filter { !replaced.contains($0.0) } + extra
            return try teacher.request("POST", "/teach/links", pairs: pairs)
        }
        let empty = try assign([("class", classID)])
        #expect(empty.status == 422 && empty.bodyText.contains("The quiz has no question to give yet"))
        try Self.add(teacher, quiz, MiniExam.items[0])
        let classless = try assign([])
        #expect(classless.status == 422 && classless.bodyText.contains("A quiz is assigned to a class"))
        let past = try assign([("class", classID), ("due", "2001-01-01")])
        #expect(past.status == 422 && past.bodyText.contains("That day is over"))
        #expect(try site.count("SELECT count(*) AS n FROM share_links") == 0)

        // A question of another exam, sent by hand: the database refuses it.
        let otherQuestion = UUID()
        try site.admin { connection in
            let exam = try connection.query("""
                INSERT INTO exams (region_id, slug, title, description, language, pass_mark, time_limit_s, question_count)
                SELECT id, 'other', 'Other exam', 'Another.', 'en', 70, 600, 5 FROM regions WHERE code = \(MiniExam.region) RETURNING id
                """).single().decode("id", as: Int.self)
            let domain = try connection.query("INSERT INTO domains (exam_id, slug, title, weight) VALUES (\(exam), 'gamma', 'Gamma', 100) RETURNING id")
                .single().decode("id", as: Int.self)
            try connection.execute("""
                INSERT INTO questions (id, domain_id, type, stem, options, correct, explanation, difficulty, status)
                VALUES (\(otherQuestion), \(domain), 'single-choice', 'Elsewhere?', '[{"id":"a","text":"A"},{"id":"b","text":"B"}]'::jsonb, '[0]'::jsonb, 'B.', 1, 'published')
                """)
        }
        let foreign = try teacher.request("POST", quiz + "/questions", form: ["csrf_token": csrf, "question": otherQuestion.uuidString.lowercased()])
        #expect(foreign.status == 422 && foreign.bodyText.contains("not a published question of this quiz"))
        #expect(try site.count("SELECT count(*) AS n FROM quiz_questions") == 1)

        // Another teacher finds nothing of it.
        let (other, _, otherCSRF) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", quiz).status == 404)
        #expect(try other.request("POST", quiz + "/questions", form: ["csrf_token": otherCSRF, "question": MiniExam.items[1].id.uuidString.lowercased()]).status == 404)
        #expect(try other.request("POST", quiz + "/title", form: ["csrf_token": otherCSRF, "title": "Mine now"]).status == 404)
        #expect(try site.count("SELECT count(*) AS n FROM quizzes WHERE title = 'Mine now'") == 0)
    }

    @Test("the database keeps quizzes their teacher's: a portal_app connection of another teacher or a pupil reads and writes none, and reaches a quiz's questions only through an assignment of a class the pupil is in")
    func databaseIsTheLastWord() throws {
        let site = try PortalSite()
        let (teacherBrowser, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, code) = try makeClass(teacherBrowser, csrf: csrf)
        let quiz = try Self.makeQuiz(teacherBrowser)
        try Self.add(teacherBrowser, quiz, MiniExam.items[0])
        let page = try teacherBrowser.request("GET", quiz).bodyText
        let assign = try #require(PageForm.all(in: page, action: "/teach/links").first)
        #expect(try teacherBrowser.request("POST", "/teach/links", pairs: assign.filled(["class": classID])).status == 200)
        let link = try site.admin { try $0.query("SELECT id FROM share_links").single().decode("id", as: UUID.self) }
        let quizID = UUID(uuidString: String(quiz.split(separator: "/").last!))!

        let otherTeacher = try site.database.makeAccount("mallory", role: "teacher")
        let outsider = try site.database.makeAccount("eve")
        let (member, _, memberCSRF) = try site.account("pia", role: "student")
        #expect(try member.request("POST", "/join/\(code)", form: ["csrf_token": memberCSRF]).status == 303)
        let memberAccount = try site.database.makeAccount("pia2")
        try site.admin { try $0.execute("INSERT INTO class_members (class_id, user_id, joined_at) VALUES (\(UUID(uuidString: classID)!), \(memberAccount.id), now())") }

        for caller in [otherTeacher, outsider] {
            let seen = try site.pool.asCaller(caller) { connection in
                (try connection.query("SELECT count(*) AS n FROM quizzes").single().decode("n", as: Int.self),
                 try connection.query("SELECT count(*) AS n FROM quiz_questions").single().decode("n", as: Int.self),
                 try connection.query("SELECT count(*) AS n FROM quiz_questions_of_link(\(link))").single().decode("n", as: Int.self))
            }
            #expect(seen == (0, 0, 0), "\(caller.username) sees \(seen)")
            let changed = try site.pool.asCaller(caller) { connection in
                try connection.execute("UPDATE quizzes SET title = 'Taken' WHERE id = \(quizID)") + (try connection.execute("DELETE FROM quiz_questions"))
            }
            #expect(changed == 0)
            var refused = false
            do {
                try site.pool.asCaller(caller) { try $0.execute("INSERT INTO quiz_questions (quiz_id, question_id, position) VALUES (\(quizID), \(MiniExam.items[2].id), 9)") }
            } catch let error as PostgresError {
                // Not their quiz: the check finds no such quiz for them, or the policy refuses the row.
                refused = error.sqlState == "23514" || error.sqlState == "42501"
            }
            #expect(refused, "\(caller.username) cannot add to another's quiz")
        }
        #expect(try site.pool.asCaller(memberAccount) { try $0.query("SELECT count(*) AS n FROM quiz_questions_of_link(\(link))").single().decode("n", as: Int.self) } == 1,
                "a pupil of the class gets the quiz's questions through its assignment")
        #expect(try site.pool.asCaller(memberAccount) { try $0.query("SELECT count(*) AS n FROM quiz_questions").single().decode("n", as: Int.self) } == 0,
                "but not the quiz itself")
    }

    @Test("a teacher finds questions by how often students get them right in their first mocks: ten students all right on one are 'most', all wrong on another 'few', the rest not known yet; a student reads no facility")
    func searchByFacility() throws {
        let site = try PortalSite()
        let (teacher, _, _) = try site.account("teacher", role: "teacher")
        let quiz = try Self.makeQuiz(teacher)
        let items = MiniExam.items.filter { $0.kind == "single-choice" }
        let (easy, hard) = (items[0], items[1])
        let examID = try site.admin { try $0.query("SELECT id FROM exams WHERE slug = \(MiniExam.exam)").single().decode("id", as: Int.self) }
        let start = site.clock.read()
        func takeMocks(_ students: Range<Int>) throws {
            for index in students {
                let student = try site.database.makeAccount("taker\(index)")
                try site.pool.asCaller(student) { connection in
                    let store = StudyStore()
                    let session = try store.create(NewStudySession(
                        userID: student.id, examID: examID, mode: .mock, config: [:], questionIDs: [easy.id, hard.id], startedAt: start), connection)
                    for (item, right) in [(easy, true), (hard, false)] {
                        let pick = right ? item.key : [item.key[0] == 0 ? 1 : 0]
                        _ = try AnswerRecorder().record(RecordedAnswer(
                            id: UUID(), sessionID: session, questionID: item.id, questionVersion: 1, response: .indexes(pick), correct: right,
                            score: right ? 1 : 0, rating: nil, milliseconds: 5000, answeredAt: start.addingTimeInterval(10)), userID: student.id, connection)
                    }
                    _ = try store.finish(sessionID: session, at: start.addingTimeInterval(30), connection)
                }
            }
        }
        func found(_ band: String) throws -> (page: String, easy: Bool, hard: Bool, other: Bool) {
            let page = try teacher.request("GET", quiz + "?facility=" + band).bodyText
            let listed = { (item: MiniExam.Item) in page.contains("name=\"question\" value=\"\(item.id.uuidString.lowercased())\"") }
            return (page, listed(easy), listed(hard), listed(items[2]))
        }
        // Nine first mocks are too few to say anything about either question.
        try takeMocks(0..<9)
        let early = try found("unmeasured")
        #expect(early.easy && early.hard && early.other && !early.page.contains("right in first mocks"))
        try takeMocks(9..<10)
        let most = try found("easy"), few = try found("hard"), unknown = try found("unmeasured")
        #expect(most.easy && !most.hard && !most.other)
        #expect(most.page.contains("100% right in first mocks"))
        #expect(few.hard && !few.easy && !few.other && few.page.contains("0% right in first mocks"))
        #expect(unknown.other && !unknown.easy && !unknown.hard)
        #expect(try found("middling").page.contains("No published question matches that"))
        // An unknown band is no filter: everything is found.
        let any = try found("sideways")
        #expect(any.easy && any.hard && any.other)
        // The shares are the teacher's to search by, not a student's to read.
        let student = try site.database.makeAccount("curious")
        #expect(try site.pool.asCaller(student) { try $0.query("SELECT count(*) AS n FROM question_facilities(\(examID))").single().decode("n", as: Int.self) } == 0)
    }
}
