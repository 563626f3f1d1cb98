import ExamData
import Foundation
import HTTPServer

/// The portal's handlers, one per route: `respond` dispatches every `Route` in one exhaustive
/// `switch` (a new route does not compile until it is answered here), after the gate has
/// applied the rule of the route's group (`RouteGroup`). `loopAnswer` answers the few pages
/// kept in memory on the event loop, before a worker is involved.
struct RouteHandlers: Sendable {
    let infrastructure: InfrastructureRoutes
    let pages: PageRenderer
    let accounts: AccountPages
    let recovery: PasswordRecovery
    /// Recovery by e-mail and an account's address: nil when the portal sends no mail.
    let mailRecovery: MailRecovery?
    let emailAddresses: EmailAddressPages?
    let dataDownload: DataDownload
    let deletion: AccountDeletionPages
    let privacy: PrivacyNotice
    let design: DesignPage.Handlers
    let rhythm: StudyRhythmPages
    let calendarFeed: CalendarFeed
    let reminders: ReminderPages
    let push: PushPages
    let resetCodes: ResetCodeIssuer
    let singleSignOn: SingleSignOn
    let starter: SessionStart
    let sessions: SessionPages
    let reports: QuestionReports
    let examDate: ExamDateForm
    let live: LivePages
    let schools: SchoolPages
    let classAccounts: ClassAccounts
    let admin: AdminPages
    let ltiAdmin: LTIAdmin
    let signOnAdmin: SSOAdmin
    let offline: OfflinePages
    let progress: ProgressUpload
    let device: DeviceAPI
    let pictures: ContentImageFiles
    let ltiLogin: LTILogin
    let ltiLaunch: LTILaunch
    let deepLinking: LTIDeepLinking
    let roster: LTIRoster?
    let language: LanguageSwitch
    let home: @Sendable (PortalRequest) throws -> Response
    /// The exam page; with a refused exam date, shown again with the reason beside the field.
    let exam: @Sendable (PortalRequest, ExamAddress, ExamDateForm.Refusal?) throws -> Response
    let leaderboard: @Sendable (PortalRequest, ExamAddress) throws -> Response
    let dashboard: @Sendable (PortalRequest, SessionUser) throws -> Response
    let review: @Sendable (PortalRequest, SessionUser) throws -> Response
    let offlineStudy: @Sendable (PortalRequest) throws -> Response
    /// The kept pages, answered on the event loop when what they were kept by is known.
    let keeper: PageKeeper

    /// The route's answer. Member, teacher and admin routes find the user their group admitted.
    func respond(to route: Route, _ request: PortalRequest) throws -> Response {
        switch route {
        case .health, .metrics, .ready: return try infrastructure.respond(to: route, request.http)
        case .home: return try home(request)
        case .privacy: return try privacy.show(request)
        case .design: return try design.page(request)
        case .designTokens: return try design.stylesheet(request)
        case .exam(let address): return try exam(request, address, nil)
        case .leaderboard(let address): return try leaderboard(request, address)
        case .offlineManifest: return try offline.manifest(request)
        case .offlineStudy: return try offlineStudy(request)
        case .ltiKeys: return try LTIKeys().jwks(request)
        case .ltiLogin, .ltiLoginPosted: return try ltiLogin.initiate(request)
        case .ltiLaunch: return try ltiLaunch.launch(request)
        case .ltiContinue(let token): return try ltiLaunch.continueInWindow(request, token: token)
        case .deepLink(let token): return try deepLinking.choose(request, token: token)
        case .deepLinkChosen(let token): return try deepLinking.answer(request, token: token)
        case .contentImage(let file): return try pictures.image(request, file: file)
        case .startSession: return try starter.start(request)
        case .practiceCount(let address): return try starter.count(request, address)
        case .loginForm: return try accounts.loginForm(request)
        case .login: return try accounts.login(request)
        case .registerForm: return try accounts.registerForm(request)
        case .register: return try accounts.register(request)
        case .logout: return try accounts.logout(request)
        case .forgot: return try recovery.forgot(request)
        case .resetForm: return try recovery.resetForm(request)
        case .resetPassword: return try recovery.reset(request)
        case .forgotByMail: return try withMail(mailRecovery, request).request(request)
        case .resetLinkForm(let token): return try withMail(mailRecovery, request).linkForm(request, token: token)
        case .resetByLink(let token): return try withMail(mailRecovery, request).reset(request, token: token)
        case .verifyEmailForm(let token): return try withMail(emailAddresses, request).verifyForm(request, token: token)
        case .verifyEmail(let token): return try withMail(emailAddresses, request).verify(request, token: token)
        case .requestEmail: return try withMail(emailAddresses, request).requestAddress(request, user(request))
        case .removeEmail: return try withMail(emailAddresses, request).removeAddress(request, user(request))
        case .deleteAccountForm: return try deletion.ownForm(request, user(request))
        case .deleteAccount: return try deletion.deleteOwn(request, user(request))
        case .signOnStart(let provider): return try singleSignOn.start(request, provider: provider)
        case .signOnCallback(let provider): return try singleSignOn.callback(request, provider: provider)
        case .signOnFinish(let provider): return try singleSignOn.finish(request, provider: provider)
        case .question(let session): return try sessions.show(request, session: session)
        case .answer(let session): return try sessions.answer(request, session: session)
        case .flag(let session): return try sessions.flag(request, session: session)
        case .finishForm(let session): return try sessions.confirmFinish(request, session: session)
        case .finish(let session): return try sessions.finish(request, session: session)
        case .results(let session): return try sessions.results(request, session: session)
        case .livePlay(let code): return try live.explained(request) { try live.play(request, code: code) }
        case .liveJoin(let code): return try live.explained(request) { try live.join(request, code: code) }
        case .liveAnswer(let code): return try live.explained(request) { try live.answer(request, code: code) }
        case .liveEvents(let code): return try live.explained(request) { try live.events(request, code: code) }
        case .joinForm: return try schools.enterCode(request)
        case .joinPage(let code): return try schools.joinPage(request, code: code)
        case .sharePage(let token): return try schools.sharePage(request, token: token)
        case .deviceMe: return try device.me(request)
        case .language(let code): return try language.choose(request, code: code)
        case .settings: return try accounts.settingsPage(request, user(request))
        case .saveSettings: return try accounts.saveSettings(request, user(request))
        case .saveRetention: return try accounts.saveRetention(request, user(request))
        case .rhythm: return try rhythm.show(request, user(request))
        case .saveRhythm: return try rhythm.saveWeek(request, user(request))
        case .addHoliday: return try rhythm.addHoliday(request, user(request))
        case .removeHoliday(let id): return try rhythm.removeHoliday(request, user(request), id: id)
        case .startCalendarFeed: return try rhythm.startFeed(request, user(request))
        case .endCalendarFeed: return try rhythm.endFeed(request, user(request))
        case .saveReminders: return try reminders.save(request, user(request))
        case .endPush: return try push.endAll(request, user(request))
        case .pushKey: return try push.key(request)
        case .pushSubscribe: return try push.subscribe(request, user(request))
        case .calendarFeed(let file): return try calendarFeed.feed(request, file: file)
        case .unsubscribeForm(let token): return try reminders.form(request, token: token)
        case .unsubscribe(let token): return try reminders.unsubscribe(request, token: token)
        case .saveLanguage: return try accounts.saveLanguage(request, user(request))
        case .saveAppearance: return try accounts.saveAppearance(request, user(request))
        case .changePassword: return try accounts.changePassword(request, user(request))
        case .endOtherSessions: return try accounts.endOtherSessions(request, user(request))
        case .endSession(let id): return try accounts.endSession(request, user(request), id: id)
        case .signOnUnlink: return try singleSignOn.unlink(request, user(request))
        case .dataDownload: return try dataDownload.download(request, user(request))
        case .dashboard: return try dashboard(request, user(request))
        case .review: return try review(request, user(request))
        case .reportQuestion(let id): return try reports.report(request, user(request), question: id)
        case .examDate(let address):
            do {
                return try examDate.save(request, user(request), exam: address)
            } catch let refusal as ExamDateForm.Refusal {
                return try exam(request, address, refusal)
            }
        case .joinClass(let code): return try schools.join(request, user(request), code: code)
        case .myClasses: return try schools.myClasses(request, user(request))
        case .leaveClass(let id): return try schools.leave(request, user(request), class: id)
        case .startShared(let token): return try schools.startShared(request, user(request), token: token)
        case .bundle(let region, let file): return try offline.bundle(request, user(request), region: region, file: file)
        case .changes(let address): return try offline.changes(request, user(request), exam: address)
        case .schedule(let address): return try device.schedule(request, user(request), exam: address)
        case .uploadProgress: return try progress.upload(request, user(request))
        case .newLiveEvent: return try live.newEventForm(request, user(request))
        case .createLiveEvent: return try live.create(request, user(request))
        case .hostLive(let code): return try live.host(request, user(request), code: code)
        case .startLive(let code): return try live.explained(request) { try live.start(request, user(request), code: code) }
        case .liveScreen(let code): return try live.explained(request) { try live.screen(request, user(request), code: code) }
        case .teach: return try schools.teach(request, user(request))
        case .createClass: return try schools.createClass(request, user(request))
        case .classPage(let id): return try schools.classPage(request, user(request), class: id)
        case .classExport(let id): return try schools.export(request, user(request), class: id)
        case .roster(let id):
            // Rosters come from an LMS's services; without them there is no roster to show.
            guard let roster else { throw HTTPError(.notFound, pages.message("error.nothing_here", for: request)) }
            return try roster.roster(request, user(request), class: id)
        case .classAccountsForm(let id): return try classAccounts.form(request, user(request), class: id)
        case .makeClassAccounts(let id): return try classAccounts.make(request, user(request), class: id)
        case .classAccountCards(let id, let batch): return try classAccounts.cards(request, user(request), class: id, batch: batch)
        case .savePublicBoards(let id): return try classAccounts.savePublicBoards(request, user(request), class: id)
        case .confirmRemoval(let id, let student): return try schools.confirmRemoval(request, user(request), class: id, student: student)
        case .removeMember(let id, let student): return try schools.remove(request, user(request), class: id, student: student)
        case .setAccommodation(let id, let student): return try schools.setAccommodation(request, user(request), class: id, student: student)
        case .askStudentReset(let id, let student): return try resetCodes.askForStudent(request, user(request), class: id, student: student)
        case .issueStudentReset(let id, let student): return try resetCodes.issueForStudent(request, user(request), class: id, student: student)
        case .createLink: return try schools.createLink(request, user(request))
        case .confirmRevoke(let id): return try schools.confirmRevoke(request, user(request), link: id)
        case .revokeLink(let id): return try schools.revoke(request, user(request), link: id)
        case .adminOverview: return try admin.overview(request, user(request))
        case .importForm: return try admin.importForm(request, user(request))
        case .importDocument: return try admin.importDocument(request, user(request))
        case .exportJSON(let address): return try admin.export(request, user(request), exam: address)
        case .exportMoodle(let address): return try admin.exportMoodle(request, user(request), exam: address)
        case .exportQTI3(let address): return try admin.exportQTI(request, user(request), exam: address, version3: true)
        case .exportQTI21(let address): return try admin.exportQTI(request, user(request), exam: address, version3: false)
        case .adminReports: return try admin.reports(request, user(request))
        case .resolveReport(let id): return try admin.resolve(request, user(request), report: id)
        case .audit: return try admin.audit(request, user(request))
        case .ltiAdmin: return try ltiAdmin.page(request, user(request))
        case .addPlatform: return try ltiAdmin.addPlatform(request, user(request))
        case .signOnAdmin: return try signOnAdmin.page(request, user(request))
        case .saveProvider: return try signOnAdmin.save(request, user(request))
        case .users: return try admin.accounts(request, user(request))
        case .changeAccount(let id): return try admin.changeAccount(request, user(request), account: id)
        case .changeAccommodation(let id): return try admin.changeAccommodation(request, user(request), account: id)
        case .askAccountReset(let id): return try resetCodes.askForAccount(request, user(request), account: id)
        case .issueAccountReset(let id): return try resetCodes.issueForAccount(request, user(request), account: id)
        case .askAccountDeletion(let id): return try deletion.adminAsk(request, user(request), id: id)
        case .deleteAccountByAdmin(let id): return try deletion.adminDelete(request, user(request), id: id)
        case .questionList: return try admin.questionList(request, user(request))
        case .newQuestion: return try admin.editor(request, user(request), id: nil)
        case .createQuestion: return try admin.saveQuestion(request, user(request), id: nil)
        case .adminQuestion(let id): return try admin.question(request, user(request), id: id)
        case .editQuestion(let id): return try admin.editor(request, user(request), id: id)
        case .saveQuestion(let id): return try admin.saveQuestion(request, user(request), id: id)
        }
    }

    /// The pages kept in memory, answered on the event loop when what they were kept by is
    /// known current; nil (the handler runs on a worker) for every other route. A closure that
    /// holds only the keeper, the session pages and the site's address: called for every kept
    /// page, it must not copy the whole set of handlers each time.
    var loopAnswer: @Sendable (Route, Request) -> Response? {
        let handlers = LoopHandlers(keeper: keeper, sessions: sessions, site: schools.site)
        return { route, request in handlers.answer(route, request) }
    }

    /// The kept pages' declarations and the keeper, for the event loop.
    private final class LoopHandlers: Sendable {
        let keeper: PageKeeper
        let sessions: SessionPages
        let site: SiteAddress

        init(keeper: PageKeeper, sessions: SessionPages, site: SiteAddress) {
            (self.keeper, self.sessions, self.site) = (keeper, sessions, site)
        }

        func answer(_ route: Route, _ request: Request) -> Response? {
            switch route {
            case .home:
                return keeper.loopAnswer(request) { _ in HomePage.cached }
            case .exam(let address):
                return keeper.loopAnswer(request) { ExamPage.cached(request.query, address, reader: $0, guest: request.cookie(keeper.guestCookie) != nil) }
            case .leaderboard(let address):
                return keeper.loopAnswer(request) { _ in LeaderboardPage.cached(request.query, address) }
            case .question(let session):
                return sessions.questionCopy(request, session: session)
            case .results(let session):
                return keeper.loopAnswer(request) { _ in SessionPages.cachedResults(session, request.query) }
            case .dashboard:
                return keeper.loopAnswer(request) { _ in DashboardPage.cached }
            case .classPage(let id):
                // Only a teacher's class page is kept; the route admits no one else.
                return keeper.loopAnswer(request) { reader in
                    reader?.role.teaches == true ? SchoolPages.cachedClass(id, joinBase: SchoolPages.joinBase(self.site, request)) : nil
                }
            default:
                return nil
            }
        }
    }

    /// The signed-in user the route's group admitted.
    /// A page that needs e-mail: 404 when the portal sends none (nothing links to it then).
    private func withMail<Handler>(_ handler: Handler?, _ request: PortalRequest) throws -> Handler {
        guard let handler else { throw HTTPError(.notFound, pages.message("account.no_mail", for: request)) }
        return handler
    }

    private func user(_ request: PortalRequest) throws -> SessionUser {
        // The gate admits only signed-in viewers to these routes; this fails only if it was bypassed.
        guard let user = request.user else { throw HTTPError(.internalServerError, "A signed-in route ran without a user.") }
        return user
    }
}
