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
        let form = try request.form(AccountForm.self)
        let accommodation: Accommodation
        do {
            accommodation = try Accommodation(FormReader(fields: form.fields))
        } catch {
            return try accountsPage(request, user, problem: pages.message(error.key, locale: locale), status: .unprocessableContent)
        }
        guard try request.database.transaction({ try SchoolStore().setAccommodation(student: id, accommodation, $0) }) else {
            throw PageRefusal(.notFound, "school.not_found")
        }
        return .redirect(to: form.backToSearch + "&changed=" + LocalPath.escaped(String(form.username.prefix(40))))
    }

    /// What an account's row on the admin's list sends: the role and status chosen, the account's
    /// username and what the row showed, and the search it was listed by (to go back to).
    struct AccountForm: PostedForm {
        let fields: FormFields
        let role: Role?
        /// `active` or `disabled`; nil for anything else.
        let status: String?
        let username: String
        /// The status the row showed (a disabled account asks nothing more to stay so).
        let was: String
        let confirmed: Bool
        let search: String
        let filterRole: Role?

        init(_ form: FormReader) throws(PageRefusal) {
            fields = form.fields
            role = Role(rawValue: form.text("role"))
            status = ["active", "disabled"].contains(form.text("status")) ? form.text("status") : nil
            (username, was, confirmed) = (form.quoted("username", length: 80), form.text("was"), form.text("confirm") == "1")
            (search, filterRole) = (form.quoted("q", length: 100), Role(rawValue: form.text("filter_role")))
        }

        /// The same search the form was sent from.
        var backToSearch: String {
            "/admin/users?q=" + LocalPath.escaped(search) + (filterRole.map { "&role=" + $0.rawValue } ?? "")
        }
    }

    /// Changes one account's role and whether it is disabled, then back to the same search.
    func changeAccount(_ request: PortalRequest, _ user: SessionUser, account id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let form = try request.form(AccountForm.self)
        guard let role = form.role, let status = form.status else { throw PageRefusal(.badRequest, "admin.bad_account_change") }
        if id == user.userID {
            return try accountsPage(request, user, problem: pages.message("admin.not_yourself", locale: locale), status: .unprocessableContent)
        }
        // Disabling signs someone out everywhere: asked first, on a page of its own (a form that
        // did not say the account was already disabled is asked too).
        if status == "disabled", form.was != "disabled", !form.confirmed {
            let page = DisablingPage(
                id: id.lowercasedText, username: form.username, role: role.rawValue, query: form.search, filterRole: form.filterRole?.rawValue ?? "",
                back: form.backToSearch, csrfToken: user.csrfToken)
            return try pages.privatePage("admin/disable", page, request)
        }
        let directory = AccountDirectory()
        let outcome = try request.database.transaction { try directory.set(userID: id, role: role, disabled: status == "disabled", $0) }
        switch outcome {
        case .unknownAccount: throw PageRefusal(.notFound, "school.not_found")
        case .refused: return try accountsPage(request, user, problem: pages.message("admin.not_yourself", locale: locale), status: .unprocessableContent)
        case .changed(let username):
            // Back to the same search, saying whose account changed.
            return .redirect(to: form.backToSearch + "&changed=" + LocalPath.escaped(username))
        }
    }
}
