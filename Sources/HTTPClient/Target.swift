import Foundation

/// Where a request goes: scheme, host, port and path, with the rule on plain HTTP applied.
struct Target {
    let secure: Bool
    let host: String
    let port: Int
    let path: String
    /// The `Host` field: the name, with the port when it is not the scheme's.
    let hostHeader: String

    init(_ address: String, allowsLoopbackHTTP: Bool) throws(ClientError) {
        guard let components = URLComponents(string: address), let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = components.host, !host.isEmpty, components.user == nil else { throw .invalidAddress(address) }
        secure = scheme == "https"
        // Plain HTTP only to this machine (the addresses it resolves to are checked as any are).
        if !secure {
            let loopback = ["127.0.0.1", "::1", "localhost"].contains(host.lowercased()) || host.hasPrefix("127.")
            guard allowsLoopbackHTTP, loopback else { throw .plainHTTPRefused(address) }
        }
        // A bracketed IPv6 literal is resolved without its brackets.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (secure ? 443 : 80)
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + query
        let name = self.host.contains(":") ? "[\(self.host)]" : self.host
        hostHeader = components.port == nil ? name : "\(name):\(port)"
    }
}
