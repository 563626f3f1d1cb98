import HTTPServer

/// What a handler refuses, said once: its status and the catalogue's key for the sentence
/// (with its arguments). The gate words it in the reader's language and shows it on a page
/// with their own header, so no handler builds the text of a refusal.
///
///     guard let session else { throw PageRefusal(.notFound, "sessions.not_found") }
struct PageRefusal: Error {
    let status: HTTPStatus
    let key: String
    let arguments: [String: String]

    init(_ status: HTTPStatus, _ key: String, _ arguments: [String: String] = [:]) {
        (self.status, self.key, self.arguments) = (status, key, arguments)
    }

    /// The refusal in the reader's words.
    func worded(by pages: PageRenderer, for request: PortalRequest) -> HTTPError {
        HTTPError(status, pages.message(key, for: request, arguments))
    }
}
