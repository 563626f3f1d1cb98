import ExamData
import Foundation
import HTTPServer
import Interop

/// The pictures and recordings stored with content, at `/content-images/{sha256}.{extension}`. The
/// name is the bytes' digest, so a picture never changes at its address: browsers and the
/// offline cache keep it for good, and a request that names one it has answers 304.
struct ContentImageFiles: Sendable {
    let pages: PageRenderer

    func image(_ request: PortalRequest, file name: String) throws -> Response {
        let notFound = PageRefusal(.notFound, "error.nothing_here")
        guard let digest = ContentImage.digest(inFileName: name) else { throw notFound }
        let etag = "\"\(digest)\""
        var headers: HTTPHeaders = ["Cache-Control": "public, max-age=31536000, immutable", "ETag": etag]
        if let match = request.headers["If-None-Match"], StaticFiles.matches(match, etag: etag) {
            return Response(status: .notModified, headers: headers, body: .bytes([]))
        }
        // The extension is part of the address: another extension is another (missing) file.
        guard let image = try request.database.run({ try ContentImageStore().image(digest: digest, $0) }), image.path.hasSuffix("/" + name) else {
            throw notFound
        }
        headers.add("Content-Type", image.mediaType)
        // An SVG opened on its own may carry script: it runs nowhere, in a sandbox of its own.
        headers.add("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
        guard image.isRecording else { return Response(status: .ok, headers: headers, body: .bytes([UInt8](image.data))) }
        // A recording is played, and a player seeks in it by ranges.
        headers.add("Accept-Ranges", "bytes")
        let bytes = [UInt8](image.data)
        switch ByteRange.answer(request.headers["Range"], length: bytes.count) {
        case .whole: return Response(status: .ok, headers: headers, body: .bytes(bytes))
        case .part(let range):
            headers.add("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(bytes.count)")
            return Response(status: .partialContent, headers: headers, body: .bytes(Array(bytes[range])))
        case .unsatisfiable:
            headers.add("Content-Range", "bytes */\(bytes.count)")
            return Response(status: .rangeNotSatisfiable, headers: headers, body: .bytes([]))
        }
    }
}
