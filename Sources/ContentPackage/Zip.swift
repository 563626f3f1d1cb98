import CZlib

/// Why a zip archive cannot be read: nothing of it is used.
public struct ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problem: String
    public init(_ problem: String) { self.problem = problem }
    public var description: String { problem }
}

/// Zip archives as content packages use them: entries stored or deflated (zlib's raw deflate),
/// read with every name and size checked before a byte is inflated.
public enum Zip {
    /// One file of an archive.
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The limits a package must keep to: a small archive may not unpack into a huge one.
    public struct Limits: Sendable {
        public var totalBytes: Int
        public var entries: Int

        public init(totalBytes: Int = 20 * 1024 * 1024, entries: Int = 10_000) {
            self.totalBytes = totalBytes
            self.entries = entries
        }
    }

    // MARK: Writing

    /// An archive of `entries`, each deflated, with a fixed timestamp so the same content gives
    /// the same bytes.
    public static func archive(_ entries: [Entry]) -> [UInt8] {
        var output: [UInt8] = [], central: [UInt8] = []
        for entry in entries {
            let name = Array(entry.path.utf8)
            let compressed = deflate(entry.bytes) ?? entry.bytes
            let method: UInt16 = compressed.count < entry.bytes.count ? 8 : 0
            let data = method == 8 ? compressed : entry.bytes
            let crc = checksum(entry.bytes)
            let offset = UInt32(output.count)
            // 1 January 2026, 00:00 in DOS time.
            let (time, date): (UInt16, UInt16) = (0, UInt16((2026 - 1980) << 9 | 1 << 5 | 1))
            output += le32(0x0403_4B50) + le16(20) + le16(0x0800) + le16(method) + le16(time) + le16(date) + le32(crc)
            output += le32(UInt32(data.count)) + le32(UInt32(entry.bytes.count)) + le16(UInt16(name.count)) + le16(0) + name + data
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0x0800) + le16(method) + le16(time) + le16(date) + le32(crc)
            central += le32(UInt32(data.count)) + le32(UInt32(entry.bytes.count)) + le16(UInt16(name.count)) + le16(0) + le16(0)
            central += le16(0) + le16(0) + le32(0) + le32(offset) + name
        }
        let start = UInt32(output.count)
        output += central
        output += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        output += le32(UInt32(central.count)) + le32(start) + le16(0)
        return output
    }

    // MARK: Reading

    /// The entries of `archive`, in order. Refused whole: a truncated or malformed archive, a
    /// name that leaves the package (`../`, an absolute path, a backslash), more entries or more
    /// unpacked bytes than `limits` allow (checked from the declared sizes before inflating, and
    /// again while inflating), an unknown compression, or a checksum that does not match.
    public static func entries(_ archive: [UInt8], limits: Limits = Limits()) throws(ZipError) -> [Entry] {
        guard let end = endOfCentralDirectory(archive) else { throw ZipError("is not a zip archive (no end of central directory)") }
        let count = Int(u16(archive, end + 10)), size = Int(u32(archive, end + 12)), start = Int(u32(archive, end + 16))
        guard count <= limits.entries else { throw ZipError("has \(count) entries; a package may have at most \(limits.entries)") }
        guard start + size <= end else { throw ZipError("has a central directory outside the archive") }
        var entries: [Entry] = [], position = start, declaredTotal = 0
        for _ in 0..<count {
            guard position + 46 <= end, u32(archive, position) == 0x0201_4B50 else { throw ZipError("has a damaged central directory") }
            let method = u16(archive, position + 10), crc = u32(archive, position + 16)
            let compressedSize = Int(u32(archive, position + 20)), size = Int(u32(archive, position + 24))
            let nameLength = Int(u16(archive, position + 28)), extra = Int(u16(archive, position + 30)), comment = Int(u16(archive, position + 32))
            let local = Int(u32(archive, position + 42))
            guard position + 46 + nameLength <= end else { throw ZipError("has a damaged central directory") }
            let path = String(decoding: archive[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            position += 46 + nameLength + extra + comment
            guard isSafe(path) else { throw ZipError("has an entry named \(path.prefix(120)), which leaves the package") }
            declaredTotal += size
            guard declaredTotal <= limits.totalBytes else { throw ZipError("unpacks to more than \(limits.totalBytes / 1_048_576) MiB") }
            if path.hasSuffix("/") { continue }
            guard local + 30 <= archive.count, u32(archive, local) == 0x0403_4B50 else { throw ZipError("has a damaged entry \(path.prefix(120))") }
            let dataStart = local + 30 + Int(u16(archive, local + 26)) + Int(u16(archive, local + 28))
            guard dataStart + compressedSize <= archive.count else { throw ZipError("is truncated (entry \(path.prefix(120)) ends outside it)") }
            let data = Array(archive[dataStart..<(dataStart + compressedSize)])
            let bytes: [UInt8]
            switch method {
            case 0: bytes = data
            case 8:
                guard let inflated = inflate(data, expected: size) else { throw ZipError("has an entry \(path.prefix(120)) that does not inflate to its declared size") }
                bytes = inflated
            default: throw ZipError("uses compression method \(method) for \(path.prefix(120)); only stored and deflated entries are read")
            }
            guard bytes.count == size, checksum(bytes) == crc else { throw ZipError("has an entry \(path.prefix(120)) whose checksum does not match") }
            entries.append(Entry(path: path, bytes: bytes))
        }
        return entries
    }

    /// A relative path within the package: no `..` segment, no leading `/`, no backslash, no NUL.
    static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\") && !path.contains("\0")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    private static func endOfCentralDirectory(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        var index = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while index >= lowest {
            if u32(bytes, index) == 0x0605_4B50 { return index }
            index -= 1
        }
        return nil
    }

    // MARK: zlib

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
    }

    static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Inflates at most `expected` bytes: a stream that would give more is not read further.
    static func inflate(_ bytes: [UInt8], expected: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: expected + 1)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expected else { return nil }
        return Array(output.prefix(expected))
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        at + 2 <= bytes.count ? UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 : 0
    }
    private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        at + 4 <= bytes.count ? (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } : 0
    }
}
