import Foundation
import Interop
import PostgresClient

/// The images stored with content: written with an import (in its transaction), read to serve
/// them and to put them in exports.
public struct ContentImageStore: Sendable {
    public init() {}

    /// Stores `images`; one already there (the same digest, so the same bytes) is left as it is.
    /// Returns how many were new.
    @discardableResult
    public func save(_ images: [ContentImage], _ connection: PostgresConnection) throws -> Int {
        var added = 0
        for image in images {
            guard let digest = ContentImage.digest(inPath: image.path) else { continue }
            added += try connection.query(("""
                INSERT INTO content_images (digest, media_type, bytes) VALUES (\(digest), \(image.mediaType), \(PostgresBytes([UInt8](image.data))))
                ON CONFLICT (digest) DO NOTHING RETURNING digest
                """ as SQL).prepared()).rows.count
        }
        return added
    }

    /// The image with `digest`, or nil when none is stored.
    public func image(digest: String, _ connection: PostgresConnection) throws -> ContentImage? {
        guard let row = try connection.query(("SELECT media_type, bytes FROM content_images WHERE digest = \(digest)" as SQL).prepared()).first else {
            return nil
        }
        let type = try row.decode("media_type", as: String.self)
        return ContentImage(
            path: ContentImage.pathPrefix + digest + "." + (ContentImage.extensions[type] ?? "img"), mediaType: type,
            data: Data(try row.decode("bytes", as: PostgresBytes.self).bytes))
    }

    /// The stored images among `paths` (addresses that are not stored images are passed over),
    /// in the order of their first mention.
    public func images(at paths: [String], _ connection: PostgresConnection) throws -> [ContentImage] {
        var seen = Set<String>(), images: [ContentImage] = []
        for path in paths where seen.insert(path).inserted {
            guard let digest = ContentImage.digest(inPath: path), let image = try image(digest: digest, connection) else { continue }
            images.append(image)
        }
        return images
    }
}
