/// gzip for the pages handlers make, when the client accepts it: HTML, JSON and CSV bodies of
/// a kilobyte or more that are not encoded already. `Vary: Accept-Encoding` goes on every
/// such response, compressed or not, so a shared cache keeps the two apart.
enum ResponseCompression {
    /// Bodies smaller than this gain less than the gzip header and the time cost.
    static let smallest = 1024

    static func apply(_ response: inout Response, acceptEncoding: String?) {
        guard case .bytes(let body) = response.body, body.count >= smallest,
              !response.headers.contains("Content-Encoding"), isCompressible(response.headers["Content-Type"]) else { return }
        if let vary = response.headers["Vary"] {
            if !vary.lowercased().contains("accept-encoding") { response.headers.set("Vary", vary + ", Accept-Encoding") }
        } else {
            response.headers.add("Vary", "Accept-Encoding")
        }
        guard StaticFiles.acceptsGzip(acceptEncoding), let compressed = Gzip.compress(body, level: Gzip.dynamicLevel),
              compressed.count < body.count else { return }
        response.headers.add("Content-Encoding", "gzip")
        response.body = .bytes(compressed)
    }

    static func isCompressible(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        return contentType.hasPrefix("text/html") || contentType.hasPrefix("application/json") || contentType.hasPrefix("text/csv")
            || contentType.hasPrefix("text/plain")
    }
}
