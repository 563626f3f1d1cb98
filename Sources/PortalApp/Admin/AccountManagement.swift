import ExamData
import Foundation
import HTTPServer
import Identifiers

/// `/admin/users`: finding accounts, making someone a teacher or an admin, disabling and
/// enabling accounts. The database checks the caller and audits each change; disabling ends
/// the account's sessions on every instance at once.
extension AdminPages {
    /// Accounts listed on one page at most.
    static let accountsShown = 50

    struct AccountsPage: Encodable {
        struct Choice: Encodable {
            var value: String
            var label: String
            var selected: Bool
        }

        struct Account: Encodable {
            var id: String
            var username: String
            var displayName: String
            var roleLabel: String
            var joined: String
            var disabled: Bool
            var isYou: Bool
            var roles: [Choice]
            /// Extra time for mock exams, and the form's choices.
            var accommodation: AccommodationForm
        }

        var query: String
        var roles: [Choice]
        var accounts: [Account]
        var hasAccounts: Bool
        var total: Int
        var more: Bool
        var selectedRole: String
        var changed: String?
        var problem: String?
    }

    func accounts(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try accountsPage(request, user)
    }

    private func accountsPage(_ request: PortalRequest, _ user: SessionUser, problem: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        let locale = pages.locale(for: request), query = request.query
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespaces)
        let role = query["role"].flatMap(Role.init(rawValue:))
        let (accounts, total) = try request.database.transaction {
            try AccountDirectory().search(text: text.isEmpty ? nil : String(text.prefix(100)), role: role, limit: Self.accountsShown, $0)
        }
        func label(_ role: Role) -> String { pages.message("admin.role.\(role.rawValue)", locale: locale) }
        let changed = query["changed"].map { pages.message("admin.account_changed", locale: locale, ["who": String($0.prefix(40))]) }
            ?? (query["deleted"] != nil ? pages.message("admin.account_deleted", locale: locale) : nil)
        let value = AccountsPage(
            query: text,
            roles: Role.allCases.map { AccountsPage.Choice(value: $0.rawValue, label: label($0), selected: $0 == role) },
            accounts: accounts.map { account in
                AccountsPage.Account(
                    id: account.id.lowercasedText, username: account.username, displayName: account.displayName,
                    roleLabel: label(account.role), joined: pages.ago(account.createdAt, locale: locale), disabled: account.disabled,
                    isYou: account.id == user.userID,
                    roles: Role.allCases.map { AccountsPage.Choice(value: $0.rawValue, label: label($0), selected: $0 == account.role) },
                    accommodation: AccommodationForm(account.accommodation, pages: pages, locale: locale))
            },
            hasAccounts: !accounts.isEmpty, total: total, more: total > accounts.count,
            selectedRole: role?.rawValue ?? "", changed: changed, problem: problem)
        return try pages.privatePage("admin/users", value, request, status: status)
    }

    /// Sets one account's extra time for mock exams (an admin may, for anyone), then back to the
    /// same search.
    func changeAccommodation(_ request: PortalRequest, _ user: SessionUser, account id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let form = FormFields(body: request.body)
        guard let accommodation = Accommodation(form: form) else {
            return try accountsPage(request, user, problem: pages.message("school.bad_accommodation", locale: locale), status: .unprocessableContent)
        }
        guard try request.database.transaction({ try SchoolStore().setAccommodation(student: id, accommodation, $0) }) else {
            throw HTTPError(.notFound, pages.message("school.not_found", locale: locale))
        }
        return .redirect(to: backToSearch(form) + "&changed=" + LocalPath.escaped(String((form["username"] ?? "").prefix(40))))
    }

    /// The same search the form was sent from.
    private func backToSearch(_ form: FormFields) -> String {
        var back = "/admin/users?q=" + LocalPath.escaped(String((form["q"] ?? "").prefix(100)))
        if let filter = form["filter_role"].flatMap(Role.init(rawValue:)) { back += "&role=" + filter.rawValue }
        return back
    }

    /// Changes one account's role and whether it is disabled, then back to the same search.
    func changeAccount(_ request: PortalRequest, _ user: SessionUser, account id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let form = FormFields(body: request.body)
        guard let role = Role(rawValue: form["role"] ?? ""), let status = form["status"], ["active", "disabled"].contains(status) else {
            throw HTTPError(.badRequest, pages.message("admin.bad_account_change", locale: locale))
        }
        if id == user.userID {
            return try accountsPage(request, user, problem: pages.message("admin.not_yourself", locale: locale), status: .unprocessableContent)
        }
        // Disabling signs someone out everywhere: asked first, on a page of its own (a form that
        // did not say the account was already disabled is asked too).
        if status == "disabled", form["was"] != "disabled", form["confirm"] != "1" {
            let page = DisablingPage(
                id: id.lowercasedText, username: String((form["username"] ?? "").prefix(80)), role: role.rawValue,
                query: String((form["q"] ?? "").prefix(100)), filterRole: form["filter_role"].flatMap(Role.init(rawValue:))?.rawValue ?? "",
                back: backToSearch(form), csrfToken: user.csrfToken)
            return try pages.privatePage("admin/disable", page, request)
        }
        let directory = AccountDirectory()
        let outcome = try request.database.transaction { try directory.set(userID: id, role: role, disabled: status == "disabled", $0) }
        switch outcome {
        case .unknownAccount: throw HTTPError(.notFound, pages.message("school.not_found", locale: locale))
        case .refused: return try accountsPage(request, user, problem: pages.message("admin.not_yourself", locale: locale), status: .unprocessableContent)
        case .changed(let username):
            // Back to the same search, saying whose account changed.
            return .redirect(to: backToSearch(form) + "&changed=" + LocalPath.escaped(username))
        }
    }
}
