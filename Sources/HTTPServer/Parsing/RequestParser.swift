/// Reads requests from a byte stream, strictly (RFC 9112), one part at a time.
///
/// Call `parseHead` until it returns a head; decide the body limit (it depends on the route);
/// then call `parseBody` until it reports the body complete; then `reset()` for the next
/// request. Every error is final for the connection.
///
/// The parser never needs the whole request at once: bytes may arrive one at a time or many
/// requests in one read, and the work done is linear in the bytes received.
public struct RequestParser: Sendable {
    /// Size limits; exceeding one is answered with the matching status.
    public struct Limits: Sendable {
        /// Longest request line (`414`).
        public var requestLine = 8 * 1024
        /// Largest header section after the request line (`431`).
        public var headerSection = 16 * 1024
        /// Most header fields (`431`).
        public var headerCount = 100
        /// Longest chunk-size line, extensions included (`400`).
        public var chunkSizeLine = 1024

        public init() {}
    }

    public let limits: Limits
    // Head scanning: how far the buffer was searched for the end of the head.
    private var scanned = 0
    private var requestLineEnd: Int?
    // Body decoding.
    private var body = BodyState.idle
    private var bodyLimit = 0
    /// The body read so far.
    public private(set) var bodyBytes: [UInt8] = []

    private enum BodyState: Sendable {
        case idle
        case length(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case complete
    }

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Prepares for the next request on the same connection.
    public mutating func reset() {
        scanned = 0
        requestLineEnd = nil
        body = .idle
        bodyBytes = []
    }

    // MARK: Head

    /// Looks for a complete head at the start of `buffer`. Returns nil when more bytes are
    /// needed, or the head and how many bytes it took.
    public mutating func parseHead(_ buffer: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> (head: RequestHead, consumed: Int)? {
        // Empty lines before a request line are ignored (RFC 9112 §2.2).
        var start = 0
        while start + 1 < buffer.count, buffer[start] == 13, buffer[start + 1] == 10 { start += 2 }
        if start > 64 { throw .bad("too many empty lines before the request line") }
        if start > 0 && start + 1 >= buffer.count && buffer.count > 0 && buffer[buffer.count - 1] == 13 {
            return nil
        }
        var index = max(scanned, start)
        var headEnd: Int?
        while index + 3 < buffer.count {
            if buffer[index + 3] != 10 && buffer[index + 3] != 13 {
                // The four-byte terminator cannot end before index + 4: skip ahead.
                if requestLineEnd == nil, buffer[index] == 13, buffer[index + 1] == 10 { requestLineEnd = index }
                if requestLineEnd == nil, buffer[index + 1] == 13, buffer[index + 2] == 10 { requestLineEnd = index + 1 }
                if requestLineEnd == nil, buffer[index + 2] == 13, buffer[index + 3] == 10 { requestLineEnd = index + 2 }
                index += 4
                continue
            }
            if buffer[index] == 13 && buffer[index + 1] == 10 {
                if requestLineEnd == nil { requestLineEnd = index }
                if buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                    headEnd = index
                    break
                }
            }
            index += 1
        }
        guard let end = headEnd else {
            scanned = max(start, index)
            // A CR LF may straddle the scanned boundary; the last three bytes are rescanned.
            if requestLineEnd == nil {
                var probe = max(start, scanned)
                while probe + 1 < buffer.count {
                    if buffer[probe] == 13 && buffer[probe + 1] == 10 { requestLineEnd = probe; break }
                    probe += 1
                }
            }
            let lineEnd = requestLineEnd ?? buffer.count
            if lineEnd - start > limits.requestLine {
                throw HTTPParseError(.uriTooLong, "the request line is longer than \(limits.requestLine) bytes")
            }
            if requestLineEnd != nil, buffer.count - lineEnd > limits.headerSection + 4 {
                throw HTTPParseError(.headerFieldsTooLarge, "the header section is larger than \(limits.headerSection) bytes")
            }
            return nil
        }
        let lineEnd = requestLineEnd ?? end
        if lineEnd - start > limits.requestLine {
            throw HTTPParseError(.uriTooLong, "the request line is longer than \(limits.requestLine) bytes")
        }
        if end - lineEnd > limits.headerSection {
            throw HTTPParseError(.headerFieldsTooLarge, "the header section is larger than \(limits.headerSection) bytes")
        }
        let head = try Self.head(buffer, requestLine: start..<lineEnd, headerSection: lineEnd + 2..<end + 2, limits: limits)
        scanned = 0
        requestLineEnd = nil
        return (head, end + 4)
    }

    private static func head(
        _ buffer: UnsafeBufferPointer<UInt8>, requestLine: Range<Int>, headerSection: Range<Int>, limits: Limits
    ) throws(HTTPParseError) -> RequestHead {
        // request-line = method SP request-target SP HTTP-version
        guard let firstSpace = buffer[requestLine].firstIndex(of: 32) else { throw .bad("the request line has no spaces") }
        let methodBytes = buffer[requestLine.lowerBound..<firstSpace]
        guard let secondSpace = buffer[(firstSpace + 1)..<requestLine.upperBound].firstIndex(of: 32) else {
            throw .bad("the request line has no HTTP version")
        }
        let targetBytes = buffer[(firstSpace + 1)..<secondSpace]
        let versionBytes = buffer[(secondSpace + 1)..<requestLine.upperBound]

        guard !methodBytes.isEmpty, methodBytes.allSatisfy(HTTPSyntax.isTokenByte) else { throw .bad("the method is not a token") }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw .bad("the request target is empty or holds spaces, control or non-ASCII bytes")
        }
        let version = try parseVersion(versionBytes)
        let methodText = String(decoding: methodBytes, as: UTF8.self)
        guard let method = HTTPMethod(rawValue: methodText) else {
            throw HTTPParseError(.notImplemented, "the method \(methodText) is not implemented")
        }
        let target = String(decoding: targetBytes, as: UTF8.self)
        let (path, query) = try splitTarget(target, method: method)

        var headers = HTTPHeaders()
        var hostCount = 0
        var contentLength: Int?
        var transferEncoding: String?
        var connectionClose = false
        var connectionKeepAlive = false
        var expectsContinue = false

        var lineStart = headerSection.lowerBound
        while lineStart < headerSection.upperBound {
            var lineEnd = lineStart
            while !(buffer[lineEnd] == 13 && buffer[lineEnd + 1] == 10) { lineEnd += 1 }
            let line = buffer[lineStart..<lineEnd]
            lineStart = lineEnd + 2
            if headers.count == limits.headerCount {
                throw HTTPParseError(.headerFieldsTooLarge, "more than \(limits.headerCount) header fields")
            }
            guard let first = line.first else { throw .bad("an empty header line") }
            if first == 32 || first == 9 { throw .bad("obsolete line folding is not accepted") }
            guard let colon = line.firstIndex(of: 58) else { throw .bad("a header line has no colon") }
            let nameBytes = buffer[line.startIndex..<colon]
            guard !nameBytes.isEmpty, nameBytes.allSatisfy(HTTPSyntax.isTokenByte) else {
                throw .bad("a header name is not a token (whitespace before the colon?)")
            }
            var valueStart = colon + 1
            var valueEnd = line.endIndex
            while valueStart < valueEnd, buffer[valueStart] == 32 || buffer[valueStart] == 9 { valueStart += 1 }
            while valueEnd > valueStart, buffer[valueEnd - 1] == 32 || buffer[valueEnd - 1] == 9 { valueEnd -= 1 }
            let valueBytes = buffer[valueStart..<valueEnd]
            guard valueBytes.allSatisfy(HTTPSyntax.isFieldValueByte) else {
                throw .bad("a header value holds a control character")
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let value = String(decoding: valueBytes, as: UTF8.self)
            headers.add(name, value)

            switch nameBytes.count {
            case 4 where name.equalsIgnoringASCIICase("host"):
                hostCount += 1
                guard valueBytes.allSatisfy(HTTPSyntax.isHostByte) else { throw .bad("the Host header is malformed") }
            case 14 where name.equalsIgnoringASCIICase("content-length"):
                let length = try parseContentLength(valueBytes)
                if let contentLength, contentLength != length { throw .bad("Content-Length values differ") }
                contentLength = length
            case 17 where name.equalsIgnoringASCIICase("transfer-encoding"):
                transferEncoding = transferEncoding.map { "\($0), \(value)" } ?? value
            case 10 where name.equalsIgnoringASCIICase("connection"):
                for option in value.split(separator: ",") {
                    let token = option.trimmingSpaces
                    if token.equalsIgnoringASCIICase("close") { connectionClose = true }
                    if token.equalsIgnoringASCIICase("keep-alive") { connectionKeepAlive = true }
                }
            case 6 where name.equalsIgnoringASCIICase("expect"):
                guard value.equalsIgnoringASCIICase("100-continue") else {
                    throw HTTPParseError(.expectationFailed, "only Expect: 100-continue is supported")
                }
                expectsContinue = true
            default:
                break
            }
        }

        if hostCount > 1 { throw .bad("more than one Host header") }
        if hostCount == 0 && version == .http1_1 { throw .bad("HTTP/1.1 requests need a Host header") }

        var framing = RequestHead.BodyFraming.none
        if let transferEncoding {
            if contentLength != nil { throw .bad("both Content-Length and Transfer-Encoding were sent") }
            if version == .http1_0 { throw .bad("Transfer-Encoding is not allowed in HTTP/1.0") }
            guard transferEncoding.equalsIgnoringASCIICase("chunked") else {
                throw HTTPParseError(.notImplemented, "only Transfer-Encoding: chunked is supported")
            }
            framing = .chunked
        } else if let contentLength, contentLength > 0 {
            framing = .contentLength(contentLength)
        }

        let keepAlive = version == .http1_1 ? !connectionClose : (connectionKeepAlive && !connectionClose)
        return RequestHead(
            method: method, target: target, path: path, query: query, version: version, headers: headers,
            keepAlive: keepAlive, expectsContinue: expectsContinue, bodyFraming: framing)
    }

    private static func parseVersion(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws(HTTPParseError) -> HTTPVersion {
        // HTTP-version = "HTTP/" DIGIT "." DIGIT
        let text = Array(bytes)
        guard text.count == 8, text[0...4].elementsEqual("HTTP/".utf8), text[6] == 46,
              HTTPSyntax.isDigit(text[5]), HTTPSyntax.isDigit(text[7])
        else { throw .bad("the HTTP version is malformed") }
        switch (text[5], text[7]) {
        case (49, 49): return .http1_1
        case (49, 48): return .http1_0
        default: throw HTTPParseError(.httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are supported")
        }
    }

    private static func splitTarget(_ target: String, method: HTTPMethod) throws(HTTPParseError) -> (String, String) {
        var pathAndQuery = Substring(target)
        if target == "*" {
            guard method == .OPTIONS else { throw .bad("the target * is only for OPTIONS") }
            return ("*", "")
        }
        if !target.hasPrefix("/") {
            // absolute-form: scheme "://" authority path-abempty [ "?" query ]
            let lower = target.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw .bad("the request target must be a path starting with /")
            }
            let schemeLength = lower.hasPrefix("http://") ? 7 : 8
            let afterScheme = target.dropFirst(schemeLength)
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                pathAndQuery = afterScheme[slash...]
                if pathAndQuery.hasPrefix("?") { pathAndQuery = "/" + pathAndQuery }
            } else {
                pathAndQuery = "/"
            }
        }
        if let questionMark = pathAndQuery.firstIndex(of: "?") {
            return (String(pathAndQuery[..<questionMark]), String(pathAndQuery[pathAndQuery.index(after: questionMark)...]))
        }
        return (String(pathAndQuery), "")
    }

    private static func parseContentLength(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws(HTTPParseError) -> Int {
        guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy(HTTPSyntax.isDigit) else {
            throw .bad("Content-Length is not a decimal number")
        }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    // MARK: Body

    /// Starts reading the body of `head` with at most `limit` bytes. A declared length over the
    /// limit is refused at once, before any of the body is read.
    public mutating func beginBody(_ head: RequestHead, limit: Int) throws(HTTPParseError) {
        bodyLimit = limit
        bodyBytes = []
        switch head.bodyFraming {
        case .none:
            body = .complete
        case .contentLength(let length):
            if length > limit { throw Self.tooLarge(limit) }
            bodyBytes.reserveCapacity(length)
            body = .length(remaining: length)
        case .chunked:
            body = .chunkSize
        }
    }

    /// Whether the whole body has been read.
    public var isBodyComplete: Bool {
        if case .complete = body { return true }
        return false
    }

    /// Whether the body has begun arriving (for `100 Continue`: it is only sent before).
    public var hasBodyBytes: Bool { !bodyBytes.isEmpty }

    /// Consumes body bytes from the start of `buffer`; returns how many it took.
    public mutating func parseBody(_ buffer: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Int {
        var index = 0
        while index < buffer.count {
            switch body {
            case .idle, .complete:
                return index
            case .length(let remaining):
                let take = min(remaining, buffer.count - index)
                bodyBytes.append(contentsOf: buffer[index..<index + take])
                index += take
                body = remaining == take ? .complete : .length(remaining: remaining - take)
            case .chunkSize:
                guard let lineEnd = Self.lineEnd(buffer, from: index) else {
                    if buffer.count - index > limits.chunkSizeLine { throw .bad("a chunk-size line is too long") }
                    return index
                }
                if lineEnd - index > limits.chunkSizeLine { throw .bad("a chunk-size line is too long") }
                let size = try Self.chunkSize(buffer[index..<lineEnd])
                index = lineEnd + 2
                if size == 0 {
                    body = .trailers(bytes: 0)
                } else {
                    if bodyBytes.count + size > bodyLimit { throw Self.tooLarge(bodyLimit) }
                    body = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let take = min(remaining, buffer.count - index)
                bodyBytes.append(contentsOf: buffer[index..<index + take])
                index += take
                body = remaining == take ? .chunkDataEnd : .chunkData(remaining: remaining - take)
            case .chunkDataEnd:
                guard buffer.count - index >= 2 else {
                    if buffer[index] != 13 { throw .bad("chunk data is not followed by CRLF") }
                    return index
                }
                guard buffer[index] == 13, buffer[index + 1] == 10 else { throw .bad("chunk data is not followed by CRLF") }
                index += 2
                body = .chunkSize
            case .trailers(let bytes):
                guard let lineEnd = Self.lineEnd(buffer, from: index) else {
                    if bytes + buffer.count - index > limits.headerSection { throw HTTPParseError(.headerFieldsTooLarge, "the trailer section is too large") }
                    return index
                }
                let line = buffer[index..<lineEnd]
                let total = bytes + line.count + 2
                if total > limits.headerSection { throw HTTPParseError(.headerFieldsTooLarge, "the trailer section is too large") }
                index = lineEnd + 2
                if line.isEmpty {
                    body = .complete
                } else {
                    guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
                          buffer[line.startIndex..<colon].allSatisfy(HTTPSyntax.isTokenByte),
                          buffer[(colon + 1)..<line.endIndex].allSatisfy(HTTPSyntax.isFieldValueByte)
                    else { throw .bad("a trailer field is malformed") }
                    body = .trailers(bytes: total)
                }
            }
        }
        return index
    }

    /// The index of the CR of the next CRLF at or after `start`; a bare CR or LF is an error.
    private static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private static func chunkSize(_ line: Slice<UnsafeBufferPointer<UInt8>>) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let digit = HTTPSyntax.hexValue(line[index]) {
            digits += 1
            if digits > 15 { throw .bad("a chunk size is too large") }
            size = size * 16 + digit
            index += 1
        }
        guard digits > 0 else { throw .bad("a chunk size is not hexadecimal") }
        // chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] ): checked for stray bytes only.
        while index < line.endIndex, line[index] == 32 || line[index] == 9 { index += 1 }
        if index < line.endIndex {
            guard line[index] == 59, line[(index + 1)...].allSatisfy(HTTPSyntax.isFieldValueByte) else {
                throw .bad("a chunk-size line is malformed")
            }
        }
        return size
    }

    private static func tooLarge(_ limit: Int) -> HTTPParseError {
        HTTPParseError(.contentTooLarge, "the body is larger than this address accepts (\(limit) bytes)")
    }
}
