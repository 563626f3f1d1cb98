import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// `/admin`: the content dashboard, for admins only. Everyone else gets the ordinary 404 on
/// every URL under it, so the area is not even confirmed to exist. Every change is written to
/// the audit log in the same transaction as the change itself. Each job has a file of its own:
/// `AdminOverview`, `AdminQuestionList`, `AdminQuestionEditor`, `AdminImport`, `AdminExports`,
/// `AdminReports` and `AdminAudit`.
struct AdminPages: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    /// Where the site's own pictures are, for the exports that carry their pictures.
    let publicDirectory: String
    /// This site's addresses (the LTI page shows the tool's endpoints).
    let site: SiteAddress
    /// Outbound requests (an identity provider's discovery document).
    let outbound: HTTPClient
    /// The portal sends mail: the overview says how the outbox stands.
    var mailEnabled = false

    /// Imports up to 20 MiB (a whole exam of thousands of questions), plus the form around it.
    static let importLimit = 21 * 1024 * 1024
    /// The editor's form: its texts and one picture or recording being added.
    static let editorLimit = ContentImage.maximumMediaBytes + 512 * 1024
}
