/// Where Redis listens: `redis://host:port` (TCP) or `unix:///path/to/redis.sock`.
public enum RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    /// Parses a `REDIS_URL`; nil when it is neither form.
    public init?(url: String) {
        if url.hasPrefix("unix://") {
            let path = String(url.dropFirst("unix://".count))
            guard path.hasPrefix("/") else { return nil }
            self = .unix(path: path)
        } else if url.hasPrefix("redis://") {
            var rest = url.dropFirst("redis://".count)
            if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
            let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let host = parts.first, !host.isEmpty else { return nil }
            let port = parts.count > 1 ? Int(parts[1]) : 6379
            guard let port, (1...65535).contains(port) else { return nil }
            self = .tcp(host: String(host), port: port)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): "redis://\(host):\(port)"
        case .unix(let path): "unix://\(path)"
        }
    }
}
