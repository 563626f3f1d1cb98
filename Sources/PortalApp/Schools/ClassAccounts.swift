import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode

/// A teacher makes a class's accounts in a minute: paste the names (or rows of a spreadsheet),
/// and the database makes each a student account — no e-mail, no password yet, a username of
/// its own — in the class, with a start code. The batch's sheet of cards (name, username, code,
/// QR code to the filled-in form) has an address of its own, which the teacher can open again
/// for a day (the form is sent once: a reload or a second tap makes nothing more); at the first
/// sign-in the student chooses a password with the code, as a reset does (`PasswordRecovery`).
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
        var formToken = SentOnce.newToken()
        var names = ""
        var error: String?
        var limit = ClassAccountStore.batchLimit
        /// Names pasted more than once, said before anything is made ("José Núñez (2)"): the
        /// teacher confirms they are different pupils, or takes the repeats out.
        var repeated: String?
    }

    struct CardsPage: Encodable {
        struct Card: Encodable {
            var name: String
            var username: String
            var code: String?
            var qrCode: String
            var resetHref: String
        }
        var className: String
        var classHref: String
        var count: Int
        var until: String
        var shownUntil: String
        var forgotten: Bool
        var address: String
        var cards: [Card]
    }

    /// `GET /teach/classes/{id}/accounts`.
    func form(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        try pages.privatePage("teach/accounts", try formPage(request, user, id), request)
    }

    private func formPage(_ request: PortalRequest, _ user: SessionUser, _ id: UUID) throws -> FormPage {
        guard let summary = try request.database.run({ try SchoolStore().taughtClass(id: id, $0) }) else {
            throw PageRefusal(.notFound, "school.not_found")
        }
        let href = "/teach/classes/\(id.lowercasedText)"
        return FormPage(className: summary.name, classHref: href, action: href + "/accounts", csrfToken: user.csrfToken)
    }

    /// The list of pupils' names, one a line, and whether names that repeat are separate pupils.
    struct NamesForm: PostedForm {
        let fields: FormFields
        let names: String
        let repeatsAreSeparate: Bool

        init(_ form: FormReader) throws(PageRefusal) {
            (fields, names, repeatsAreSeparate) = (form.fields, form.quoted("names", length: 20_000), form.text("repeats") == "separate")
        }
    }

    /// Whether the accounts made for the class may appear on public leaderboards.
    struct PublicBoardsForm: PostedForm {
        let allowed: Bool

        init(_ form: FormReader) throws(PageRefusal) { allowed = form.isOn("public_boards") }
    }

    /// `POST /teach/classes/{id}/accounts`: makes the accounts once and answers `303` to their
    /// cards (the same send again leads to the same cards).
    func make(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        var page = try formPage(request, user, id)
        let form = try request.form(NamesForm.self)
        page.names = form.names
        let names = NameList(page.names).names
        if names.isEmpty {
            page.error = pages.message("school.accounts_none", for: request)
        } else if names.count > ClassAccountStore.batchLimit {
            page.error = pages.message("school.accounts_too_many", for: request, ["count": String(names.count), "limit": String(ClassAccountStore.batchLimit)])
        } else if let long = names.first(where: { $0.count > 80 }) {
            page.error = pages.message("school.accounts_name_too_long", for: request, ["name": String(long.prefix(40)) + "…"])
        }
        if page.error != nil { return try pages.privatePage("teach/accounts", page, request, status: .unprocessableContent) }
        let counts = Dictionary(names.map { ($0.lowercased(), 1) }, uniquingKeysWith: +)
        let repeats = names.reduce(into: [String]()) { found, name in
            if counts[name.lowercased(), default: 0] > 1 && !found.contains(where: { $0.lowercased() == name.lowercased() }) { found.append(name) }
        }
        if !repeats.isEmpty && !form.repeatsAreSeparate {
            page.repeated = repeats.map { "\($0) (\(counts[$0.lowercased()] ?? 2))" }.joined(separator: ", ")
            return try pages.privatePage("teach/accounts", page, request, status: .unprocessableContent)
        }
        let people = names.map { name in
            let code = ResetCode.random()
            return NewClassAccount(name: name, username: NameList.username(for: name), shownCode: code.grouped, codeHash: code.hash)
        }
        let location: String?
        do {
            location = try SentOnce.send(request, form: form.fields) { connection in
                let batch = try ClassAccountStore().make(classID: id, people, connection)
                return page.classHref + "/accounts/" + batch.lowercasedText
            }?.location
        } catch ClassAccountRefusal.notYourClass {
            throw PageRefusal(.notFound, "school.not_found")
        } catch ClassAccountRefusal.dailyLimit {
            page.error = pages.message("school.accounts_daily_limit", for: request)
            return try pages.privatePage("teach/accounts", page, request, status: .tooManyRequests)
        }
        if let location { return .redirect(to: location) }
        page.error = pages.message("error.form_resent", for: request)
        return try pages.privatePage("teach/accounts", page, request, status: .conflict)
    }

    /// `GET /teach/classes/{id}/accounts/{batch}`: the batch's cards, for the teacher who made
    /// them; the start codes for a day, then the accounts with a way to a new code each.
    func cards(_ request: PortalRequest, _ user: SessionUser, class id: UUID, batch: UUID) throws -> Response {
        guard let batch = try request.database.run({ try ClassAccountStore().batch(batch, $0) }), batch.classID == id else {
            throw PageRefusal(.notFound, "school.not_found")
        }
        let classHref = "/teach/classes/\(id.lowercasedText)"
        let address = site.url("/reset", for: request.head, peer: request.http.remoteAddress)
        let locale = pages.locale(for: request)
        let zone = TimeZone(identifier: user.timeZone) ?? .gmt
        let cards = batch.cards.map { card in
            let code = card.code.flatMap(ResetCode.init(typed:))
            return CardsPage.Card(
                name: card.displayName, username: card.username, code: code?.grouped,
                qrCode: code.flatMap {
                    QRCode(text: $0.formURL(address: address, username: card.username, first: true))?
                        .svg(label: pages.message("account.reset_qr_alt", for: request, ["name": card.displayName]))
                } ?? "",
                resetHref: classHref + "/members/" + card.userID.lowercasedText + "/reset")
        }
        let value = CardsPage(
            className: batch.className, classHref: classHref, count: cards.count,
            until: LocalDates.dateTime(batch.madeAt.addingTimeInterval(Double(Self.startCodeDays) * 86_400), locale: locale, zone: zone),
            shownUntil: LocalDates.dateTime(batch.madeAt.addingTimeInterval(86_400), locale: locale, zone: zone),
            forgotten: cards.allSatisfy { $0.code == nil }, address: address, cards: cards)
        return try pages.privatePage("teach/cards", value, request)
    }

    /// `POST /teach/classes/{id}/boards`: whether the accounts the teacher made for the class
    /// may appear on public leaderboards (each student still chooses for themselves).
    func savePublicBoards(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        let allowed = try request.form(PublicBoardsForm.self).allowed
        guard try request.database.transaction({ try ClassAccountStore().setPublicBoards(classID: id, allowed: allowed, $0) }) else {
            throw PageRefusal(.notFound, "school.not_found")
        }
        return .redirect(to: "/teach/classes/\(id.lowercasedText)#boards")
    }
}
