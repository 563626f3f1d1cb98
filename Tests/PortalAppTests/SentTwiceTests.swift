import ExamData
import Foundation
@testable import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Every form that changes something, sent twice as a browser sends it again — a reload of the
/// POST's answer, a double tap, back and send again — leaves the database as one send left it.
/// The forms are found from the routes the features declare: every route that is not a GET must
/// have a recipe saying which page's form reaches it (or why none does), or the test fails
/// naming it.
@Suite("Forms sent twice", .onTestThreads)
struct SentTwiceTests {
    /// Who sends a form.
    enum Sender { case guest, student, teacher, admin, leaver, resetter, doomed, aspirant }

    /// How a route's form is reached and what its first send must answer.
    enum Recipe {
        /// A page's form: `page` shows it, `action` is where it posts, `fill` what the sender types.
        case form(Sender, page: String, action: String, fill: [String: String] = [:], answer: Answer = .changes)
        /// No page of the portal has a form for it; the reason says what sends it.
        case noPageForm(String)
    }

    /// What the first send answers.
    enum Answer {
        /// `303` (Post/Redirect/Get) to what it made; a second send leads to the same place.
        case makes
        /// `303` (Post/Redirect/Get); a second send changes nothing more and leads somewhere
        /// (or answers a 4xx page saying the change is made already).
        case changes
        /// `200` with what is shown once — a secret the database keeps only hashed, an import's
        /// report, a goodbye; a second send leads to where what was made is listed.
        case shownOnce
    }

    /// What the sends refer to, made as the walk goes.
    final class World {
        var classID = "", joinCode = "", studentID = UUID(), leaverID = UUID(), resetterID = UUID()
        var sessionID = "", shareToken = "", linkID = "", reportID = "", holidayID = "", otherSignIn = "", liveCode = ""
        var resetCode = "", teacherRequestID = "", quiz = "", quizQuestion = "", importCheck = "", invitation = ""
        /// The question the session's page shows (its report form's address).
        var shownQuestion = ""
        /// Days a few weeks after the site's today (`YYYY-MM-DD`).
        var inThreeWeeks = "", inFourWeeks = ""
        let questionID = MiniExam.items[0].id.lowercasedText
    }

    /// The route's form, for every route that changes something (nil: no recipe, which fails).
    static func recipe(_ name: String, _ world: World) -> Recipe? {
        let exam = "/exams/\(MiniExam.region)/\(MiniExam.exam)"
        let classPage = "/teach/classes/\(world.classID)"
        switch name {
        case "ltiLoginPosted", "ltiLaunch", "deepLinkChosen":
            return .noPageForm("posted from the LMS's page with a one-time state the database spends (LTILaunchTests, LTIAttackTests)")
        case "uploadProgress", "pushSubscribe":
            return .noPageForm("the device API, sent by the page's script with ids the device makes (OfflineTests, PushReminderTests)")
        case "forgotByMail", "resetByLink", "verifyEmail", "requestEmail", "removeEmail", "unsubscribe":
            return .noPageForm("offered only when the portal sends mail; a link's token is spent by its first use (MailRecoveryTests)")
        case "saveRetention", "saveLanguage", "saveAppearance":
            return .noPageForm("an older address of a settings section, kept for a page shown before; /me/settings saves them all")
        case "signOnUnlink":
            return .noPageForm("offered only to an account signed in through a provider (SingleSignOnTests)")
        case "liveJoin", "liveAnswer":
            return .noPageForm("a live event's play page, with Redis: each name joins once and each answer counts once (LiveEventTests)")
        case "register":
            return .form(.guest, page: "/register", action: "/register", fill: [
                "username": "newcomer", "display_name": "New Comer", "password": "correct horse battery", "password_confirmation": "correct horse battery"])
        case "login":
            return .form(.guest, page: "/login", action: "/login", fill: ["username": "newcomer", "password": "correct horse battery"])
        case "logout":
            return .form(.guest, page: "/", action: "/logout")
        case "resetPassword":
            return .form(.resetter, page: "/reset", action: "/reset", fill: [
                "username": "resetter", "code": world.resetCode, "password": "another horse battery", "password_confirmation": "another horse battery"])
        case "startSession":
            return .form(.student, page: exam, action: "/sessions", answer: .makes)
        case "answer":
            return .form(.student, page: "/sessions/\(world.sessionID)", action: "/sessions/\(world.sessionID)/answers", fill: ["choice": "0"])
        case "flag":
            return .form(.student, page: "/sessions/\(world.sessionID)", action: "/sessions/\(world.sessionID)/flags")
        case "finish":
            return .form(.student, page: "/sessions/\(world.sessionID)/finish", action: "/sessions/\(world.sessionID)/finish")
        case "saveSettings":
            return .form(.student, page: "/me/settings", action: "/me/settings", fill: ["display_name": "Pat Again", "retention": "0.85"])
        case "changePassword":
            return .form(.student, page: "/me/settings", action: "/me/password", fill: [
                "current_password": "correct horse battery", "new_password": "new horse battery"])
        case "endOtherSessions":
            return .form(.student, page: "/me/settings", action: "/me/sessions/end-others")
        case "endSession":
            return .form(.student, page: "/me/settings", action: "/me/sessions/\(world.otherSignIn)/end")
        case "deleteAccount":
            // The goodbye, shown signed out; sent again, the account is gone and so is the session.
            return .form(.doomed, page: "/me/delete", action: "/me/delete", fill: ["password": "correct horse battery"], answer: .shownOnce)
        case "saveRhythm":
            return .form(.student, page: "/me/rhythm", action: "/me/rhythm")
        case "addHoliday":
            return .form(.student, page: "/me/rhythm", action: "/me/holidays", fill: ["starts_on": world.inThreeWeeks, "ends_on": world.inFourWeeks], answer: .makes)
        case "removeHoliday":
            return .form(.student, page: "/me/rhythm", action: "/me/holidays/\(world.holidayID)/remove")
        case "startCalendarFeed":
            return .form(.student, page: "/me/rhythm", action: "/me/calendar", answer: .shownOnce)
        case "endCalendarFeed":
            return .form(.student, page: "/me/rhythm", action: "/me/calendar/end")
        case "saveReminders":
            return .noPageForm("offered only when the portal sends reminders by mail (ReminderMailTests)")
        case "endPush":
            return .noPageForm("offered only to a device that subscribed to reminders (PushReminderTests)")
        case "reportQuestion":
            return .form(.student, page: "/sessions/\(world.sessionID)", action: "/questions/\(world.shownQuestion)/reports", fill: ["comment": "Two options say the same."], answer: .makes)
        case "examDate":
            return .form(.student, page: exam, action: "\(exam)/date", fill: ["sits_on": world.inFourWeeks])
        case "joinClass":
            return .form(.student, page: "/join/\(world.joinCode)", action: "/join/\(world.joinCode)")
        case "leaveClass":
            return .form(.leaver, page: "/me/classes", action: "/me/classes/\(world.classID)/leave")
        case "startShared":
            return .form(.student, page: "/s/\(world.shareToken)", action: "/s/\(world.shareToken)/start", answer: .makes)
        case "startAssignment":
            return .form(.student, page: "/me/assignments/\(world.linkID)", action: "/me/assignments/\(world.linkID)/start", answer: .makes)
        case "createLiveEvent":
            return .form(.teacher, page: "/live/new", action: "/live", fill: ["title": "Friday quiz"], answer: .makes)
        case "startLive":
            return .form(.teacher, page: "/live/\(world.liveCode)/host", action: "/live/\(world.liveCode)/start")
        case "createClass":
            return .form(.teacher, page: "/teach", action: "/teach/classes", fill: ["name": "Year 11 networking"], answer: .makes)
        case "savePublicBoards":
            return .form(.teacher, page: classPage, action: classPage + "/boards")
        case "makeClassAccounts":
            return .form(.teacher, page: classPage + "/accounts", action: classPage + "/accounts", fill: ["names": "Ana Bianchi\nJosé Núñez"], answer: .makes)
        case "removeMember":
            let member = classPage + "/members/\(world.resetterID.lowercasedText)/remove"
            return .form(.teacher, page: member, action: member)
        case "setAccommodation":
            return .form(.teacher, page: classPage + "/members/\(world.studentID.lowercasedText)",
                         action: classPage + "/members/\(world.studentID.lowercasedText)/accommodation", fill: ["extra_minutes": "15"])
        case "createQuiz":
            return .form(.teacher, page: "/teach/quizzes", action: "/teach/quizzes", fill: ["title": "Layers"], answer: .makes)
        case "renameQuiz":
            return .form(.teacher, page: world.quiz, action: world.quiz + "/title", fill: ["title": "Layers, again"])
        case "addQuizQuestion":
            return .form(.teacher, page: world.quiz + "?q=Question", action: world.quiz + "/questions")
        case "moveQuizQuestion":
            return .form(.teacher, page: world.quiz, action: world.quiz + "/questions/\(world.quizQuestion)/move", fill: ["direction": "down"])
        case "removeQuizQuestion":
            return .form(.teacher, page: world.quiz, action: world.quiz + "/questions/\(world.quizQuestion)/remove")
        case "createRegion":
            return .form(.admin, page: "/admin/exams", action: "/admin/regions", fill: ["code": "north", "name": "North"], answer: .makes)
        case "createExam":
            return .form(.admin, page: "/admin/exams", action: "/admin/exams", fill: [
                "region": "north", "slug": "lite", "title": "Lite", "language": "en", "pass_mark": "70", "time_limit": "30", "question_count": "10"], answer: .makes)
        case "saveBlueprint":
            return .form(.admin, page: "/admin/exams/north/lite", action: "/admin/exams/north/lite/blueprint", fill: [
                "slug_0": "alpha", "title_0": "Alpha", "weight_0": "100"])
        case "saveExam":
            return .form(.admin, page: "/admin/exams/north/lite", action: "/admin/exams/north/lite", fill: ["title": "Lite, again"])
        case "publishExam":
            return .form(.admin, page: "/admin/exams/north/lite", action: "/admin/exams/north/lite/publish")
        case "createInvitation":
            return .form(.admin, page: "/admin/teachers", action: "/admin/teachers/invitations", fill: ["school": "Riverside High"], answer: .shownOnce)
        case "revokeInvitation":
            return .form(.admin, page: "/admin/teachers", action: "/admin/teachers/invitations/\(world.invitation)/revoke")
        case "fileTeachingRequest":
            return .form(.aspirant, page: "/me/teaching", action: "/me/teaching", fill: ["school": "Riverside High", "note": "Networking"])
        case "decideTeacherRequest":
            return .form(.admin, page: "/admin/teachers", action: "/admin/teachers/\(world.teacherRequestID)", fill: ["decision": "approve"])
        case "issueStudentReset":
            return .form(.teacher, page: classPage + "/members/\(world.studentID.lowercasedText)/reset",
                         action: classPage + "/members/\(world.studentID.lowercasedText)/reset", answer: .shownOnce)
        case "createLink":
            return .form(.teacher, page: exam, action: "/teach/links", fill: ["title": "Homework 1", "class": world.classID], answer: .shownOnce)
        case "revokeLink":
            return .form(.teacher, page: "/teach/links/\(world.linkID)/revoke", action: "/teach/links/\(world.linkID)/revoke")
        case "importDocument":
            return .form(.admin, page: "/admin/import", action: "/admin/import", fill: [
                "document": "// GIFT\n::Ports::Which port does SSH use? {=22 ~23 ~25}\n", "into": "\(MiniExam.region)/\(MiniExam.exam)", "domain": "alpha"], answer: .makes)
        case "importChecked":
            return .form(.admin, page: world.importCheck, action: world.importCheck, fill: ["publish": "0"], answer: .makes)
        case "publishDrafts":
            return .form(.admin, page: "/admin/questions?status=draft", action: "/admin/questions/publish")
        case "resolveReport":
            return .form(.admin, page: "/admin/reports", action: "/admin/reports/\(world.reportID)", fill: ["note": "Fixed the options."])
        case "addPlatform":
            return .form(.admin, page: "/admin/lti", action: "/admin/lti/platforms", fill: [
                "issuer": "https://lms.example", "client_id": "portal", "deployments": "d1", "auth_url": "https://lms.example/auth",
                "token_url": "https://lms.example/token", "jwks_url": "https://lms.example/jwks"])
        case "saveProvider":
            return .noPageForm("its form (/admin/sso) is saved only after the provider's discovery document is fetched over HTTPS (SingleSignOnTests)")
        case "changeAccount":
            return .form(.admin, page: "/admin/users", action: "/admin/users/\(world.studentID.lowercasedText)")
        case "changeAccommodation":
            return .form(.admin, page: "/admin/users", action: "/admin/users/\(world.studentID.lowercasedText)/accommodation", fill: ["extra_minutes": "10"])
        case "issueAccountReset":
            return .form(.admin, page: "/admin/users/\(world.studentID.lowercasedText)/reset", action: "/admin/users/\(world.studentID.lowercasedText)/reset", answer: .shownOnce)
        case "deleteAccountByAdmin":
            return .form(.admin, page: "/admin/users/\(world.leaverID.lowercasedText)/delete", action: "/admin/users/\(world.leaverID.lowercasedText)/delete",
                         fill: ["confirm": "leaver"])
        case "createQuestion":
            return .form(.admin, page: "/admin/questions/new", action: "/admin/questions/new", fill: [
                "stem": "Which layer routes packets?", "opt_text_0": "Network", "opt_text_1": "Link", "opt_text_2": "Session", "opt_key_0": "on",
                "explanation": "Routing is layer 3."], answer: .makes)
        case "saveQuestion":
            return .form(.admin, page: "/admin/questions/\(world.questionID)/edit", action: "/admin/questions/\(world.questionID)/edit",
                         fill: ["explanation": "Ants are insects."])
        default:
            // A route no recipe names: the test below fails, naming it.
            return nil
        }
    }

    /// The order of the walk: what a later send needs is made by an earlier one.
    static let walk: [String] = [
        "register", "login", "logout", "createClass", "joinClass", "makeClassAccounts", "savePublicBoards", "setAccommodation", "createLink", "startShared", "startAssignment", "createQuiz", "renameQuiz", "addQuizQuestion", "moveQuizQuestion",
        "removeQuizQuestion",
        "startSession", "flag", "answer", "reportQuestion", "finish", "examDate", "saveSettings", "saveRhythm", "addHoliday", "removeHoliday",
        "startCalendarFeed", "endCalendarFeed", "endSession", "endOtherSessions", "createLiveEvent", "startLive",
        "issueStudentReset", "issueAccountReset", "resetPassword", "revokeLink", "leaveClass", "removeMember", "importDocument", "importChecked", "publishDrafts", "resolveReport",
        "addPlatform", "createRegion", "createExam", "saveBlueprint", "saveExam", "publishExam", "fileTeachingRequest", "decideTeacherRequest", "createInvitation", "revokeInvitation", "changeAccount", "changeAccommodation", "createQuestion", "saveQuestion", "deleteAccountByAdmin",
        "changePassword", "deleteAccount",
    ]

    @Test("every form that changes something, sent again as it was sent (a reload of the POST, a double tap, back and again), leaves the database as one send left it, and leads where the first led")
    func everyFormSentTwice() throws {
        let site = try PortalSite(live: true)
        let world = World()
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = .gmt
        world.inThreeWeeks = day.string(from: site.clock.read().addingTimeInterval(21 * 86_400))
        world.inFourWeeks = day.string(from: site.clock.read().addingTimeInterval(28 * 86_400))
        let unsafe = site.application.routeTable().filter { $0.method != "GET" }.map(\.name)
        // Every declared route that changes something says which page's form reaches it, or why none does.
        let unexplained = unsafe.filter { Self.recipe($0, world) == nil }
        #expect(unexplained.isEmpty, "no recipe says which page's form sends \(unexplained)")
        let forms = unsafe.filter { if case .form = Self.recipe($0, world) { return true } else { return false } }
        #expect(Set(Self.walk) == Set(forms), "the Self.walk sends every form once: missing \(Set(forms).subtracting(Self.walk)), extra \(Set(Self.walk).subtracting(forms))")

        // The people, and what their forms refer to.
        let student = site.browser()
        try student.register("pat")
        world.studentID = try site.admin { try $0.query("SELECT id FROM users WHERE username = 'pat'").single().decode("id", as: UUID.self) }
        let (teacher, _, _) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (admin, _, _) = try site.account("admin", role: "admin")
        let leaver = site.browser(), resetter = site.browser(), doomed = site.browser(), guest = site.browser(), aspirant = site.browser()
        try leaver.register("leaver")
        try aspirant.register("aspirant")
        try doomed.register("doomed")
        try site.browser().register("resetter")
        world.leaverID = try site.admin { try $0.query("SELECT id FROM users WHERE username = 'leaver'").single().decode("id", as: UUID.self) }
        world.resetterID = try site.admin { try $0.query("SELECT id FROM users WHERE username = 'resetter'").single().decode("id", as: UUID.self) }
        let other = site.browser()
        try other.login("pat")
        let browsers: [Sender: Browser] = [.guest: guest, .student: student, .teacher: teacher, .admin: admin, .leaver: leaver, .resetter: resetter, .doomed: doomed, .aspirant: aspirant]

        for name in Self.walk {
            try Self.prepare(name, world, site: site, browsers: browsers)
            guard case .form(let sender, let page, let action, let fill, let answer) = Self.recipe(name, world) else { continue }
            let browser = browsers[sender]!
            let shown = try browser.request("GET", page)
            let found = PageForm.all(in: shown.bodyText, action: action)
            guard let form = found.first else {
                Issue.record("\(name): \(page) (\(shown.status)) has no form posting to \(action)")
                continue
            }
            let sent = form.filled(fill)
            func send() throws -> RawHTTPClient.Response {
                if form.isMultipart {
                    return try browser.request("POST", action, multipart: Dictionary(sent.map { ($0.0, $0.1) }, uniquingKeysWith: { _, last in last }), files: [])
                }
                return try browser.request("POST", action, pairs: sent)
            }
            let first = try send()
            let afterOne = try Self.tables(site)
            let second = try send()
            let afterTwo = try Self.tables(site)
            let third = try send()  // back, then the same form again
            let afterThree = try Self.tables(site)
            switch answer {
            case .makes, .changes:
                #expect(first.status == 303, "\(name): the first send answers 303, not \(first.status): \(first.bodyText.prefix(300))")
            case .shownOnce:
                #expect(first.status == 200, "\(name): the first send shows what it made, not \(first.status): \(first.bodyText.prefix(300))")
            }
            for (number, again) in [(2, second), (3, third)] {
                #expect(again.status < 500, "\(name): send \(number) answers \(again.status)")
                if again.status == 303, answer == .makes, first.status == 303 {
                    #expect(again.header("Location") == first.header("Location"), "\(name): send \(number) leads elsewhere than the first")
                } else if again.status != 303 {
                    #expect((400..<500).contains(again.status) && again.bodyText.contains("<main"),
                            "\(name): send \(number) answers \(again.status) without a page saying what happened")
                }
            }
            let changed = afterOne.keys.filter { afterOne[$0] != afterTwo[$0] || afterTwo[$0] != afterThree[$0] }
            #expect(changed.isEmpty, "\(name): sent again, it changed \(changed.sorted().map { "\($0) \(afterOne[$0]!)→\(afterTwo[$0]!)→\(afterThree[$0]!)" })")
            try Self.remember(name, first, world, site: site)
        }
    }

    /// Each table's rows, counted.
    static func tables(_ site: PortalSite) throws -> [String: Int] {
        try site.admin { connection in
            let names = try connection.query("SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'").rows
                .map { try $0.decode("name", as: String.self) }
            var counts: [String: Int] = [:]
            for name in names {
                counts[name] = try connection.query(SQL(stringLiteral: "SELECT count(*) AS n FROM public.\"\(name)\"")).single().decode("n", as: Int.self)
            }
            return counts
        }
    }

    /// What a send needs made before it.
    static func prepare(_ name: String, _ world: World, site: PortalSite, browsers: [Sender: Browser]) throws {
        switch name {
        case "joinClass":
            try browsers[.leaver]!.submit("/join/\(world.joinCode)", to: "/join/\(world.joinCode)", [:])
        case "endSession":
            world.otherSignIn = try site.admin {
                try $0.query("SELECT s.id FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'pat' ORDER BY s.created_at DESC LIMIT 1")
                    .single().decode("id", as: UUID.self).lowercasedText
            }
        case "reportQuestion":
            let page = try browsers[.student]!.request("GET", "/sessions/\(world.sessionID)").bodyText
            world.shownQuestion = page.range(of: #"/questions/[0-9a-f-]{36}/reports"#, options: .regularExpression)
                .map { String(page[$0].dropFirst("/questions/".count).prefix(36)) } ?? ""
        case "removeMember":
            try browsers[.resetter]!.submit("/join/\(world.joinCode)", to: "/join/\(world.joinCode)", [:])
        case "resetPassword":
            let card = try browsers[.admin]!.submit("/admin/users/\(world.resetterID.lowercasedText)/reset",
                                                    to: "/admin/users/\(world.resetterID.lowercasedText)/reset", ["confirm": "1"]).bodyText
            world.resetCode = card.range(of: #"[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}"#, options: .regularExpression).map { String(card[$0]) } ?? ""
        default:
            break
        }
    }

    /// What a first send made, for the sends after it.
    static func remember(_ name: String, _ first: RawHTTPClient.Response, _ world: World, site: PortalSite) throws {
        let location = first.header("Location") ?? ""
        switch name {
        case "createClass":
            world.classID = String(location.split(separator: "/").last ?? "")
            world.joinCode = try site.admin { try $0.query("SELECT join_code FROM classes WHERE name = 'Year 11 networking'").single().decode("join_code", as: String.self) }
        case "createLink":
            let page = first.bodyText
            world.shareToken = page.range(of: "/s/").map { String(page[$0.upperBound...].prefix(43)) } ?? ""
            world.linkID = try site.admin { try $0.query("SELECT id FROM share_links WHERE title = 'Homework 1'").single().decode("id", as: UUID.self).lowercasedText }
        case "startSession":
            world.sessionID = String(location.split(separator: "/").last ?? "")
        case "reportQuestion":
            world.reportID = try site.admin { try $0.query("SELECT id FROM question_reports LIMIT 1").single().decode("id", as: UUID.self).lowercasedText }
        case "addHoliday":
            world.holidayID = try site.admin { try $0.query("SELECT id FROM study_holidays LIMIT 1").single().decode("id", as: UUID.self).lowercasedText }
        case "createLiveEvent":
            world.liveCode = String(location.split(separator: "/").dropLast().last ?? "")
        case "createQuiz":
            world.quiz = location
        case "createInvitation":
            world.invitation = try site.admin { try $0.query("SELECT id FROM teacher_invitations").single().decode("id", as: UUID.self).lowercasedText }
        case "importDocument":
            world.importCheck = location
        case "addQuizQuestion":
            // The question added first, and a second after it so it can move down.
            world.quizQuestion = try site.admin { try $0.query("SELECT question_id FROM quiz_questions").single().decode("question_id", as: UUID.self).lowercasedText }
            let other = MiniExam.items.first { $0.id.lowercasedText != world.quizQuestion }!.id
            try site.admin { try $0.execute("INSERT INTO quiz_questions (quiz_id, question_id, position) SELECT id, \(other), 1 FROM quizzes") }
        case "fileTeachingRequest":
            world.teacherRequestID = try site.admin { try $0.query("SELECT id FROM teacher_requests").single().decode("id", as: UUID.self).lowercasedText }
        default:
            break
        }
    }
}
