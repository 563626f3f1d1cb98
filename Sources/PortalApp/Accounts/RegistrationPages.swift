import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine

/// Registering an account: the form refused field by field, limited per address.
extension AccountPages {
    func register(_ request: PortalRequest) throws -> Response {
        let form = FormFields(body: request.body)
        var page = FormPage(
            username: (form["username"] ?? "").trimmingCharacters(in: .whitespaces),
            displayName: (form["display_name"] ?? "").trimmingCharacters(in: .whitespaces), next: safeNext(form["next"]))
        let password = form["password"] ?? ""
        // The zone the form sent: the browser's, or the one chosen; the database keeps it only if it knows it.
        let timeZone = String(TimeZoneChoices.resolve(form["time_zone"] ?? "").prefix(64))
        page.timeZoneGroups = TimeZoneChoices.groups(selected: timeZone.isEmpty ? TimeZoneChoices.likeliest(for: pages.locale(for: request)) : timeZone)
        if page.username.count < 3 || page.username.count > 40 || page.username.contains(where: { $0.isWhitespace || "/@:<>\"'".contains($0) }) {
            page.fieldErrors["username"] = pages.message("account.username_invalid", for: request)
        }
        if page.displayName.isEmpty || page.displayName.count > 80 {
            page.fieldErrors["display_name"] = pages.message("account.display_name_invalid", for: request)
        }
        if let problem = PasswordPolicy.problem(password, username: page.username) {
            page.fieldErrors["password"] = pages.message(problem, for: request)
        } else if password != (form["password_confirmation"] ?? "") {
            page.fieldErrors["password_confirmation"] = pages.message("account.password_mismatch", for: request)
        }
        guard page.fieldErrors.isEmpty else { return try show("accounts/register", request, page, status: .unprocessableContent) }
        // Counted before the hash: a flood of sign-ups cannot crowd out everyone's sign-ins.
        let wait = try request.database.run {
            try AccountStore().rateLimit("register", key: request.clientAddress, limit: registrationsPerHour, window: 3600, take: true, $0)
        }
        if wait > 0 {
            page.error = pages.message("account.register_throttled", for: request, ["minutes": String((wait + 59) / 60)])
            return tooMany(try show("accounts/register", request, page, status: .tooManyRequests), wait: wait)
        }
        guard let hash = try hashing.run({ Crypto.hashPassword(password) }) else {
            throw HTTPError(.internalServerError, "The password could not be hashed.")
        }
        let token = Crypto.token()
        guard try request.database.run({
            try AccountStore().register(
                username: page.username, displayName: page.displayName, passwordHash: hash, token: token, csrfToken: Crypto.token(),
                userAgent: request.headers["User-Agent"] ?? "", timeZone: timeZone, $0)
        }) != nil else {
            page.fieldErrors["username"] = pages.message("account.username_taken", for: request)
            return try show("accounts/register", request, page, status: .unprocessableContent)
        }
        var response = Response.redirect(to: page.next)
        try signedIn(token: token, request, &response)
        return response
    }
}
