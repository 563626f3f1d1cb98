import ExamData
import Foundation
import Interop

/// The site's own pictures that options show (files under `Public/`, such as the demo's
/// diagrams), added to an export that carries its pictures (QTI packages, Moodle XML), so the
/// school receiving it gets the picture and not an address on this site.
struct SiteImages {
    let publicDirectory: String

    func including(_ document: ContentDocument) -> ContentDocument {
        var document = document, images = document.images ?? []
        var known = Set(images.map(\.path))
        for path in document.imagePaths where known.insert(path).inserted {
            guard let file = file(for: path), let bytes = FileManager.default.contents(atPath: file),
                  let image = try? ContentImage(bytes: [UInt8](bytes)) else { continue }
            images.append(ContentImage(path: path, mediaType: image.mediaType, data: bytes))
        }
        document.images = images.isEmpty ? nil : images
        return document
    }

    /// The file under the public directory an address names, or nil for an address that is not
    /// a plain path there (another site's, a stored image, anything with `..`).
    private func file(for path: String) -> String? {
        guard path.hasPrefix("/"), !path.hasPrefix(ContentImage.pathPrefix), !path.hasPrefix("//") else { return nil }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ part in
            !part.isEmpty && part != "." && part != ".." && part.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        }) else { return nil }
        return publicDirectory + path
    }
}
