import Foundation
import HTTPServer

/// Paths on this site to come back to after signing in or sending a form.
enum LocalPath {
    /// Only a path on this site is a place to return to: never another site (`//evil.example`,
    /// a backslash or a tab after the first `/`) and never anything that could end a header line
    /// (CR, LF): RFC 3986 path and query characters only, `%` only before two hex digits.
    static func validated(_ path: String?) -> String? {
        guard let path, path.utf8.count < 500, path.hasPrefix("/"), !path.hasPrefix("//") else { return nil }
        let bytes = Array(path.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return nil }
                index += 3
                continue
            }
            guard allowed.contains(byte) else { return nil }
            index += 1
        }
        return path
    }

    /// unreserved, sub-delims, ":", "@", "/" and "?" (RFC 3986 §3.3, §3.4).
    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
    }

    /// `path` escaped for a query value such as `next=`.
    static func escaped(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "/-_"))) ?? "/"
    }

    /// The page a link was followed from, when the browser says and it is one of this site's
    /// (same host, a local path); nil otherwise.
    static func referringPage(_ headers: HTTPHeaders) -> String? {
        guard let referer = headers["Referer"], let url = URL(string: referer), let refererHost = url.host,
              url.port.map({ "\(refererHost):\($0)" }) ?? refererHost == headers["Host"]
        else { return nil }
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        return validated(path)
    }

    /// The sign-in page, coming back to `path` afterwards.
    static func signIn(returningTo path: String) -> String { "/login?next=" + escaped(path) }
}
