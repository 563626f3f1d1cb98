import Foundation
import HTTPServer

/// An exam's address in the catalogue: `/exams/{region}/{slug}`.
struct ExamAddress: Sendable, Hashable {
    var region: String
    var slug: String
}

/// Every address the portal answers, parsed once from the method and path, its parameters
/// typed: a malformed UUID or a missing segment never reaches a handler (it is a 404 before).
/// `Route.Name` lists them with their patterns and the group that says who may enter;
/// `RouteHandlers.respond` dispatches them in one exhaustive `switch`.
enum Route: Sendable, Hashable {
    // Infrastructure: served without the gate (no cookies, no database but `/readyz`'s ping).
    case health, metrics, ready
    // The catalogue.
    case home, exam(ExamAddress), leaderboard(ExamAddress), offlineManifest, privacy, design, designTokens
    // How many questions a practice the student builds would hold (the exam page's script asks).
    case practiceCount(ExamAddress)
    // The same bytes for everyone.
    case offlineStudy, ltiKeys
    // LTI, posted from an LMS's page.
    case ltiLogin, ltiLoginPosted, ltiLaunch, ltiContinue(token: String), deepLink(token: String), deepLinkChosen(token: String)
    case contentImage(file: String)
    case startSession
    // Accounts and single sign-on.
    case loginForm, login, registerForm, register, logout, forgot, resetForm, resetPassword
    // E-mail (only when the portal sends mail): recovery by a link, an address proved by one.
    case forgotByMail, resetLinkForm(token: String), resetByLink(token: String), verifyEmailForm(token: String), verifyEmail(token: String)
    case signOnStart(provider: String), signOnCallback(provider: String), signOnFinish(provider: String)
    // Studying (guests too: each finds only the caller's own session).
    case question(session: UUID), answer(session: UUID), flag(session: UUID), finishForm(session: UUID), finish(session: UUID)
    case results(session: UUID)
    // Live events, taking part.
    case livePlay(code: String), liveJoin(code: String), liveAnswer(code: String), liveEvents(code: String)
    // Classes and share links anyone may open.
    case joinForm, joinPage(code: String), sharePage(token: String)
    case deviceMe, language(code: String)
    // Addresses whose secret token is the proof.
    case calendarFeed(file: String), unsubscribeForm(token: String), unsubscribe(token: String)
    // A signed-in account's own pages.
    case settings, saveSettings, saveRetention, saveLanguage, saveAppearance, changePassword, endOtherSessions, endSession(UUID), signOnUnlink, dataDownload
    case requestEmail, removeEmail, deleteAccountForm, deleteAccount
    case rhythm, saveRhythm, addHoliday, removeHoliday(UUID), startCalendarFeed, endCalendarFeed, saveReminders, endPush
    case dashboard, review, reportQuestion(UUID), examDate(ExamAddress)
    case joinClass(code: String), myClasses, leaveClass(UUID), startShared(token: String)
    // The device API.
    case bundle(region: String, file: String), changes(ExamAddress), schedule(ExamAddress), uploadProgress, pushKey, pushSubscribe
    // Teaching.
    case newLiveEvent, createLiveEvent, hostLive(code: String), startLive(code: String), liveScreen(code: String)
    case teach, createClass, classPage(UUID), classExport(UUID), roster(UUID), classAccountsForm(UUID), makeClassAccounts(UUID), classAccountCards(class: UUID, batch: UUID)
    case savePublicBoards(UUID)
    case confirmRemoval(class: UUID, student: UUID), removeMember(class: UUID, student: UUID), setAccommodation(class: UUID, student: UUID)
    case askStudentReset(class: UUID, student: UUID), issueStudentReset(class: UUID, student: UUID)
    case createLink, confirmRevoke(UUID), revokeLink(UUID)
    // The admin area.
    case adminOverview, importForm, importDocument
    case exportJSON(ExamAddress), exportMoodle(ExamAddress), exportQTI3(ExamAddress), exportQTI21(ExamAddress)
    case adminReports, resolveReport(UUID), audit, ltiAdmin, addPlatform, signOnAdmin, saveProvider
    case users, changeAccount(UUID), changeAccommodation(UUID), askAccountReset(UUID), issueAccountReset(UUID)
    case askAccountDeletion(UUID), deleteAccountByAdmin(UUID)
    case questionList, newQuestion, createQuestion, adminQuestion(UUID), editQuestion(UUID), saveQuestion(UUID)

    /// A route without its parameters: what a pattern names. `allCases` is every address the
    /// portal has, so a test can visit each one.
    enum Name: String, Sendable, CaseIterable {
        case health, metrics, ready
        case home, exam, leaderboard, offlineManifest, privacy, design, designTokens
        case practiceCount
        case offlineStudy, ltiKeys
        case ltiLogin, ltiLoginPosted, ltiLaunch, ltiContinue, deepLink, deepLinkChosen
        case contentImage
        case startSession
        case loginForm, login, registerForm, register, logout, forgot, resetForm, resetPassword
        case forgotByMail, resetLinkForm, resetByLink, verifyEmailForm, verifyEmail
        case signOnStart, signOnCallback, signOnFinish
        case question, answer, flag, finishForm, finish, results
        case livePlay, liveJoin, liveAnswer, liveEvents
        case joinForm, joinPage, sharePage
        case deviceMe, language
        case settings, saveSettings, saveRetention, saveLanguage, saveAppearance, changePassword, endOtherSessions, endSession, signOnUnlink, dataDownload
        case requestEmail, removeEmail, deleteAccountForm, deleteAccount
        case rhythm, saveRhythm, addHoliday, removeHoliday, startCalendarFeed, endCalendarFeed, saveReminders, endPush
        case calendarFeed, unsubscribeForm, unsubscribe
        case dashboard, review, reportQuestion, examDate
        case joinClass, myClasses, leaveClass, startShared
        case bundle, changes, schedule, uploadProgress, pushKey, pushSubscribe
        case newLiveEvent, createLiveEvent, hostLive, startLive, liveScreen
        case teach, createClass, classPage, classExport, roster, classAccountsForm, makeClassAccounts, classAccountCards, savePublicBoards
        case confirmRemoval, removeMember, setAccommodation
        case askStudentReset, issueStudentReset
        case createLink, confirmRevoke, revokeLink
        case adminOverview, importForm, importDocument
        case exportJSON, exportMoodle, exportQTI3, exportQTI21
        case adminReports, resolveReport, audit, ltiAdmin, addPlatform, signOnAdmin, saveProvider
        case users, changeAccount, changeAccommodation, askAccountReset, issueAccountReset
        case askAccountDeletion, deleteAccountByAdmin
        case questionList, newQuestion, createQuestion, adminQuestion, editQuestion, saveQuestion

        /// The route's method, pattern (`:name`, `:name(uuid)` for a UUID) and group.
        var declaration: RouteDeclaration {
            switch self {
            case .health: RouteDeclaration(.GET, "/healthz", .infrastructure)
            case .metrics: RouteDeclaration(.GET, "/metrics", .monitoring)
            case .ready: RouteDeclaration(.GET, "/readyz", .infrastructure)
            case .home: RouteDeclaration(.GET, "/", .catalogue)
            case .privacy: RouteDeclaration(.GET, "/privacy", .catalogue)
            case .design: RouteDeclaration(.GET, "/design", .catalogue)
            case .designTokens: RouteDeclaration(.GET, "/design/tokens.css", .catalogue)
            case .exam: RouteDeclaration(.GET, "/exams/:region/:exam", .catalogue)
            case .leaderboard: RouteDeclaration(.GET, "/exams/:region/:exam/leaderboard", .catalogue)
            case .practiceCount: RouteDeclaration(.GET, "/exams/:region/:exam/practice-count", .visitors)
            case .offlineManifest: RouteDeclaration(.GET, "/offline/manifest.json", .catalogue)
            case .offlineStudy: RouteDeclaration(.GET, "/offline/study", .sameForEveryone)
            case .ltiKeys: RouteDeclaration(.GET, "/lti/jwks.json", .sameForEveryone)
            case .ltiLogin: RouteDeclaration(.GET, "/lti/login", .fromOtherSites)
            case .ltiLoginPosted: RouteDeclaration(.POST, "/lti/login", .fromOtherSites)
            case .ltiLaunch: RouteDeclaration(.POST, "/lti/launch", .fromOtherSites)
            case .ltiContinue: RouteDeclaration(.GET, "/lti/continue/:token", .fromOtherSites)
            case .deepLink: RouteDeclaration(.GET, "/lti/deep-link/:token", .fromOtherSites)
            case .deepLinkChosen: RouteDeclaration(.POST, "/lti/deep-link/:token", .fromOtherSites)
            case .contentImage: RouteDeclaration(.GET, "/content-images/:file", .pictures)
            case .startSession: RouteDeclaration(.POST, "/sessions", .startFromCachedPage)
            case .loginForm: RouteDeclaration(.GET, "/login", .visitors)
            case .login: RouteDeclaration(.POST, "/login", .visitors)
            case .registerForm: RouteDeclaration(.GET, "/register", .visitors)
            case .register: RouteDeclaration(.POST, "/register", .visitors)
            case .logout: RouteDeclaration(.POST, "/logout", .visitors)
            case .forgot: RouteDeclaration(.GET, "/forgot", .visitors)
            case .resetForm: RouteDeclaration(.GET, "/reset", .visitors)
            case .resetPassword: RouteDeclaration(.POST, "/reset", .visitors)
            case .forgotByMail: RouteDeclaration(.POST, "/forgot", .visitors)
            case .resetLinkForm: RouteDeclaration(.GET, "/reset/:token", .visitors)
            case .resetByLink: RouteDeclaration(.POST, "/reset/:token", .visitors)
            case .verifyEmailForm: RouteDeclaration(.GET, "/verify-email/:token", .visitors)
            case .verifyEmail: RouteDeclaration(.POST, "/verify-email/:token", .visitors)
            case .signOnStart: RouteDeclaration(.GET, "/auth/:provider", .visitors)
            case .signOnCallback: RouteDeclaration(.GET, "/auth/:provider/callback", .visitors)
            case .signOnFinish: RouteDeclaration(.GET, "/auth/:provider/finish", .visitors)
            case .question: RouteDeclaration(.GET, "/sessions/:id(uuid)", .visitors)
            case .answer: RouteDeclaration(.POST, "/sessions/:id(uuid)/answers", .visitors)
            case .flag: RouteDeclaration(.POST, "/sessions/:id(uuid)/flags", .visitors)
            case .finishForm: RouteDeclaration(.GET, "/sessions/:id(uuid)/finish", .visitors)
            case .finish: RouteDeclaration(.POST, "/sessions/:id(uuid)/finish", .visitors)
            case .results: RouteDeclaration(.GET, "/sessions/:id(uuid)/results", .visitors)
            case .livePlay: RouteDeclaration(.GET, "/live/:code", .visitors)
            case .liveJoin: RouteDeclaration(.POST, "/live/:code/join", .visitors)
            case .liveAnswer: RouteDeclaration(.POST, "/live/:code/answers", .visitors)
            case .liveEvents: RouteDeclaration(.GET, "/live/:code/events", .visitors)
            case .joinForm: RouteDeclaration(.GET, "/join", .visitors)
            case .joinPage: RouteDeclaration(.GET, "/join/:code", .visitors)
            case .sharePage: RouteDeclaration(.GET, "/s/:token", .visitors)
            case .deviceMe: RouteDeclaration(.GET, "/api/me", .visitors)
            case .language: RouteDeclaration(.GET, "/language/:code", .visitors)
            case .settings: RouteDeclaration(.GET, "/me/settings", .members)
            case .saveSettings: RouteDeclaration(.POST, "/me/settings", .members)
            case .requestEmail: RouteDeclaration(.POST, "/me/email", .members)
            case .removeEmail: RouteDeclaration(.POST, "/me/email/remove", .members)
            case .deleteAccountForm: RouteDeclaration(.GET, "/me/delete", .members)
            case .deleteAccount: RouteDeclaration(.POST, "/me/delete", .members)
            case .saveRetention: RouteDeclaration(.POST, "/me/retention", .members)
            case .rhythm: RouteDeclaration(.GET, "/me/rhythm", .members)
            case .saveRhythm: RouteDeclaration(.POST, "/me/rhythm", .members)
            case .addHoliday: RouteDeclaration(.POST, "/me/holidays", .members)
            case .removeHoliday: RouteDeclaration(.POST, "/me/holidays/:id(uuid)/remove", .members)
            case .startCalendarFeed: RouteDeclaration(.POST, "/me/calendar", .members)
            case .endCalendarFeed: RouteDeclaration(.POST, "/me/calendar/end", .members)
            case .saveReminders: RouteDeclaration(.POST, "/me/reminders", .members)
            case .endPush: RouteDeclaration(.POST, "/me/push/end", .members)
            case .pushKey: RouteDeclaration(.GET, "/api/push/key", .device)
            case .pushSubscribe: RouteDeclaration(.POST, "/api/push/subscriptions", .device, bodyLimit: PushPages.bodyLimit)
            case .calendarFeed: RouteDeclaration(.GET, "/calendar/:file", .byToken)
            case .unsubscribeForm: RouteDeclaration(.GET, "/unsubscribe/:token", .byToken)
            case .unsubscribe: RouteDeclaration(.POST, "/unsubscribe/:token", .byToken)
            case .saveLanguage: RouteDeclaration(.POST, "/me/language", .members)
            case .saveAppearance: RouteDeclaration(.POST, "/me/appearance", .members)
            case .changePassword: RouteDeclaration(.POST, "/me/password", .members)
            case .endOtherSessions: RouteDeclaration(.POST, "/me/sessions/end-others", .members)
            case .endSession: RouteDeclaration(.POST, "/me/sessions/:id(uuid)/end", .members)
            case .signOnUnlink: RouteDeclaration(.POST, "/me/sso/unlink", .members)
            case .dataDownload: RouteDeclaration(.GET, "/me/data.zip", .members)
            case .dashboard: RouteDeclaration(.GET, "/me", .members)
            case .review: RouteDeclaration(.GET, "/me/review", .members)
            case .reportQuestion: RouteDeclaration(.POST, "/questions/:id(uuid)/reports", .members)
            case .examDate: RouteDeclaration(.POST, "/exams/:region/:exam/date", .members)
            case .joinClass: RouteDeclaration(.POST, "/join/:code", .members)
            case .myClasses: RouteDeclaration(.GET, "/me/classes", .members)
            case .leaveClass: RouteDeclaration(.POST, "/me/classes/:id(uuid)/leave", .members)
            case .startShared: RouteDeclaration(.POST, "/s/:token/start", .members)
            case .bundle: RouteDeclaration(.GET, "/offline/exams/:region/:file", .deviceDownloads)
            case .changes: RouteDeclaration(.GET, "/api/exams/:region/:exam/changes", .deviceDownloads)
            case .schedule: RouteDeclaration(.GET, "/api/exams/:region/:exam/schedule", .device)
            case .uploadProgress: RouteDeclaration(.POST, "/api/progress", .device, bodyLimit: ProgressUpload.bodyLimit)
            case .newLiveEvent: RouteDeclaration(.GET, "/live/new", .teachers)
            case .createLiveEvent: RouteDeclaration(.POST, "/live", .teachers)
            case .hostLive: RouteDeclaration(.GET, "/live/:code/host", .teachers)
            case .startLive: RouteDeclaration(.POST, "/live/:code/start", .teachers)
            case .liveScreen: RouteDeclaration(.GET, "/live/:code/screen", .teachers)
            case .teach: RouteDeclaration(.GET, "/teach", .teachers)
            case .createClass: RouteDeclaration(.POST, "/teach/classes", .teachers)
            case .classPage: RouteDeclaration(.GET, "/teach/classes/:id(uuid)", .teachers)
            case .classExport: RouteDeclaration(.GET, "/teach/classes/:id(uuid)/export.csv", .teachers)
            case .roster: RouteDeclaration(.GET, "/teach/classes/:id(uuid)/roster", .teachers)
            case .classAccountsForm: RouteDeclaration(.GET, "/teach/classes/:id(uuid)/accounts", .teachers)
            case .savePublicBoards: RouteDeclaration(.POST, "/teach/classes/:id(uuid)/boards", .teachers)
            case .makeClassAccounts: RouteDeclaration(.POST, "/teach/classes/:id(uuid)/accounts", .teachers)
            case .classAccountCards: RouteDeclaration(.GET, "/teach/classes/:id(uuid)/accounts/:batch(uuid)", .teachers)
            case .confirmRemoval: RouteDeclaration(.GET, "/teach/classes/:id(uuid)/members/:user(uuid)/remove", .teachers)
            case .removeMember: RouteDeclaration(.POST, "/teach/classes/:id(uuid)/members/:user(uuid)/remove", .teachers)
            case .setAccommodation: RouteDeclaration(.POST, "/teach/classes/:id(uuid)/members/:user(uuid)/accommodation", .teachers)
            case .askStudentReset: RouteDeclaration(.GET, "/teach/classes/:id(uuid)/members/:user(uuid)/reset", .teachers)
            case .issueStudentReset: RouteDeclaration(.POST, "/teach/classes/:id(uuid)/members/:user(uuid)/reset", .teachers)
            case .createLink: RouteDeclaration(.POST, "/teach/links", .teachers)
            case .confirmRevoke: RouteDeclaration(.GET, "/teach/links/:id(uuid)/revoke", .teachers)
            case .revokeLink: RouteDeclaration(.POST, "/teach/links/:id(uuid)/revoke", .teachers)
            case .adminOverview: RouteDeclaration(.GET, "/admin", .admins)
            case .importForm: RouteDeclaration(.GET, "/admin/import", .admins)
            case .importDocument: RouteDeclaration(.POST, "/admin/import", .admins, bodyLimit: AdminPages.importLimit)
            case .exportJSON: RouteDeclaration(.GET, "/admin/exams/:region/:exam/export.json", .admins)
            case .exportMoodle: RouteDeclaration(.GET, "/admin/exams/:region/:exam/export.moodle.xml", .admins)
            case .exportQTI3: RouteDeclaration(.GET, "/admin/exams/:region/:exam/export.qti.zip", .admins)
            case .exportQTI21: RouteDeclaration(.GET, "/admin/exams/:region/:exam/export.qti21.zip", .admins)
            case .adminReports: RouteDeclaration(.GET, "/admin/reports", .admins)
            case .resolveReport: RouteDeclaration(.POST, "/admin/reports/:id(uuid)", .admins)
            case .audit: RouteDeclaration(.GET, "/admin/audit", .admins)
            case .ltiAdmin: RouteDeclaration(.GET, "/admin/lti", .admins)
            case .addPlatform: RouteDeclaration(.POST, "/admin/lti/platforms", .admins)
            case .signOnAdmin: RouteDeclaration(.GET, "/admin/sso", .admins)
            case .saveProvider: RouteDeclaration(.POST, "/admin/sso/providers", .admins)
            case .users: RouteDeclaration(.GET, "/admin/users", .admins)
            case .changeAccount: RouteDeclaration(.POST, "/admin/users/:id(uuid)", .admins)
            case .changeAccommodation: RouteDeclaration(.POST, "/admin/users/:id(uuid)/accommodation", .admins)
            case .askAccountReset: RouteDeclaration(.GET, "/admin/users/:id(uuid)/reset", .admins)
            case .issueAccountReset: RouteDeclaration(.POST, "/admin/users/:id(uuid)/reset", .admins)
            case .askAccountDeletion: RouteDeclaration(.GET, "/admin/users/:id(uuid)/delete", .admins)
            case .deleteAccountByAdmin: RouteDeclaration(.POST, "/admin/users/:id(uuid)/delete", .admins)
            case .questionList: RouteDeclaration(.GET, "/admin/questions", .admins)
            case .newQuestion: RouteDeclaration(.GET, "/admin/questions/new", .admins)
            case .createQuestion: RouteDeclaration(.POST, "/admin/questions/new", .admins, bodyLimit: AdminPages.editorLimit)
            case .adminQuestion: RouteDeclaration(.GET, "/admin/questions/:id(uuid)", .admins)
            case .editQuestion: RouteDeclaration(.GET, "/admin/questions/:id(uuid)/edit", .admins)
            case .saveQuestion: RouteDeclaration(.POST, "/admin/questions/:id(uuid)/edit", .admins, bodyLimit: AdminPages.editorLimit)
            }
        }
    }

    /// The route a matched pattern names, its parameters typed; nil when one is not of its
    /// type (the router matched the pattern, so a missing one cannot happen).
    init?(_ name: Name, _ parameters: RouteParameters) {
        let p = parameters
        switch name {
        case .health: self = .health
        case .metrics: self = .metrics
        case .ready: self = .ready
        case .home: self = .home
        case .privacy: self = .privacy
        case .design: self = .design
        case .designTokens: self = .designTokens
        case .exam: self = .exam(p.exam)
        case .leaderboard: self = .leaderboard(p.exam)
        case .practiceCount: self = .practiceCount(p.exam)
        case .offlineManifest: self = .offlineManifest
        case .offlineStudy: self = .offlineStudy
        case .ltiKeys: self = .ltiKeys
        case .ltiLogin: self = .ltiLogin
        case .ltiLoginPosted: self = .ltiLoginPosted
        case .ltiLaunch: self = .ltiLaunch
        case .ltiContinue: self = .ltiContinue(token: p["token"])
        case .deepLink: self = .deepLink(token: p["token"])
        case .deepLinkChosen: self = .deepLinkChosen(token: p["token"])
        case .contentImage: self = .contentImage(file: p["file"])
        case .startSession: self = .startSession
        case .loginForm: self = .loginForm
        case .login: self = .login
        case .registerForm: self = .registerForm
        case .register: self = .register
        case .logout: self = .logout
        case .forgot: self = .forgot
        case .resetForm: self = .resetForm
        case .resetPassword: self = .resetPassword
        case .forgotByMail: self = .forgotByMail
        case .resetLinkForm: self = .resetLinkForm(token: p["token"])
        case .resetByLink: self = .resetByLink(token: p["token"])
        case .verifyEmailForm: self = .verifyEmailForm(token: p["token"])
        case .verifyEmail: self = .verifyEmail(token: p["token"])
        case .signOnStart: self = .signOnStart(provider: p["provider"])
        case .signOnCallback: self = .signOnCallback(provider: p["provider"])
        case .signOnFinish: self = .signOnFinish(provider: p["provider"])
        case .question: guard let id = p.id else { return nil }; self = .question(session: id)
        case .answer: guard let id = p.id else { return nil }; self = .answer(session: id)
        case .flag: guard let id = p.id else { return nil }; self = .flag(session: id)
        case .finishForm: guard let id = p.id else { return nil }; self = .finishForm(session: id)
        case .finish: guard let id = p.id else { return nil }; self = .finish(session: id)
        case .results: guard let id = p.id else { return nil }; self = .results(session: id)
        case .livePlay: self = .livePlay(code: p["code"])
        case .liveJoin: self = .liveJoin(code: p["code"])
        case .liveAnswer: self = .liveAnswer(code: p["code"])
        case .liveEvents: self = .liveEvents(code: p["code"])
        case .joinForm: self = .joinForm
        case .joinPage: self = .joinPage(code: p["code"])
        case .sharePage: self = .sharePage(token: p["token"])
        case .deviceMe: self = .deviceMe
        case .language: self = .language(code: p["code"])
        case .settings: self = .settings
        case .requestEmail: self = .requestEmail
        case .removeEmail: self = .removeEmail
        case .deleteAccountForm: self = .deleteAccountForm
        case .deleteAccount: self = .deleteAccount
        case .saveSettings: self = .saveSettings
        case .saveRetention: self = .saveRetention
        case .rhythm: self = .rhythm
        case .saveRhythm: self = .saveRhythm
        case .addHoliday: self = .addHoliday
        case .removeHoliday: guard let id = p.id else { return nil }; self = .removeHoliday(id)
        case .startCalendarFeed: self = .startCalendarFeed
        case .endCalendarFeed: self = .endCalendarFeed
        case .saveReminders: self = .saveReminders
        case .endPush: self = .endPush
        case .pushKey: self = .pushKey
        case .pushSubscribe: self = .pushSubscribe
        case .calendarFeed: self = .calendarFeed(file: p["file"])
        case .unsubscribeForm: self = .unsubscribeForm(token: p["token"])
        case .unsubscribe: self = .unsubscribe(token: p["token"])
        case .saveLanguage: self = .saveLanguage
        case .saveAppearance: self = .saveAppearance
        case .changePassword: self = .changePassword
        case .endOtherSessions: self = .endOtherSessions
        case .endSession: guard let id = p.id else { return nil }; self = .endSession(id)
        case .signOnUnlink: self = .signOnUnlink
        case .dataDownload: self = .dataDownload
        case .dashboard: self = .dashboard
        case .review: self = .review
        case .reportQuestion: guard let id = p.id else { return nil }; self = .reportQuestion(id)
        case .examDate: self = .examDate(p.exam)
        case .joinClass: self = .joinClass(code: p["code"])
        case .myClasses: self = .myClasses
        case .leaveClass: guard let id = p.id else { return nil }; self = .leaveClass(id)
        case .startShared: self = .startShared(token: p["token"])
        case .bundle: self = .bundle(region: p["region"], file: p["file"])
        case .changes: self = .changes(p.exam)
        case .schedule: self = .schedule(p.exam)
        case .uploadProgress: self = .uploadProgress
        case .newLiveEvent: self = .newLiveEvent
        case .createLiveEvent: self = .createLiveEvent
        case .hostLive: self = .hostLive(code: p["code"])
        case .startLive: self = .startLive(code: p["code"])
        case .liveScreen: self = .liveScreen(code: p["code"])
        case .teach: self = .teach
        case .createClass: self = .createClass
        case .classPage: guard let id = p.id else { return nil }; self = .classPage(id)
        case .classExport: guard let id = p.id else { return nil }; self = .classExport(id)
        case .roster: guard let id = p.id else { return nil }; self = .roster(id)
        case .classAccountsForm: guard let id = p.id else { return nil }; self = .classAccountsForm(id)
        case .makeClassAccounts: guard let id = p.id else { return nil }; self = .makeClassAccounts(id)
        case .classAccountCards: guard let id = p.id, let batch = p.batch else { return nil }; self = .classAccountCards(class: id, batch: batch)
        case .savePublicBoards: guard let id = p.id else { return nil }; self = .savePublicBoards(id)
        case .confirmRemoval: guard let id = p.id, let user = p.user else { return nil }; self = .confirmRemoval(class: id, student: user)
        case .removeMember: guard let id = p.id, let user = p.user else { return nil }; self = .removeMember(class: id, student: user)
        case .setAccommodation: guard let id = p.id, let user = p.user else { return nil }; self = .setAccommodation(class: id, student: user)
        case .askStudentReset: guard let id = p.id, let user = p.user else { return nil }; self = .askStudentReset(class: id, student: user)
        case .issueStudentReset: guard let id = p.id, let user = p.user else { return nil }; self = .issueStudentReset(class: id, student: user)
        case .createLink: self = .createLink
        case .confirmRevoke: guard let id = p.id else { return nil }; self = .confirmRevoke(id)
        case .revokeLink: guard let id = p.id else { return nil }; self = .revokeLink(id)
        case .adminOverview: self = .adminOverview
        case .importForm: self = .importForm
        case .importDocument: self = .importDocument
        case .exportJSON: self = .exportJSON(p.exam)
        case .exportMoodle: self = .exportMoodle(p.exam)
        case .exportQTI3: self = .exportQTI3(p.exam)
        case .exportQTI21: self = .exportQTI21(p.exam)
        case .adminReports: self = .adminReports
        case .resolveReport: guard let id = p.id else { return nil }; self = .resolveReport(id)
        case .audit: self = .audit
        case .ltiAdmin: self = .ltiAdmin
        case .addPlatform: self = .addPlatform
        case .signOnAdmin: self = .signOnAdmin
        case .saveProvider: self = .saveProvider
        case .users: self = .users
        case .changeAccount: guard let id = p.id else { return nil }; self = .changeAccount(id)
        case .changeAccommodation: guard let id = p.id else { return nil }; self = .changeAccommodation(id)
        case .askAccountReset: guard let id = p.id else { return nil }; self = .askAccountReset(id)
        case .issueAccountReset: guard let id = p.id else { return nil }; self = .issueAccountReset(id)
        case .askAccountDeletion: guard let id = p.id else { return nil }; self = .askAccountDeletion(id)
        case .deleteAccountByAdmin: guard let id = p.id else { return nil }; self = .deleteAccountByAdmin(id)
        case .questionList: self = .questionList
        case .newQuestion: self = .newQuestion
        case .createQuestion: self = .createQuestion
        case .adminQuestion: guard let id = p.id else { return nil }; self = .adminQuestion(id)
        case .editQuestion: guard let id = p.id else { return nil }; self = .editQuestion(id)
        case .saveQuestion: guard let id = p.id else { return nil }; self = .saveQuestion(id)
        }
    }
}

/// A route's method, pattern and group, as `Route.Name.declaration` gives them.
struct RouteDeclaration: Sendable {
    var method: HTTPMethod
    var pattern: String
    var group: RouteGroup
    /// A request body limit above the server's default: the group's rule is checked from the
    /// head alone before such a body is read.
    var bodyLimit: Int?

    init(_ method: HTTPMethod, _ pattern: String, _ group: RouteGroup, bodyLimit: Int? = nil) {
        self.method = method
        self.pattern = pattern
        self.group = group
        self.bodyLimit = bodyLimit
    }
}

/// A matched pattern's parameters, percent-decoded, read by the name the pattern gives them.
struct RouteParameters: Sendable {
    let values: [String: String]

    /// A text parameter the pattern names (the router matched only non-empty ones).
    subscript(name: String) -> String { values[name] ?? "" }
    /// `:id(uuid)`.
    var id: UUID? { values["id"].flatMap(UUID.init(text:)) }
    /// `:user(uuid)`.
    var user: UUID? { values["user"].flatMap(UUID.init(text:)) }
    /// `:batch(uuid)`.
    var batch: UUID? { values["batch"].flatMap(UUID.init(text:)) }
    /// `:region/:exam`.
    var exam: ExamAddress { ExamAddress(region: self["region"], slug: self["exam"]) }
}
