import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// Forms that make something are made at most once per showing: each carries a one-time token
/// (`form_token`, new each time the form is shown) that the database claims in the same
/// transaction as the making (`FormSendStore`). The same token sent again — a reload of the POST's
/// answer, back and forward, a double tap, a phone restoring its tab — leads to what the first
/// send made and makes nothing more; a failed making releases the token with its transaction.
/// A form on a page kept for many showings is known by what it says instead (`sendByContent`).
/// `SentTwiceTests` sends every page's unsafe form again to hold it.
enum SentOnce {
    /// The form field that carries the token.
    static let field = "form_token"

    /// A token for a form being shown.
    static func newToken() -> String { Crypto.token(bytes: 24) }

    /// What a send came to: where what was made is, and whether this send made it (what is
    /// shown once — a code, a link's address — is shown by that send alone).
    struct Sent {
        var location: String?
        var madeNow: Bool
    }

    /// Claims the form's token and runs `make` (which returns the path of what it made) in one
    /// transaction; a refusal `make` throws undoes the claim too. Says where what was made is —
    /// by this send, or by the first send of the same form — or nil when the form carried no
    /// token or another sender's: nothing made, and the caller shows the form again.
    static func send(_ request: PortalRequest, form: FormFields, _ make: (PostgresConnection) throws -> String) throws -> Sent? {
        try send(request, token: form[field], make)
    }

    /// `send` for a form whose only field this needs is its token (a button's form).
    static func send(_ request: PortalRequest, _ make: (PostgresConnection) throws -> String) throws -> Sent? {
        try send(request, form: request.formFields, make)
    }

    /// `send` for a form read another way (a multipart upload): `token` is its `form_token`.
    static func send(_ request: PortalRequest, token: String?, _ make: (PostgresConnection) throws -> String) throws -> Sent? {
        guard let token, (20...100).contains(token.utf8.count) else { return nil }
        return try claimed(token, freshFor: nil, request, make)
    }

    /// For a form on a page kept for many showings, which cannot carry a token of its own: the
    /// send is known by what it says — its sender, its address and its fields — and the same
    /// send within `freshFor` seconds of the first leads to what the first made (after that, the
    /// same fields make something new). `stillStands` says whether what the first send made is
    /// still what this send asks for (a session nobody has answered yet); when it is not, the
    /// send makes anew. Nil when the sender is nobody (no account, no guest cookie): nothing made.
    static func sendByContent(
        _ request: PortalRequest, form: FormFields, freshFor: Double,
        stillStands: (String, PostgresConnection) throws -> Bool = { _, _ in true }, _ make: (PostgresConnection) throws -> String
    ) throws -> Sent? {
        guard let sender = request.user.map({ "account:" + $0.userID.lowercasedText }) ?? request.database.guestToken.map({ "guest:" + $0 }) else {
            return nil
        }
        let fields = form.filter { $0.name != field && $0.name != "csrf_token" }.map { $0.name + "=" + $0.value }.sorted()
        let content = ([sender, request.head.path] + fields).joined(separator: "\u{0}")
        let key = "content:" + Crypto.sha256(Array(content.utf8)).map { String(format: "%02x", $0) }.joined()
        return try claimed(key, freshFor: freshFor, request, stillStands: stillStands, make)
    }

    private static func claimed(
        _ token: String, freshFor: Double?, _ request: PortalRequest,
        stillStands: (String, PostgresConnection) throws -> Bool = { _, _ in true }, _ make: (PostgresConnection) throws -> String
    ) throws -> Sent? {
        try request.database.transaction { connection in
            var claim = try FormSendStore().begin(token: token, freshFor: freshFor, connection)
            if case .sentBefore(let location?) = claim, try !stillStands(location, connection) {
                claim = try FormSendStore().begin(token: token, freshFor: 0, connection)
            }
            switch claim {
            case .foreign:
                return nil
            case .sentBefore(let location):
                return Sent(location: location, madeNow: false)
            case .first:
                let location = try make(connection)
                try FormSendStore().done(token: token, location: location, connection)
                return Sent(location: location, madeNow: true)
            }
        }
    }
}
