internal import CZlib
import HTTPServer

/// A document made once with a few holes that each response fills with its own short values
/// (a form's one-time id, a signed time stamp), kept both plain and compressed.
///
/// The fixed parts are compressed once, each as its own raw deflate stream ended by a sync
/// flush (so it is byte-aligned and refers to nothing before it); a response's values go in
/// between as stored blocks, and the gzip trailer's CRC is combined from the parts' CRCs. A
/// response thus costs copying, not compressing: a gzip reader sees one ordinary stream.
struct SplicedDocument: Sendable {
    private struct Part: Sendable {
        var plain: [UInt8]
        var deflated: [UInt8]
        var crc: UInt
        /// `crc32_combine_op`'s operator for appending this part's length of bytes.
        var appendOperator: UInt
    }

    private let parts: [Part]
    /// For each hole (between part i and i + 1), which marker made it.
    private let holeMarkers: [Int]

    /// How many holes the document has (each marker may make several, or none).
    var holes: Int { holeMarkers.count }

    /// The bytes kept: both forms of the fixed parts.
    var size: Int { parts.reduce(0) { $0 + $1.plain.count + $1.deflated.count } }

    /// The document `rendered` with each occurrence of one of `markers` made a hole, which a
    /// response fills with that marker's value; `level` is zlib's level for the fixed parts.
    init(_ rendered: [UInt8], markers: [[UInt8]], level: Int32 = Gzip.keptLevel) {
        var pieces: [[UInt8]] = [], found: [Int] = []
        var start = 0, index = 0
        scan: while index < rendered.count {
            for (number, marker) in markers.enumerated() where !marker.isEmpty && rendered.count - index >= marker.count
                && rendered[index] == marker[0] && rendered[index..<(index + marker.count)].elementsEqual(marker) {
                found.append(number)
                pieces.append(Array(rendered[start..<index]))
                index += marker.count
                start = index
                continue scan
            }
            index += 1
        }
        pieces.append(Array(rendered[start...]))
        holeMarkers = found
        parts = pieces.map { plain in
            Part(plain: plain, deflated: Self.deflateFlushed(plain, level: level), crc: Self.crc(0, plain),
                 appendOperator: UInt(crc32_combine_gen(.init(plain.count))))
        }
    }

    /// The plain document with `values[m]` in each hole marker `m` made (an empty value for a
    /// marker without one).
    func plain(_ values: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(parts.reduce(0) { $0 + $1.plain.count } + values.reduce(0) { $0 + $1.count })
        for (index, part) in parts.enumerated() {
            output += part.plain
            if index < holes { output += value(index, values) }
        }
        return output
    }

    private func value(_ hole: Int, _ values: [[UInt8]]) -> [UInt8] {
        holeMarkers[hole] < values.count ? values[holeMarkers[hole]] : []
    }

    /// The gzip form of `plain(values)`, made without compressing anything.
    func gzip(_ values: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]  // gzip, deflate, no name, no time, Unix
        output.reserveCapacity(10 + parts.reduce(0) { $0 + $1.deflated.count } + values.reduce(0) { $0 + $1.count + 5 } + 13)
        var crc: UInt = 0, length = 0
        for (index, part) in parts.enumerated() {
            output += part.deflated
            crc = UInt(crc32_combine_op(uLong(crc), uLong(part.crc), uLong(part.appendOperator)))
            length += part.plain.count
            guard index < holes else { continue }
            let filled = value(index, values)
            output += Self.storedBlocks(filled)
            crc = Self.crc(crc, filled)
            length += filled.count
        }
        output += [1, 0, 0, 0xff, 0xff]  // the final block: stored, empty
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: crc >> UInt(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: length >> shift)) }
        return output
    }

    private static func crc(_ running: UInt, _ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(crc32(uLong(running), $0.baseAddress, uInt($0.count))) }
    }

    /// `bytes` as a raw deflate stream that ends byte-aligned with no final block (negative
    /// window bits: no wrapper).
    private static func deflateFlushed(_ bytes: [UInt8], level: Int32) -> [UInt8] {
        Gzip.deflate(bytes, level: level, windowBits: -15, flush: Z_SYNC_FLUSH) ?? storedBlocks(bytes)
    }

    /// `bytes` as non-final stored blocks (at most 65,535 bytes each, uncompressed): a value
    /// spliced in, or a part zlib failed to compress.
    private static func storedBlocks(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(65_535)
            let size = UInt16(chunk.count)
            output += [0, UInt8(size & 0xff), UInt8(size >> 8), UInt8(~size & 0xff), UInt8(~size >> 8)]
            output += chunk
            rest = rest.dropFirst(chunk.count)
        }
        return output
    }
}
