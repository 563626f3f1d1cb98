import Foundation
import HTTPServer

/// Answers visitors on the event loop with the page kept for them, when the version it was
/// rendered from is known current without asking the database (`SharedVersions`): the cost of
/// a catalogue page for a visitor is then about that of a static file. Anything else — a
/// session cookie, a version not remembered, a page not kept, a bad parameter — goes to a
/// worker and the gate as usual.
struct VisitorCopies: Sendable {
    let pages: PageRenderer
    let cache: PageCache
    let versions: SharedVersions
    let sessionCookie: String

    /// What a route's visitor page is kept under: the page's key (without the locale) and the
    /// keys of the versions it was rendered from (`SharedVersions`; the page's version is the
    /// latest of them); nil when the request is not one a kept page can answer.
    typealias Describe = (Request) -> (page: String, versions: [String])?

    /// The kept page `describe` names, or nil for the gate and a worker to answer.
    func answer(_ request: Request, _ describe: Describe) -> Response? {
        // A signed-in reader (or one who may be) is for the gate to resolve.
        guard request.cookie(sessionCookie) == nil, let wanted = describe(request) else { return nil }
        let locale = LocaleNegotiation.choose(userSetting: nil, headers: request.headers, available: pages.templates.locales)
        guard let version = versions.remembered(wanted.versions),
              let kept = cache.current(key: "\(wanted.page)|\(locale)", version: version, now: pages.clock(),
                                       gzipped: Gzip.isAccepted(by: request.headers["Accept-Encoding"])) else { return nil }
        var response = Response.html(kept.bytes)
        // The copy is the one for the reader's language (their cookie, else Accept-Language).
        response.headers.add("Vary", "Accept-Encoding, Accept-Language, Cookie")
        if kept.isGzip { response.headers.add("Content-Encoding", "gzip") }
        return response
    }
}
