/// An HTTP/1.1 response read to the end of the connection: the status line, the header fields,
/// and the body by its `Content-Length`, chunked, or to the end.
enum ResponseParser {
    static func parse(_ bytes: [UInt8]) throws(ClientError.Cause) -> HTTPClient.Response {
        guard let end = find([13, 10, 13, 10], in: bytes, from: 0) else { throw .malformedResponse("no end of the header") }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines[0].split(separator: " ", maxSplits: 2)
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), let code = Int(status[1]), (100...599).contains(code) else {
            throw .malformedResponse("the status line is \(lines[0].prefix(80))")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse("a header line has no colon") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])))
        }
        var response = HTTPClient.Response(status: code, headers: headers, body: [])
        let rest = Array(bytes[(end + 4)...])
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            response.body = try dechunk(rest)
        } else if let length = response.header("Content-Length") {
            guard let count = Int(length), count >= 0, count <= rest.count else { throw .malformedResponse("the body is shorter than its Content-Length") }
            response.body = Array(rest.prefix(count))
        } else {
            response.body = rest
        }
        return response
    }

    static func dechunk(_ bytes: [UInt8]) throws(ClientError.Cause) -> [UInt8] {
        var body: [UInt8] = [], position = 0
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: position) else { throw .malformedResponse("a chunk has no size line") }
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: [" "]), radix: 16), size >= 0 else { throw .malformedResponse("a chunk size is not hexadecimal") }
            position = lineEnd + 2
            if size == 0 { return body }
            guard position + size + 2 <= bytes.count else { throw .malformedResponse("a chunk is cut short") }
            body += bytes[position..<(position + size)]
            position += size + 2
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
