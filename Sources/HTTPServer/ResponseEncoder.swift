import Glibc

/// Writes response heads as bytes, with the `Date` field cached per second.
struct ResponseEncoder {
    private var dateSecond = -1
    private var dateLine: [UInt8] = []
    private let securityHeaders: HTTPHeaders
    private let securityBytes: [UInt8]

    init(securityHeaders: HTTPHeaders) {
        self.securityHeaders = securityHeaders
        var bytes: [UInt8] = []
        for field in securityHeaders { bytes += Array("\(field.name): \(field.value)\r\n".utf8) }
        securityBytes = bytes
    }

    /// A header field the response may not carry: a name that is not a token, or a value
    /// holding CR, LF or NUL (which would end the field, or the head, early: header injection).
    struct UnsafeHeader: Error, CustomStringConvertible {
        var name: String
        var description: String { "a response header field \(name.debugDescription) holds CR, LF, NUL or a name that is not a token" }
    }

    /// Whether every field of `headers` can be written as it is.
    static func check(_ headers: HTTPHeaders) throws(UnsafeHeader) {
        for field in headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(HTTPSyntax.isTokenByte),
                  !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw UnsafeHeader(name: field.name)
            }
        }
    }

    /// The head of `response`. `bodyLength` nil means an event stream (chunked on HTTP/1.1).
    /// Its fields must have passed `check`.
    mutating func head(
        _ response: Response, version: HTTPVersion, keepAlive: Bool, bodyLength: Int?, chunked: Bool
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        bytes += "HTTP/1.1 ".utf8
        appendDecimal(response.status.code, to: &bytes)
        bytes.append(32)
        bytes += response.status.reason.utf8
        bytes += "\r\n".utf8
        bytes += currentDateLine()
        let code = response.status.code
        if let bodyLength, code != 304, code != 204, code >= 200 {
            bytes += "Content-Length: ".utf8
            appendDecimal(bodyLength, to: &bytes)
            bytes += "\r\n".utf8
        }
        if chunked { bytes += "Transfer-Encoding: chunked\r\n".utf8 }
        if !keepAlive {
            bytes += "Connection: close\r\n".utf8
        } else if version == .http1_0 {
            bytes += "Connection: keep-alive\r\n".utf8
        }
        var overridesSecurity = false
        for field in response.headers {
            bytes += field.name.utf8
            bytes += ": ".utf8
            bytes += field.value.utf8
            bytes += "\r\n".utf8
            if !overridesSecurity, securityHeaders.contains(field.name) { overridesSecurity = true }
        }
        if !overridesSecurity {
            bytes += securityBytes
        } else {
            for field in securityHeaders where !response.headers.contains(field.name) {
                bytes += "\(field.name): \(field.value)\r\n".utf8
            }
        }
        bytes += "\r\n".utf8
        return bytes
    }

    private mutating func currentDateLine() -> [UInt8] {
        var now = time(nil)
        if now != dateSecond {
            dateSecond = now
            var parts = tm()
            gmtime_r(&now, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let text = "Date: \(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT\r\n"
            dateLine = Array(text.utf8)
        }
        return dateLine
    }

    private func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(48 + value))
            return
        }
        var digits: [UInt8] = []
        var rest = value
        while rest > 0 {
            digits.append(UInt8(48 + rest % 10))
            rest /= 10
        }
        bytes += digits.reversed()
    }
}
