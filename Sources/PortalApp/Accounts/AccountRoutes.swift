import HTTPServer

/// Accounts: signing in and out, registering, recovery (by a teacher's code, or by mail when
/// the portal sends it), an account's settings, rhythm, reminders, push, calendar feed, data
/// and deletion, single sign-on, reset codes issued by teachers and admins, and the privacy
/// notice.
struct AccountRoutes {
    let pages: PageRenderer
    let accounts: AccountPages
    let recovery: PasswordRecovery
    /// Recovery by e-mail and an account's address: nil when the portal sends no mail, and
    /// their addresses answer 404 (nothing links to them then).
    let mailRecovery: MailRecovery?
    let emailAddresses: EmailAddressPages?
    let dataDownload: DataDownload
    let deletion: AccountDeletionPages
    let privacy: PrivacyNotice
    let rhythm: StudyRhythmPages
    let calendarFeed: CalendarFeed
    let reminders: ReminderPages
    let push: PushPages
    let resetCodes: ResetCodeIssuer
    let singleSignOn: SingleSignOn

    var routes: [PortalRoute] {
        let mailRecovery = self.mailRecovery, emailAddresses = self.emailAddresses
        /// A page that needs e-mail: 404 when the portal sends none.
        @Sendable func withMail<Handler>(_ handler: Handler?, _ request: PortalRequest) throws -> Handler {
            guard let handler else { throw PageRefusal(.notFound, "account.no_mail") }
            return handler
        }
        return [
            PortalRoute("privacy", "GET /privacy", .catalogue) { request, _ in try privacy.show(request) },
            PortalRoute("loginForm", "GET /login", .visitors) { request, _ in try accounts.loginForm(request) },
            PortalRoute("login", "POST /login", .visitors) { request, _ in try accounts.login(request) },
            PortalRoute("registerForm", "GET /register", .visitors) { request, _ in try accounts.registerForm(request) },
            PortalRoute("register", "POST /register", .visitors) { request, _ in try accounts.register(request) },
            PortalRoute("logout", "POST /logout", .visitors) { request, _ in try accounts.logout(request) },
            PortalRoute("forgot", "GET /forgot", .visitors) { request, _ in try recovery.forgot(request) },
            PortalRoute("resetForm", "GET /reset", .visitors) { request, _ in try recovery.resetForm(request) },
            PortalRoute("resetPassword", "POST /reset", .visitors) { request, _ in try recovery.reset(request) },
            PortalRoute("forgotByMail", "POST /forgot", .visitors) { request, _ in try withMail(mailRecovery, request).request(request) },
            PortalRoute("resetLinkForm", "GET /reset/:token", .visitors) { request, p in
                try withMail(mailRecovery, request).linkForm(request, token: p["token"])
            },
            PortalRoute("resetByLink", "POST /reset/:token", .visitors) { request, p in
                try withMail(mailRecovery, request).reset(request, token: p["token"])
            },
            PortalRoute("verifyEmailForm", "GET /verify-email/:token", .visitors) { request, p in
                try withMail(emailAddresses, request).verifyForm(request, token: p["token"])
            },
            PortalRoute("verifyEmail", "POST /verify-email/:token", .visitors) { request, p in
                try withMail(emailAddresses, request).verify(request, token: p["token"])
            },
            PortalRoute("signOnStart", "GET /auth/:provider", .visitors) { request, p in try singleSignOn.start(request, provider: p["provider"]) },
            PortalRoute("signOnCallback", "GET /auth/:provider/callback", .visitors) { request, p in
                try singleSignOn.callback(request, provider: p["provider"])
            },
            PortalRoute("signOnFinish", "GET /auth/:provider/finish", .visitors) { request, p in try singleSignOn.finish(request, provider: p["provider"]) },
            PortalRoute("calendarFeed", "GET /calendar/:file", .byToken) { request, p in try calendarFeed.feed(request, file: p["file"]) },
            PortalRoute("unsubscribeForm", "GET /unsubscribe/:token", .byToken) { request, p in try reminders.form(request, token: p["token"]) },
            PortalRoute("unsubscribe", "POST /unsubscribe/:token", .byToken) { request, p in try reminders.unsubscribe(request, token: p["token"]) },
            // A signed-in account's own pages.
            PortalRoute("settings", "GET /me/settings", .members) { request, _ in try accounts.settingsPage(request, request.member()) },
            PortalRoute("saveSettings", "POST /me/settings", .members) { request, _ in try accounts.saveSettings(request, request.member()) },
            PortalRoute("requestEmail", "POST /me/email", .members) { request, _ in
                try withMail(emailAddresses, request).requestAddress(request, request.member())
            },
            PortalRoute("removeEmail", "POST /me/email/remove", .members) { request, _ in
                try withMail(emailAddresses, request).removeAddress(request, request.member())
            },
            PortalRoute("deleteAccountForm", "GET /me/delete", .members) { request, _ in try deletion.ownForm(request, request.member()) },
            PortalRoute("deleteAccount", "POST /me/delete", .members) { request, _ in try deletion.deleteOwn(request, request.member()) },
            PortalRoute("saveRetention", "POST /me/retention", .members) { request, _ in try accounts.saveRetention(request, request.member()) },
            PortalRoute("rhythm", "GET /me/rhythm", .members) { request, _ in try rhythm.show(request, request.member()) },
            PortalRoute("saveRhythm", "POST /me/rhythm", .members) { request, _ in try rhythm.saveWeek(request, request.member()) },
            PortalRoute("addHoliday", "POST /me/holidays", .members) { request, _ in try rhythm.addHoliday(request, request.member()) },
            PortalRoute("removeHoliday", "POST /me/holidays/:id(uuid)/remove", .members) { request, p in
                try rhythm.removeHoliday(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("startCalendarFeed", "POST /me/calendar", .members) { request, _ in try rhythm.startFeed(request, request.member()) },
            PortalRoute("endCalendarFeed", "POST /me/calendar/end", .members) { request, _ in try rhythm.endFeed(request, request.member()) },
            PortalRoute("saveReminders", "POST /me/reminders", .members) { request, _ in try reminders.save(request, request.member()) },
            PortalRoute("endPush", "POST /me/push/end", .members) { request, _ in try push.endAll(request, request.member()) },
            PortalRoute("pushKey", "GET /api/push/key", .device) { request, _ in try push.key(request) },
            PortalRoute("pushSubscribe", "POST /api/push/subscriptions", .device, bodyLimit: PushPages.bodyLimit) { request, _ in
                try push.subscribe(request, request.member())
            },
            PortalRoute("saveLanguage", "POST /me/language", .members) { request, _ in try accounts.saveLanguage(request, request.member()) },
            PortalRoute("saveAppearance", "POST /me/appearance", .members) { request, _ in try accounts.saveAppearance(request, request.member()) },
            PortalRoute("changePassword", "POST /me/password", .members) { request, _ in try accounts.changePassword(request, request.member()) },
            PortalRoute("endOtherSessions", "POST /me/sessions/end-others", .members) { request, _ in
                try accounts.endOtherSessions(request, request.member())
            },
            PortalRoute("endSession", "POST /me/sessions/:id(uuid)/end", .members) { request, p in
                try accounts.endSession(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("signOnUnlink", "POST /me/sso/unlink", .members) { request, _ in try singleSignOn.unlink(request, request.member()) },
            PortalRoute("dataDownload", "GET /me/data.zip", .members) { request, _ in try dataDownload.download(request, request.member()) },
            // Reset codes a teacher gives a pupil, or an admin any account.
            PortalRoute("askStudentReset", "GET /teach/classes/:id(uuid)/members/:user(uuid)/reset", .teachers) { request, p in
                try resetCodes.askForStudent(request, request.member(), class: p.uuid("id"), student: p.uuid("user"))
            },
            PortalRoute("issueStudentReset", "POST /teach/classes/:id(uuid)/members/:user(uuid)/reset", .teachers) { request, p in
                try resetCodes.issueForStudent(request, request.member(), class: p.uuid("id"), student: p.uuid("user"))
            },
            PortalRoute("askAccountReset", "GET /admin/users/:id(uuid)/reset", .admins) { request, p in
                try resetCodes.askForAccount(request, request.member(), account: p.uuid("id"))
            },
            PortalRoute("issueAccountReset", "POST /admin/users/:id(uuid)/reset", .admins) { request, p in
                try resetCodes.issueForAccount(request, request.member(), account: p.uuid("id"))
            },
            // An admin deleting an account.
            PortalRoute("askAccountDeletion", "GET /admin/users/:id(uuid)/delete", .admins) { request, p in
                try deletion.adminAsk(request, request.member(), id: p.uuid("id"))
            },
            PortalRoute("deleteAccountByAdmin", "POST /admin/users/:id(uuid)/delete", .admins) { request, p in
                try deletion.adminDelete(request, request.member(), id: p.uuid("id"))
            },
        ]
    }
}
