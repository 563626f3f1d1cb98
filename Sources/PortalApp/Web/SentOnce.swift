import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// Forms that make something are made at most once per showing: each carries a one-time token
/// (`form_token`, new each time the form is shown) that the database claims in the same
/// transaction as the making (`FormSendStore`). The same token sent again — a reload of the POST's
/// answer, back and forward, a double tap, a phone restoring its tab — leads to what the first
/// send made and makes nothing more; a failed making releases the token with its transaction.
enum SentOnce {
    /// The form field that carries the token.
    static let field = "form_token"

    /// A token for a form being shown.
    static func newToken() -> String { Crypto.token(bytes: 24) }

    /// Claims the form's token and runs `make` (which returns the path of what it made) in one
    /// transaction; a refusal `make` throws undoes the claim too. Returns where what was made is
    /// — by this send, or by the first send of the same form — or nil when the form carried no
    /// token or another sender's: nothing made, and the caller shows the form again.
    static func send(_ request: PortalRequest, form: FormFields, _ make: (PostgresConnection) throws -> String) throws -> String? {
        guard let token = form[field], (20...100).contains(token.utf8.count) else { return nil }
        return try request.database.transaction { connection in
            switch try FormSendStore().begin(token: token, connection) {
            case .foreign:
                return nil
            case .sentBefore(let location):
                return location
            case .first:
                let location = try make(connection)
                try FormSendStore().done(token: token, location: location, connection)
                return location
            }
        }
    }
}
