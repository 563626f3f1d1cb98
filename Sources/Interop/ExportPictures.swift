import Foundation

/// The pictures an export carries: each option image's address mapped to the file it becomes —
/// named by its digest, so the same picture has the same name in every export, whatever its
/// address was here (a stored image or one of the site's own files).
struct ExportPictures {
    struct Picture: Equatable {
        /// `{sha256}.{extension}`.
        let name: String
        let data: Data
    }

    private var byPath: [String: Picture] = [:]

    /// The document's images (`images`), by the address the questions use.
    init(_ content: ContentDocument) {
        for image in content.images ?? [] {
            guard let read = try? ContentImage(bytes: [UInt8](image.data)) else { continue }
            byPath[image.path] = Picture(name: String(read.path.dropFirst(ContentImage.pathPrefix.count)), data: image.data)
        }
    }

    /// The picture at `path`, or nil when the export has none for it (the option goes as text).
    func picture(_ path: String?) -> Picture? { path.flatMap { byPath[$0] } }

    /// Every picture once, by name.
    var all: [Picture] {
        Dictionary(byPath.values.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }).values.sorted { $0.name < $1.name }
    }
}
