import HTTPServer

/// What a handler refuses, said once: its status and the catalogue's key for the sentence
/// (with its arguments, the count that picks its plural, and headers such as `Retry-After`).
/// The gate words it in the reader's language and shows it on a page with their own header, so
/// no handler builds the text of a refusal.
///
///     guard let session else { throw PageRefusal(.notFound, "sessions.not_found") }
struct PageRefusal: Error {
    let status: HTTPStatus
    let key: String
    let arguments: [String: String]
    let count: Double?
    let headers: HTTPHeaders

    init(_ status: HTTPStatus, _ key: String, _ arguments: [String: String] = [:], count: Double? = nil, headers: HTTPHeaders = HTTPHeaders()) {
        (self.status, self.key, self.arguments, self.count, self.headers) = (status, key, arguments, count, headers)
    }

    /// "Try again in a while": `429` with `Retry-After` (seconds).
    static func tooMany(_ key: String, _ arguments: [String: String], retryAfter seconds: Int) -> PageRefusal {
        PageRefusal(.tooManyRequests, key, arguments, headers: ["Retry-After": String(seconds)])
    }

    /// The address named an exam the catalogue does not have.
    static func noExam(region: String, slug: String) -> PageRefusal {
        PageRefusal(.notFound, "error.no_exam", ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))])
    }

    /// The refusal in the reader's words.
    func worded(by pages: PageRenderer, for request: PortalRequest) -> HTTPError {
        HTTPError(status, pages.message(key, locale: pages.locale(for: request), arguments, count: count), headers: headers)
    }
}
