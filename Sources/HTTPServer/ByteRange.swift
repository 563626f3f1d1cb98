/// One byte range a request asks for (`Range: bytes=0-1023`, `bytes=1024-`, `bytes=-500`), as
/// RFC 9110 §14 reads it, so a player can seek in a recording without fetching all of it
/// (Safari plays a video only when ranges are answered). Several ranges, or a header that is
/// not one, are ignored: the whole body is sent.
public enum ByteRange {
    /// What to send of a body of `length` bytes.
    public enum Answer: Equatable, Sendable {
        /// The whole body (no range asked, or one the server ignores).
        case whole
        /// These bytes, with `206 Partial Content`.
        case part(Range<Int>)
        /// A range that starts beyond the body: `416`, with `Content-Range: bytes */length`.
        case unsatisfiable
    }

    public static func answer(_ header: String?, length: Int) -> Answer {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: [" "])
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigitCharacter) && $0.count <= 18 }) else { return .whole }
        if parts[0].isEmpty {
            // The last n bytes.
            guard let count = Int(parts[1]), count > 0 else { return parts[1].isEmpty ? .whole : .unsatisfiable }
            return length == 0 ? .unsatisfiable : .part(max(0, length - count)..<length)
        }
        guard let start = Int(parts[0]) else { return .whole }
        guard start < length else { return .unsatisfiable }
        if parts[1].isEmpty { return .part(start..<length) }
        guard let end = Int(parts[1]), end >= start else { return .whole }
        return .part(start..<min(end + 1, length))
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
