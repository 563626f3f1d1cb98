import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode

/// A teacher makes a class's accounts in a minute: paste the names (or rows of a spreadsheet),
/// and the database makes each a student account — no e-mail, no password yet, a username of
/// its own — in the class, with a start code. The codes are printed once, on a sheet of cards
/// (name, username, code, QR code to the filled-in form); at the first sign-in the student
/// chooses a password with the code, as a reset does (`PasswordRecovery`).
struct ClassAccounts: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    let site: SiteAddress

    /// How long a start code lasts (the database says so too).
    static let startCodeDays = 14

    struct FormPage: Encodable {
        var className: String
        var classHref: String
        var action: String
        var csrfToken: String
        var names = ""
        var error: String?
        var limit = ClassAccountStore.batchLimit
    }

    struct CardsPage: Encodable {
        struct Card: Encodable {
            var name: String
            var username: String
            var code: String
            var qrCode: String
        }
        var className: String
        var classHref: String
        var count: Int
        var until: String
        var address: String
        var cards: [Card]
    }

    /// `GET /teach/classes/{id}/accounts`.
    func form(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        try pages.privatePage("teach/accounts", try formPage(request, user, id), request)
    }

    private func formPage(_ request: PortalRequest, _ user: SessionUser, _ id: UUID) throws -> FormPage {
        guard let summary = try request.database.run({ try SchoolStore().taughtClass(id: id, $0) }) else {
            throw HTTPError(.notFound, pages.message("school.not_found", for: request))
        }
        let href = "/teach/classes/\(id.lowercasedText)"
        return FormPage(className: summary.name, classHref: href, action: href + "/accounts", csrfToken: user.csrfToken)
    }

    /// `POST /teach/classes/{id}/accounts`: the accounts, and their cards to print.
    func make(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        var page = try formPage(request, user, id)
        page.names = String((FormFields(body: request.body)["names"] ?? "").prefix(20_000))
        let names = NameList(page.names).names
        if names.isEmpty {
            page.error = pages.message("school.accounts_none", for: request)
        } else if names.count > ClassAccountStore.batchLimit {
            page.error = pages.message("school.accounts_too_many", for: request, ["count": String(names.count), "limit": String(ClassAccountStore.batchLimit)])
        } else if let long = names.first(where: { $0.count > 80 }) {
            page.error = pages.message("school.accounts_name_too_long", for: request, ["name": String(long.prefix(40)) + "…"])
        }
        if page.error != nil { return try pages.privatePage("teach/accounts", page, request, status: .unprocessableContent) }
        let codes = names.map { _ in ResetCode.random() }
        let people = zip(names, codes).map { NewClassAccount(name: $0, username: NameList.username(for: $0), codeHash: $1.hash) }
        let made: [MadeAccount]
        do {
            made = try request.database.transaction { try ClassAccountStore().make(classID: id, people, $0) }
        } catch ClassAccountRefusal.notYourClass {
            throw HTTPError(.notFound, pages.message("school.not_found", for: request))
        } catch ClassAccountRefusal.dailyLimit {
            page.error = pages.message("school.accounts_daily_limit", for: request)
            return try pages.privatePage("teach/accounts", page, request, status: .tooManyRequests)
        }
        let address = site.url("/reset", for: request.head, peer: request.http.remoteAddress)
        let locale = pages.locale(for: request)
        let until = clock().addingTimeInterval(Double(Self.startCodeDays) * 86_400)
        let cards = zip(made, codes).map { account, code in
            CardsPage.Card(
                name: account.displayName, username: account.username, code: code.grouped,
                qrCode: QRCode(text: code.formURL(address: address, username: account.username, first: true))?
                    .svg(label: pages.message("account.reset_qr_alt", for: request, ["name": account.displayName])) ?? "")
        }
        let value = CardsPage(
            className: page.className, classHref: page.classHref, count: made.count,
            until: LocalDates.dateTime(until, locale: locale, zone: TimeZone(identifier: user.timeZone) ?? .gmt), address: address, cards: cards)
        return try pages.privatePage("teach/cards", value, request)
    }

    /// `POST /teach/classes/{id}/boards`: whether the accounts the teacher made for the class
    /// may appear on public leaderboards (each student still chooses for themselves).
    func savePublicBoards(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let allowed = FormFields(body: request.body)["public_boards"] == "on"
        guard try request.database.transaction({ try ClassAccountStore().setPublicBoards(classID: id, allowed: allowed, $0) }) else {
            throw HTTPError(.notFound, pages.message("school.not_found", for: request))
        }
        return .redirect(to: "/teach/classes/\(id.lowercasedText)#boards")
    }
}
