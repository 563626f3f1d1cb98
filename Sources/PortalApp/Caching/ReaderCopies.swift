import ExamData
import Foundation
import HTTPServer

/// Answers a signed-in reader on the event loop with their own kept page, when who they are
/// (`ViewerCache`) and every version the page was kept by (`SharedVersions`, `ReaderVersions`)
/// are known without the database: what the route's handler would answer, without handing the
/// request to a worker. Anything else — a reader not remembered, a version not remembered, a
/// page not kept — goes to a worker and the gate as usual.
struct ReaderCopies: Sendable {
    let pages: PageRenderer
    let viewers: ViewerCache
    let versions: SharedVersions
    let readers: ReaderVersions
    let classes: ClassVersions
    let sessionCookie: String
    let clock: @Sendable () -> Date
    /// Development: say "no database" as the gate would (`X-Database-Round-Trips`).
    let countsRoundTrips: Bool

    /// The versions a kept page may need, each nil when not remembered.
    struct Known {
        let versions: SharedVersions
        let readers: ReaderVersions
        let classes: ClassVersions
        let user: SessionUser

        /// The catalogue's version, if remembered.
        var catalogue: Date? { versions.remembered([SharedVersions.contentKey("catalogue")]) }
        /// The reader's data version, if remembered.
        var dataVersion: Int64? { readers.remembered(user.userID) }
    }

    /// The kept page's key (as its handler gives it to `keptForReader`), or nil when the request
    /// is not one a kept page can answer or a version is not known.
    typealias Describe = (Request, Known) -> String?

    /// The reader's kept page `describe` names, or nil for the gate and a worker to answer.
    func answer(_ request: Request, _ describe: Describe) -> Response? {
        answerWith(request) { request, known, locale in
            guard let key = describe(request, known) else { return nil }
            return pages.keptCopy(known.user, locale: locale, key: key, gzip: Gzip.isAccepted(by: request.headers["Accept-Encoding"]))?.response
        }
    }

    /// A page made from what is kept for the reader (`known`, in their language), or nil.
    typealias Answer = (Request, Known, _ locale: String) -> Response?

    /// Like `answer`, for a page that is more than a kept copy (one with holes for each showing).
    func answerWith(_ request: Request, _ answer: Answer) -> Response? {
        guard let token = request.cookie(sessionCookie), let user = viewers.user(token: token, now: clock()) else { return nil }
        let locale = LocaleNegotiation.choose(userSetting: user.locale, headers: request.headers, available: pages.templates.locales)
        guard var response = answer(request, Known(versions: versions, readers: readers, classes: classes, user: user), locale) else { return nil }
        if countsRoundTrips { response.headers.set("X-Database-Round-Trips", "0") }
        return response
    }
}
