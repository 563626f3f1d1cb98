import ContentPackage
import Foundation

/// An image — or a recording, audio or video — that came with content (from a Moodle file, a
/// content package, the editor): kept in the database and served at
/// `/content-images/{sha256}.{extension}`, the address its questions refer to. The name is the
/// bytes' own digest, so an address always means the same picture.
/// In a format-1 document it travels as `{"path", "mediaType", "data"}` (data in base64).
public struct ContentImage: Codable, Sendable, Equatable {
    /// Where the portal serves it: `/content-images/{sha256}.{extension}`.
    public var path: String
    public var mediaType: String
    /// The bytes, base64 in JSON.
    public var data: Data

    /// The prefix of every stored image's address.
    public static let pathPrefix = "/content-images/"
    /// An image larger than this is refused (the database refuses it too).
    public static let maximumBytes = 2 * 1024 * 1024
    /// A recording larger than this is refused (the database too): a minute or two of speech,
    /// a short clip — what a question plays, not a lecture.
    public static let maximumMediaBytes = 16 * 1024 * 1024

    /// The kinds of image and recording served, by media type, with their file extension.
    public static let extensions: [String: String] = [
        "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg",
        "audio/mpeg": "mp3", "audio/ogg": "ogg", "audio/mp4": "m4a", "video/mp4": "mp4", "video/webm": "webm",
    ]

    /// Whether a media type is a recording's (shown with a player), not a picture's.
    public static func isRecording(_ mediaType: String) -> Bool { mediaType.hasPrefix("audio/") || mediaType.hasPrefix("video/") }

    /// Why a recording cannot stand where only a picture may (an option, a hotspot's image).
    static func recordingOutOfPlace(_ name: String) -> String {
        "\(name.prefix(100)) is a recording, which only a question's text may play (an option or a hotspot shows a picture)"
    }

    /// Whether the stored file is a recording (played), not a picture.
    public var isRecording: Bool { Self.isRecording(mediaType) }

    public init(path: String, mediaType: String, data: Data) {
        self.path = path
        self.mediaType = mediaType
        self.data = data
    }

    /// `bytes` as an image stored with content, or why they cannot be one.
    public init(bytes: [UInt8]) throws(ImageRefusal) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= Self.maximumMediaBytes else { throw .tooLarge(bytes.count) }
        guard let type = Self.mediaType(of: bytes), let suffix = Self.extensions[type] else { throw .notAnImage }
        if Self.isRecording(type) {
            self.init(path: Self.pathPrefix + ContentDigest.sha256(bytes) + "." + suffix, mediaType: type, data: Data(bytes))
            return
        }
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge(bytes.count) }
        switch ImageSize.of(bytes, mediaType: type) {
        case .none, .some(.none) where type != "image/svg+xml": throw .sizeUnreadable
        case .some(.some(let size)) where !size.isAcceptable: throw .tooManyPixels(size)
        default: break
        }
        self.init(path: Self.pathPrefix + ContentDigest.sha256(bytes) + "." + suffix, mediaType: type, data: Data(bytes))
    }

    /// The digest named by an image's address (`/content-images/{sha256}.{extension}`), or nil
    /// for any other path.
    public static func digest(inPath path: String) -> String? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        return digest(inFileName: String(path.dropFirst(pathPrefix.count)))
    }

    /// The digest in an image's file name (`{sha256}.{extension}`), or nil when it is not one.
    public static func digest(inFileName name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, Set(extensions.values).contains(String(parts[1])), parts[0].utf8.count == 64,
              parts[0].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return String(parts[0])
    }

    /// The media type the bytes themselves declare (their signature), whatever a file name says:
    /// PNG, JPEG, GIF, WebP, SVG (an XML document whose root is `<svg>`), MP3 (an ID3 tag or
    /// an MPEG layer III frame), Ogg, MP4 (audio when its brand says M4A) and WebM.
    public static func mediaType(of bytes: [UInt8]) -> String? {
        if let recording = recordingType(of: bytes) { return recording }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        // An SVG: text whose first element is <svg …>, after any declaration, comments
        // and a document type without an internal subset.
        return SVGRoot.attributes(bytes) != nil ? "image/svg+xml" : nil
    }
}

extension ContentImage {
    /// A recording's media type from its signature, or nil.
    static func recordingType(of bytes: [UInt8]) -> String? {
        guard bytes.count >= 12 else { return nil }
        if bytes.starts(with: Array("ID3".utf8)) { return "audio/mpeg" }
        // An MPEG audio frame: eleven sync bits, then layer III.
        if bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 == 0x02 { return "audio/mpeg" }
        if bytes.starts(with: Array("OggS".utf8)) { return "audio/ogg" }
        if Array(bytes[4..<8]) == Array("ftyp".utf8) { return Array(bytes[8..<12]) == Array("M4A ".utf8) ? "audio/mp4" : "video/mp4" }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]), String(decoding: bytes.prefix(64), as: UTF8.self).contains("webm") { return "video/webm" }
        return nil
    }
}

/// Why bytes were not taken as an image.
public enum ImageRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLarge(Int)
    case notAnImage
    /// Its header does not say how large it is (a truncated file).
    case sizeUnreadable
    /// It declares more pixels than a device should be asked to draw.
    case tooManyPixels(ImageSize)

    public var description: String {
        switch self {
        case .sizeUnreadable: "does not say its width and height in its header (is it cut short?)"
        case .tooManyPixels(let size):
            "is \(size), more than the \(ImageSize.maximumSide) px a side and \(ImageSize.maximumPixels / 1_000_000) megapixels a picture may have: make it smaller"
        case .empty: "is empty"
        case .tooLarge(let size):
            size > ContentImage.maximumBytes
                ? "is \(size / 1024) KiB, more than the \(ContentImage.maximumBytes / 1024 / 1024) MiB a picture or the \(ContentImage.maximumMediaBytes / 1024 / 1024) MiB a recording may be"
                : "is \(size / 1024) KiB, more than the \(ContentImage.maximumBytes / 1024 / 1024) MiB an image may be"
        case .notAnImage: "is not a PNG, JPEG, GIF, WebP or SVG image, nor an MP3, Ogg, MP4 or WebM recording"
        }
    }
}
