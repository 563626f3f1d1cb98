import ExamData
import Foundation
@testable import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A teacher makes a class's accounts from a list of names and prints their sign-in cards;
/// each student chooses their own password with the card's start code.
@Suite("Accounts made by a teacher", .onTestThreads)
struct ClassAccountsTests {

    @Test("a teacher pastes 30 names (a header row, a spreadsheet's columns, a repeated name, a name in kanji) and gets 30 accounts in the class with a sheet of cards; a student's first sign-in chooses a password with the card's code and lands in the class")
    func classOfThirty() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let classPage = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        #expect(classPage.contains(#"<a href="/teach/classes/\#(classID)/accounts">"#))
        let form = try teacher.request("GET", "/teach/classes/\(classID)/accounts")
        #expect(form.status == 200 && form.bodyText.contains(#"<textarea id="names" name="names""#))

        let first = ["Ana", "Ben", "Chiara", "Dario", "Elena", "Fabio", "Giulia", "Hugo", "Irene"]
        let last = ["Bianchi", "Conti", "Marino"]
        var lines = ["Name;Surname"]
        for given in first { for family in last { lines.append("\(given);\(family)") } }  // 27, as a spreadsheet gives them
        lines += ["José Núñez", "José Núñez", "山田 太郎"]
        var sent = ["csrf_token": csrf, "form_token": teacher.formToken(from: form), "names": lines.joined(separator: "\r\n")]
        // A name pasted twice is said before anything is made; the teacher confirms two pupils.
        let asked = try teacher.request("POST", "/teach/classes/\(classID)/accounts", form: sent)
        #expect(asked.status == 422 && asked.bodyText.contains("Some names appear more than once: José Núñez (2). Nothing is made yet."))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE made_by IS NOT NULL") == 0)
        #expect(asked.bodyText.contains("Ana;Bianchi"), "what was pasted comes back")
        sent["repeats"] = "separate"
        let posted = try teacher.request("POST", "/teach/classes/\(classID)/accounts", form: sent)
        #expect(posted.status == 303, "\(posted.bodyText)")
        let cardsPath = redirectLocation(posted)
        #expect(cardsPath.range(of: "^/teach/classes/\(classID)/accounts/[0-9a-f-]{36}$", options: .regularExpression) != nil, "\(cardsPath)")
        let made = try teacher.request("GET", cardsPath)
        #expect(made.status == 200, "\(made.bodyText)")
        let cards = ClassPupils.cards(made)
        try #require(cards.count == 30)
        #expect(made.bodyText.contains("30 accounts made and joined to the class."))
        let usernames = Set(cards.map(\.username))
        #expect(usernames.count == 30, "every username its own")
        #expect(usernames.isSuperset(of: ["ana.bianchi", "irene.marino", "jose.nunez", "jose.nunez2", "shan.tian.tai.lang"]), "\(usernames.sorted())")
        #expect(cards.allSatisfy { $0.code.count == 14 })
        #expect(made.header("Cache-Control") == "private, no-store")
        let check = try HTMLChecker.passes([("accounts form", form.body), ("repeats named", asked.body), ("cards", made.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        // In the database: students without a password or e-mail, in the class, off public boards,
        // each with a start code kept as a hash for 14 days; the teacher's making is audited.
        #expect(try site.count("SELECT count(*) AS n FROM users u JOIN users t ON t.id = u.made_by WHERE t.username = 'teacher' AND u.role = 'student' AND u.password_hash IS NULL AND NOT u.show_on_leaderboard") == 30)
        #expect(try site.count("SELECT count(*) AS n FROM class_members m JOIN users u ON u.id = m.user_id WHERE m.class_id = \(UUID(uuidString: classID)!) AND m.left_at IS NULL AND u.made_by IS NOT NULL") == 30)
        #expect(try site.count("SELECT count(*) AS n FROM password_resets WHERE used_at IS NULL AND expires_at - issued_at = interval '14 days'") == 30)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'class.accounts-made' AND actor_name = 'Ms Rossi' AND (details->>'count')::int = 30") == 1)

        // The same form sent again (a reload of the POST, back and forward, a double tap) makes
        // nothing more and leads to the same cards; so does a reload of the cards themselves.
        let again = try teacher.request("POST", "/teach/classes/\(classID)/accounts", form: sent)
        #expect(again.status == 303 && redirectLocation(again) == cardsPath)
        #expect(ClassPupils.cards(try teacher.request("GET", cardsPath)).map(\.code) == cards.map(\.code), "the same start codes")
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE made_by IS NOT NULL") == 30)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'class.accounts-made'") == 1)
        // The class page tells the accounts apart by username.
        let members = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        #expect(members.contains(#"José Núñez</a> <span class="username">jose.nunez</span>"#) && members.contains(#"José Núñez</a> <span class="username">jose.nunez2</span>"#))

        // A student with card in hand: no password works yet; the code makes one and signs them in.
        let (username, code) = cards[0]
        let pupil = site.browser()
        #expect(try pupil.login(username, password: "anything at all").bodyText.contains("do not match an account"))
        let login = try pupil.request("GET", "/login").bodyText
        #expect(login.contains(#"<a href="/reset?first=1">Choose your password</a>"#))
        let start = try pupil.request("GET", "/reset?first=1&user=\(username)&code=\(code.replacingOccurrences(of: "-", with: ""))")
        #expect(start.bodyText.contains("<h1>Choose your password</h1>") && start.bodyText.contains(#"value="\#(code)""#))
        #expect(start.bodyText.contains(#"<label for="code">Start code</label>"#), "the form names the code as the card does")
        let chosen = try pupil.submit("/reset?first=1", to: "/reset", [
            "first": "1", "username": username, "code": code, "password": "my own long phrase", "password_confirmation": "my own long phrase"])
        #expect(chosen.status == 303 && chosen.header("Location") == "/me/classes", "the first sign-in lands on the class")
        #expect(try pupil.request("GET", "/me/classes").bodyText.contains("Year 10 networking"))
        #expect(redirectLocation(try site.browser().login(username, password: "my own long phrase")).hasSuffix("/me"))
    }

    @Test("a pupil whose account the teacher made stays off public leaderboards, even having opted in, until the teacher allows it for the class; a student's own account is not affected")
    func publicBoards() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let made = try teacher.submit("/teach/classes/\(classID)/accounts", to: "/teach/classes/\(classID)/accounts", ["names": "Nina Rossi"])
        let (username, code) = try #require(ClassPupils.cards(try teacher.request("GET", redirectLocation(made))).first)
        let pupil = site.browser()
        #expect(try pupil.submit("/reset?first=1", to: "/reset", [
            "first": "1", "username": username, "code": code, "password": "my own long phrase", "password_confirmation": "my own long phrase"]).status == 303)
        let own = site.browser()
        try own.register("oscar")
        // Both opt in and study.
        for browser in [pupil, own] {
            let settings = try browser.request("GET", "/me/settings")
            let saved = try browser.request("POST", "/me/settings", form: [
                "csrf_token": browser.csrfToken(from: settings), "display_name": browser === pupil ? "Nina Rossi" : "Oscar", "time_zone": "UTC",
                "show_on_leaderboard": "on"])
            #expect(saved.status == 303)
            let (_, path) = try startSession(browser, count: "2")
            let form = try QuestionForm(try browser.request("GET", path))
            #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key)).status == 303)
            let token = browser.csrfToken(from: try browser.request("GET", path + "/finish"))
            #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": token]).status == 303)
        }
        #expect(try pupil.request("GET", "/me/settings").bodyText.contains("your name appears on public leaderboards only if your teacher allows it"))
        func onBoard() throws -> Set<String> {
            try site.admin { connection in
                _ = try connection.query("SELECT leaderboard_refresh(interval '0', 'test')")
                return Set(try connection.query("SELECT DISTINCT display_name FROM leaderboard_entries").rows.map { try $0.decode("display_name", as: String.self) })
            }
        }
        #expect(try onBoard() == ["Oscar"])

        let classPage = try teacher.request("GET", "/teach/classes/\(classID)").bodyText
        #expect(classPage.contains(#"name="public_boards" aria-describedby="boards-hint">"#), "off by default")
        let allowed = try teacher.request("POST", "/teach/classes/\(classID)/boards", form: ["csrf_token": csrf, "public_boards": "on"])
        #expect(redirectLocation(allowed).hasSuffix("/teach/classes/\(classID)#boards"))
        #expect(try teacher.request("GET", "/teach/classes/\(classID)").bodyText.contains(#"name="public_boards" aria-describedby="boards-hint" checked>"#))
        #expect(try onBoard() == ["Oscar", "Nina Rossi"])
        #expect(!(try pupil.request("GET", "/me/settings").bodyText.contains("only if your teacher allows it")))
        // Another teacher cannot open it for someone else's class.
        let (other, _, otherCSRF) = try site.account("intruder", role: "teacher")
        #expect(try other.request("POST", "/teach/classes/\(classID)/boards", form: ["csrf_token": otherCSRF]).status == 404)
        #expect(try onBoard() == ["Oscar", "Nina Rossi"])
    }

    @Test("only the class's teacher makes its accounts, at most 100 at once; an empty or too long list comes back on its form with the reason")
    func limits() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: csrf)
        let path = "/teach/classes/\(classID)/accounts"
        let empty = try teacher.request("POST", path, form: ["csrf_token": csrf, "names": "\n  \n"])
        #expect(empty.status == 422 && empty.bodyText.contains("Type at least one name"))
        let many = (1...101).map { "Pupil \($0)" }.joined(separator: "\n")
        let tooMany = try teacher.request("POST", path, form: ["csrf_token": csrf, "names": many])
        #expect(tooMany.status == 422 && tooMany.bodyText.contains("That is 101 names; at most 100 at once"))
        #expect(tooMany.bodyText.contains("Pupil 101</textarea>"), "the list comes back as typed")
        let (other, _, otherCSRF) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", path).status == 404)
        #expect(try other.request("POST", path, form: ["csrf_token": otherCSRF, "names": "Ana Conti"]).status == 404)
        let (student, _, studentCSRF) = try site.account("pupil", role: "student")
        #expect(try student.request("POST", path, form: ["csrf_token": studentCSRF, "names": "Ana Conti"]).status == 404)
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE made_by IS NOT NULL") == 0)
        // The database itself: portal_app as another teacher makes nothing.
        let outsider = try site.database.makeAccount("outsider", role: "teacher")
        let people = #"[{"name": "Ana", "username": "ana.x", "code": "\#(String(repeating: "ab", count: 32))"}]"#
        #expect(throws: PostgresError.self) {
            try site.pool.asCaller(outsider) { try $0.query("SELECT * FROM teacher_make_accounts(\(UUID(uuidString: classID)!), \(people)::jsonb)") }
        }
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE made_by IS NOT NULL") == 0)
    }

    @Test("a batch's cards are its teacher's alone, for a day: another teacher, a pupil and a form token from another account reach nothing and make nothing; after a day the codes are forgotten and each card leads to a new code")
    func cardsForADay() throws {
        let site = try PortalSite()
        let (teacher, _, _) = try site.account("teacher", role: "teacher")
        let (classID, _) = try makeClass(teacher, csrf: teacher.csrfToken(from: try teacher.request("GET", "/teach")))
        let path = "/teach/classes/\(classID)/accounts"
        let cardsPath = redirectLocation(try teacher.submit(path, to: path, ["names": "Pia Rossi\nLuca Bianchi"]))
        let codes = ClassPupils.cards(try teacher.request("GET", cardsPath)).map(\.code)
        #expect(codes.count == 2 && codes.allSatisfy { $0.count == 14 })

        let (other, _, otherCSRF) = try site.account("other", role: "teacher")
        #expect(try other.request("GET", cardsPath).status == 404)
        let (pupil, _, _) = try site.account("pupil", role: "student")
        #expect(try pupil.request("GET", cardsPath).status == 404)
        // The database itself: portal_app as the other teacher reads no card.
        let batch = try #require(cardsPath.split(separator: "/").last.flatMap { UUID(uuidString: String($0)) })
        let outsider = try site.database.makeAccount("outsider", role: "teacher")
        #expect(try site.pool.asCaller(outsider) { try $0.query("SELECT * FROM class_account_cards(\(batch))").rows.count } == 0)
        #expect(throws: PostgresError.self) { try site.pool.asCaller(outsider) { try $0.query("SELECT * FROM class_account_batches") } }

        // A form token the other teacher's own form carried, sent by the teacher: nothing made,
        // the form shown again with what was typed.
        let (otherClass, _) = try makeClass(other, csrf: otherCSRF)
        let otherForm = try other.request("GET", "/teach/classes/\(otherClass)/accounts")
        let theirToken = other.formToken(from: otherForm)
        _ = try other.request("POST", "/teach/classes/\(otherClass)/accounts", form: ["csrf_token": otherCSRF, "form_token": theirToken, "names": "Ada Byron"])
        let crossed = try teacher.request("POST", path, form: ["csrf_token": teacher.csrfToken(from: try teacher.request("GET", path)), "form_token": theirToken, "names": "Eva Neri"])
        #expect(crossed.status == 409 && crossed.bodyText.contains("nothing was made") && crossed.bodyText.contains("Eva Neri</textarea>"), "\(crossed.status)")
        let noToken = try teacher.request("POST", path, form: ["csrf_token": teacher.csrfToken(from: try teacher.request("GET", path)), "names": "Eva Neri"])
        #expect(noToken.status == 409 && noToken.bodyText.contains(#"name="form_token" value=""#))
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE display_name = 'Eva Neri'") == 0)

        // A day on, the codes are forgotten (by the database's own pruning); the accounts stay
        // listed, each with the way to a new code.
        site.clock.advance(86_400 + 60)
        site.application.pruneAnonymousState()
        let later = try teacher.request("GET", cardsPath)
        #expect(later.status == 200 && later.bodyText.contains("now forgotten"))
        #expect(codes.allSatisfy { !later.bodyText.contains($0) })
        #expect(later.bodyText.contains("pia.rossi") && later.bodyText.contains("/reset\" aria-label=\"Make a reset code for Pia Rossi\""))
        #expect(try site.count("SELECT count(*) AS n FROM class_account_batches WHERE cards::text LIKE '%code%'") == 0)
        let check = try HTMLChecker.passes([("cards forgotten", later.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("names pasted from anywhere become names and usernames a person would pick")
    func namesAndUsernames() {
        #expect(NameList("Name\nPia Rossi\n\n  Luca  Bianchi \n").names == ["Pia Rossi", "Luca Bianchi"])
        #expect(NameList("Rossi;Pia\nBianchi\tLuca\n\"Conti\",\"Ana\"").names == ["Rossi Pia", "Bianchi Luca", "Conti Ana"])
        #expect(NameList.username(for: "José Núñez") == "jose.nunez")
        #expect(NameList.username(for: "Zoë O'Brien-Smith") == "zoe.o.brien.smith")
        // Any script in Latin letters (ICU's Any-Latin): whose account it is shows in the username.
        #expect(NameList.username(for: "やまだ はなこ") == "yamada.hanako")
        #expect(NameList.username(for: "สมชาย ใจดี") == "smchay.cidi")
        #expect(NameList.username(for: "Пётр Чайковский") == "petr.cajkovskij")
        #expect(NameList.username(for: "山田 太郎") != "student")
        #expect(NameList.username(for: "☺ ☺") == "student", "a name with no letters at all")
    }
}
