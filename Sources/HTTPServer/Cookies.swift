/// Reading the `Cookie` header.
public enum Cookies {
    /// Parses `Cookie` header values into name → value; the first occurrence of a name wins.
    /// Malformed pairs are skipped, never an error: a junk cookie is as good as none.
    public static func parse(_ headerValues: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headerValues {
            for pair in header.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingSpaces
                var value = pair[pair.index(after: equals)...].trimmingSpaces
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
                guard !name.isEmpty, name.utf8.allSatisfy(HTTPSyntax.isTokenByte), cookies[String(name)] == nil else { continue }
                cookies[String(name)] = String(value)
            }
        }
        return cookies
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

    /// The field value: `name=value; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax`.
    public var headerValue: String {
        var text = "\(name)=\(value); Path=\(path)"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if httpOnly { text += "; HttpOnly" }
        if secure { text += "; Secure" }
        if let sameSite { text += "; SameSite=\(sameSite.rawValue)" }
        return text
    }
}
