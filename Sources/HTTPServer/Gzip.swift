internal import CZlib

/// gzip compression through zlib: once per static file at load time (the best level), and for
/// each dynamic page a client accepts it for (a fast level: the page is made once).
public enum Gzip {
    /// The gzip form of `bytes` at `level` (1 fastest … 9 smallest), or nil if zlib fails.
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8]? {
        // windowBits 15 + 16 selects the gzip wrapper.
        deflate(bytes, level: level, windowBits: 15 + 16, flush: Z_FINISH)
    }

    /// `bytes` through one deflate stream of zlib's (`windowBits` chooses the wrapper: 15 + 16
    /// gzip, -15 none), ended by `flush`: `Z_FINISH` ends the stream, `Z_SYNC_FLUSH` leaves it
    /// open and byte-aligned. Nil if zlib fails.
    public static func deflate(_ bytes: [UInt8], level: Int32, windowBits: Int32, flush: Int32) -> [UInt8]? {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, windowBits, 9, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return CZlib.deflate(&stream, flush)
            }
        }
        let done = flush == Z_FINISH ? status == Z_STREAM_END : status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0
        return done ? Array(output[0..<Int(stream.total_out)]) : nil
    }

    /// Whether an `Accept-Encoding` field allows gzip (present with a q-value above zero).
    public static func isAccepted(by acceptEncoding: String?) -> Bool {
        StaticFiles.acceptsGzip(acceptEncoding)
    }

    /// The level for pages compressed for each request: the fastest. On a question page of
    /// 6 KB it saves 5% less than level 4 and serves 11% more pages (`Benchmarks/pages.sh`).
    public static let dynamicLevel: Int32 = 1

    /// The level for a copy compressed once and kept (a reader's kept page).
    public static let keptLevel: Int32 = 6

    /// Decompresses a gzip document (used by tests and tools to check what was served).
    public static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeMutableBufferPointer { inputBuffer -> [UInt8]? in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                result += chunk[0..<(chunk.count - Int(stream.avail_out))]
                if status == Z_STREAM_END { return result }
                if status != Z_OK { return nil }
            }
        }
    }
}
