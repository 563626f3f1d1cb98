import Foundation
import Identifiers
import PostgresClient

/// An instance's notice of the readers whose data it wrote: `portal_readers` with
/// `readers:<instance>:<id>,<id>,…`, which the other instances read as "forget what you remember
/// of these readers" (the portal's ReaderAnnouncer sends it, its reader versions read it).
public enum ReaderNotice {
    /// The notice's prefix; the rest is the instance and reader ids separated by commas.
    public static let prefix = "readers:"
    /// Readers per notice: a notice holds at most 8,000 bytes, an id 37 with its comma.
    public static let perNotice = 200

    /// Sends notices naming `readers`, `perNotice` to a notice.
    public static func send(_ readers: [UUID], from instance: String, _ connection: PostgresConnection) throws {
        for start in stride(from: 0, to: readers.count, by: perNotice) {
            let ids = readers[start..<min(start + perNotice, readers.count)].map(\.lowercasedText).joined(separator: ",")
            _ = try connection.query(("SELECT pg_notify('portal_readers', \(prefix + instance + ":" + ids))" as SQL).prepared())
        }
    }

    /// The readers a notice from another instance than `instance` names: nil when the payload
    /// is no such notice, none when it is `instance`'s own.
    public static func readers(in payload: String, otherThan instance: String) -> [UUID]? {
        guard payload.hasPrefix(prefix) else { return nil }
        let parts = payload.dropFirst(prefix.count).split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] != instance else { return parts.count == 2 ? [] : nil }
        return parts[1].split(separator: ",").compactMap { UUID(uuidString: String($0)) }
    }
}
