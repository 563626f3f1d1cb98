import Foundation
import HTTPServer

/// `/privacy`: what the portal stores, why and for how long, its cookies (functional only, so
/// there is no consent banner), and how to take one's data or erase it — in the reader's
/// language, with this installation's own retention and whether it keeps e-mail addresses.
struct PrivacyNotice: Sendable {
    let pages: PageRenderer
    let retentionDays: Int
    let mailEnabled: Bool

    struct Page: Encodable {
        var retentionDays: String
        var mailEnabled: Bool
    }

    func show(_ request: PortalRequest) throws -> Response {
        try pages.privatePage("privacy", Page(retentionDays: String(retentionDays), mailEnabled: mailEnabled), request)
    }
}
