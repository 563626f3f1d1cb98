import CSystem
import Foundation

/// The files of a folder (`Public/`), read into memory once and answered from the event loop.
///
/// Each file gets its Content-Type, a strong ETag, a Cache-Control policy and, when it is text
/// and compresses well, a gzip variant made once at load. Names that carry a version
/// (`app.3f9a2c1d.js`, `exam.17.json`) are immutable for a year; `sw.js` is `no-cache` so a new
/// service worker is always found; everything else is revalidated with its ETag.
public struct StaticFiles: Sendable {
    /// One representation ready to send.
    struct Representation: Sendable {
        var body: [UInt8]
        var etag: String
        /// A large body is also kept in an in-memory file so the loop can `sendfile` it
        /// without copying it through user space on every request.
        var memoryFile: MemoryFile?

        init(body: [UInt8], etag: String) {
            self.body = body
            self.etag = etag
            if body.count >= StaticFiles.sendfileThreshold {
                memoryFile = MemoryFile(body)
            }
        }
    }

    /// Bodies at least this large are sent with `sendfile`.
    static let sendfileThreshold = 64 * 1024

    struct File: Sendable {
        var contentType: String
        var cacheControl: String
        var identity: Representation
        var gzip: Representation?
    }

    private var files: [String: File] = [:]

    /// An empty set (no static files).
    public init() {}

    /// Loads every file below `directory`, served at `/` + its relative path.
    public init(directory: String) throws {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return }
        while let relative = enumerator.nextObject() as? String {
            let full = root + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: full)))
            add(path: "/" + relative, bytes: bytes)
        }
    }

    /// Adds one file from memory.
    public mutating func add(path: String, bytes: [UInt8], contentType: String? = nil) {
        let type = contentType ?? Self.contentType(for: path)
        let fingerprint = Self.fingerprint(bytes)
        let identity = Representation(body: bytes, etag: "\"\(fingerprint)\"")
        var gzip: Representation?
        if Self.isCompressible(type), bytes.count >= 256, let compressed = Gzip.compress(bytes), compressed.count < bytes.count * 9 / 10 {
            gzip = Representation(body: compressed, etag: "\"\(fingerprint)-gz\"")
        }
        files[path] = File(contentType: type, cacheControl: Self.cacheControl(for: path), identity: identity, gzip: gzip)
    }

    /// The number of files loaded.
    public var count: Int { files.count }

    /// Whether a file is served at this raw request path.
    func file(at path: String) -> File? { files[path] }

    /// Answers a GET or HEAD for `path`, or nil when no file is there.
    public func response(for head: RequestHead) -> Response? {
        lookup(head)?.response
    }

    /// The response and, for a large body, the in-memory file to send it from.
    func lookup(_ head: RequestHead) -> (response: Response, memoryFile: MemoryFile?)? {
        guard let file = files[head.path] else { return nil }
        var representation = file.identity
        var headers: HTTPHeaders = ["Content-Type": file.contentType, "Cache-Control": file.cacheControl]
        if let gzip = file.gzip {
            headers.add("Vary", "Accept-Encoding")
            if Self.acceptsGzip(head.headers["Accept-Encoding"]) {
                representation = gzip
                headers.add("Content-Encoding", "gzip")
            }
        }
        headers.add("ETag", representation.etag)
        if let match = head.headers["If-None-Match"], Self.matches(match, etag: representation.etag) {
            return (Response(status: .notModified, headers: headers, body: .bytes([])), nil)
        }
        return (Response(status: .ok, headers: headers, body: .bytes(representation.body)), representation.memoryFile)
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`), by weak comparison.
    public static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        if ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingSpaces
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }  // weak comparison, as If-None-Match uses
            return tag == etag
        }
    }

    /// Whether `Accept-Encoding` allows gzip (present with a q-value above zero).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let coding = parts.first?.trimmingSpaces, coding.equalsIgnoringASCIICase("gzip") || coding == "*" else { continue }
            if let q = parts.dropFirst().first(where: { $0.trimmingSpaces.hasPrefix("q=") }),
               let value = Double(q.trimmingSpaces.dropFirst(2)), value <= 0 { return false }
            return true
        }
        return false
    }

    static func contentType(for path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "txt": return "text/plain; charset=utf-8"
        case "xml": return "application/xml"
        default: return "application/octet-stream"
        }
    }

    static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/json") || contentType.hasPrefix("image/svg")
            || contentType.hasPrefix("application/manifest") || contentType.hasPrefix("application/xml")
    }

    static func cacheControl(for path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        if name == "sw.js" { return "no-cache" }
        // A versioned name has a middle part of 6+ hex digits or all digits: app.3f9a2c1d.js
        let pieces = name.split(separator: ".")
        if pieces.count >= 3, pieces.dropFirst().dropLast().contains(where: { piece in
            (piece.count >= 6 && piece.allSatisfy(\.isHexDigit)) || piece.allSatisfy(\.isNumber)
        }) {
            return "public, max-age=31536000, immutable"
        }
        return "no-cache"
    }

    /// 64-bit FNV-1a of the content, with its length: different bytes get a different tag.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        // Over the buffer itself: a debug build's iterator took seconds for a file of megabytes.
        let hash = bytes.withUnsafeBufferPointer { buffer in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for index in 0..<buffer.count {
                hash ^= UInt64(buffer[index])
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        return String(hash, radix: 16) + "-" + String(bytes.count, radix: 16)
    }
}

/// An anonymous in-memory file (memfd) holding a static body; closed when the last copy of the
/// files set is gone.
final class MemoryFile: Sendable {
    let fd: Int32
    let length: Int

    init?(_ bytes: [UInt8]) {
        let fd = bytes.withUnsafeBytes { csystem_memory_file("static", $0.baseAddress, $0.count) }
        guard fd >= 0 else { return nil }
        self.fd = fd
        length = bytes.count
    }

    deinit { close(fd) }
}
