/// Reading the `Cookie` header.
public enum Cookies {
    /// Parses `Cookie` header values into name → value; the first occurrence of a name wins.
    /// Malformed pairs are skipped, never an error: a junk cookie is as good as none.
    public static func parse(_ headerValues: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headerValues {
            pairs(header) { name, value in
                if cookies[name] == nil { cookies[name] = value }
                return true
            }
        }
        return cookies
    }

    /// The value of the cookie `name` in `headerValues` (the first, as `parse` would take it),
    /// found without building the whole dictionary: every signed-in request asks for one.
    public static func value(_ name: String, in headerValues: [String]) -> String? {
        var found: String?
        for header in headerValues where found == nil {
            pairs(header) { pairName, value in
                if pairName == name { found = value }
                return found == nil
            }
        }
        return found
    }

    /// Calls `body` with each well-formed `name=value` pair of one header value, in order (the
    /// value unquoted, blanks around either trimmed), until it returns false. Scanned as
    /// UTF-8 bytes: the separators are ASCII, and a cookie header is read on every request.
    private static func pairs(_ header: String, _ body: (String, String) -> Bool) {
        var header = header
        header.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
                defer { start = end + 1 }
                guard let equals = (start..<end).first(where: { bytes[$0] == UInt8(ascii: "=") }) else { continue }
                let name = trimmed(bytes, start, equals)
                var value = trimmed(bytes, equals + 1, end)
                if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""), bytes[value.upperBound - 1] == UInt8(ascii: "\"") {
                    value = (value.lowerBound + 1)..<(value.upperBound - 1)
                }
                guard !name.isEmpty, name.allSatisfy({ HTTPSyntax.isTokenByte(bytes[$0]) }) else { continue }
                let text = { (range: Range<Int>) in String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
                if !body(text(name), text(value)) { return }
            }
        }
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Range<Int> {
        var lower = from, upper = to
        func blank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while lower < upper, blank(bytes[lower]) { lower += 1 }
        while upper > lower, blank(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }
}

/// A `Set-Cookie` field. Names starting with `__Host-` must be `Secure`, `Path=/` and have no
/// `Domain`; the initializer enforces it so a cookie can never be silently dropped by browsers.
public struct SetCookie: Sendable, Equatable {
    public enum SameSite: String, Sendable { case strict = "Strict", lax = "Lax", none = "None" }

    public var name: String
    public var value: String
    public var path: String
    public var maxAge: Int?
    public var httpOnly: Bool
    public var secure: Bool
    public var sameSite: SameSite?
    /// Kept per top-level site (CHIPS): a cookie set inside another site's frame that the
    /// browser keeps for that frame only, even when it blocks third-party cookies. Needs `Secure`.
    public var partitioned = false

    public init(
        name: String, value: String, path: String = "/", maxAge: Int? = nil, httpOnly: Bool = true,
        secure: Bool = false, sameSite: SameSite? = .lax
    ) {
        precondition(name.utf8.allSatisfy(HTTPSyntax.isTokenByte), "a cookie name must be a token")
        precondition(!name.hasPrefix("__Host-") || (secure && path == "/"), "__Host- cookies must be Secure with Path=/")
        precondition(sameSite != SameSite.none || secure, "SameSite=None cookies must be Secure")
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// A cookie that tells the browser to forget `name` at once.
    public static func expired(name: String, path: String = "/", secure: Bool = false) -> SetCookie {
        SetCookie(name: name, value: "", path: path, maxAge: 0, secure: secure)
    }

    /// The field value: `name=value; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax[; Partitioned]`.
    public var headerValue: String {
        var text = "\(name)=\(value); Path=\(path)"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if httpOnly { text += "; HttpOnly" }
        if secure { text += "; Secure" }
        if let sameSite { text += "; SameSite=\(sameSite.rawValue)" }
        if partitioned && secure { text += "; Partitioned" }
        return text
    }
}
