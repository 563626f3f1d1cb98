/// An absolute address someone else gave (an LMS's `target_link_uri`), taken apart strictly to
/// decide whether it is on this site: scheme, host and port must equal the site's own (its
/// public origin, else the request's); there may be no user part; the path must begin with
/// exactly one `/` and pass `LocalPath` (no backslash, no blank, tab or line break, no
/// `//`). What is redirected to afterwards is written from the parsed path and query, never the
/// address as given.
struct SiteTarget: Sendable, Equatable {
    var path: String
    var query: String?

    /// `address` as a place on the site whose origin is `origin` (`https://portal.example`,
    /// `http://127.0.0.1:8080`); nil when it is anywhere else or malformed.
    init?(_ address: String, origin: String) {
        guard let target = Self.parts(address), let own = Self.parts(origin), own.path.isEmpty || own.path == "/" else { return nil }
        guard target.scheme == own.scheme, target.host == own.host, target.port == own.port else { return nil }
        var path = target.path.isEmpty ? "/" : target.path
        if let query = target.query { path += "?" + query }
        guard let checked = LocalPath.validated(path) else { return nil }
        let split = checked.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.path = String(split[0])
        query = split.count > 1 ? String(split[1]) : nil
    }

    private struct Parts {
        var scheme: String
        var host: String
        var port: Int
        var path: String
        var query: String?
    }

    /// `scheme://host[:port]path[?query][#fragment]`, with ASCII only and nothing invisible
    /// anywhere (browsers drop tabs and line breaks from addresses, which would turn `/\t/x`
    /// into `//x`).
    private static func parts(_ address: String) -> Parts? {
        guard address.utf8.count <= 2000, address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        guard let separator = address.range(of: "://") else { return nil }
        let scheme = address[..<separator.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else { return nil }
        var rest = address[separator.upperBound...]
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "\\" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var remainder = rest[authorityEnd...]
        guard !authority.isEmpty, !authority.contains("@"), !remainder.hasPrefix("\\") else { return nil }
        var host = authority.lowercased(), port = scheme == "https" ? 443 : 80
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
            guard let number = Int(host[host.index(after: colon)...]), (1...65_535).contains(number) else { return nil }
            port = number
            host = String(host[..<colon])
        }
        guard !host.isEmpty, host.utf8.allSatisfy({ byte in
            (48...57).contains(byte) || (97...122).contains(byte) || "-.[]:".utf8.contains(byte)
        }) else { return nil }
        var query: String?
        if let mark = remainder.firstIndex(of: "?") {
            query = String(remainder[remainder.index(after: mark)...])
            remainder = remainder[..<mark]
        }
        return Parts(scheme: scheme, host: host, port: port, path: String(remainder), query: query)
    }
}
