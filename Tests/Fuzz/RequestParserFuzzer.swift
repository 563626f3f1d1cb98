// libFuzzer entry point for the request parser, compiled by scripts/fuzz.sh together with
// Sources/HTTPServer/Parsing/*.swift (which depend on nothing else).
//
// Each input is parsed as a stream of requests twice: whole, and in pieces whose size comes
// from the first byte. The two must agree exactly (same heads, bodies and error), which checks
// that incremental parsing never depends on how bytes happen to arrive.

/// Parses `bytes` as a connection would, `piece` bytes at a time; returns what it saw.
func drive(_ bytes: [UInt8], piece: Int) -> [String] {
    var parser = RequestParser()
    var buffer: [UInt8] = []
    var start = 0
    var inBody = false
    var events: [String] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + piece)
        buffer += bytes[offset..<end]
        offset = end
        do {
            while true {
                if !inBody {
                    let parsed = try buffer.withUnsafeBufferPointer { whole throws(HTTPParseError) in
                        try parser.parseHead(UnsafeBufferPointer(rebasing: whole[start...]))
                    }
                    guard let (head, consumed) = parsed else { break }
                    start += consumed
                    events.append("\(head.method) \(head.target) \(head.version) \(head.headers.count) \(head.bodyFraming) \(head.keepAlive)")
                    try parser.beginBody(head, limit: 64 * 1024)
                    inBody = true
                }
                let consumed = try buffer.withUnsafeBufferPointer { whole throws(HTTPParseError) in
                    try parser.parseBody(UnsafeBufferPointer(rebasing: whole[start...]))
                }
                start += consumed
                guard parser.isBodyComplete else { break }
                events.append("body \(parser.bodyBytes.count) \(parser.bodyBytes.reduce(0) { ($0 &* 31) &+ Int($1) })")
                parser.reset()
                inBody = false
            }
        } catch {
            events.append("error \(error.status.code)")
            return events
        }
    }
    return events
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let whole = drive(bytes, piece: max(1, bytes.count))
    let pieces = drive(bytes, piece: Int(first % 7) + 1)
    // Whole-buffer parsing may see a limit error that piecewise parsing reports the same way;
    // anything else that differs is a bug.
    if whole != pieces {
        print("whole:  \(whole)\npieces: \(pieces)")
        fatalError("incremental parsing disagrees with whole-buffer parsing")
    }
    return 0
}
