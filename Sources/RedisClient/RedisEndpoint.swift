/// Where Redis listens: `redis://host:port` (TCP), `unix:///path/to/redis.sock`, or a Sentinel
/// set that names the current master, `redis-sentinel://host:port,host:port/mastername`.
public enum RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// A host and port.
    public struct Node: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    case tcp(host: String, port: Int)
    case unix(path: String)
    /// Ask these sentinels which server is the master called `master`, at every connect.
    case sentinel(sentinels: [Node], master: String)

    /// Parses a `REDIS_URL`; nil when it is none of the forms.
    public init?(url: String) {
        if url.hasPrefix("unix://") {
            let path = String(url.dropFirst("unix://".count))
            guard path.hasPrefix("/") else { return nil }
            self = .unix(path: path)
        } else if url.hasPrefix("redis://") {
            var rest = url.dropFirst("redis://".count)
            if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
            guard let node = Self.node(rest, defaultPort: 6379) else { return nil }
            self = .tcp(host: node.host, port: node.port)
        } else if url.hasPrefix("redis-sentinel://") {
            let rest = url.dropFirst("redis-sentinel://".count)
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let master = String(rest[rest.index(after: slash)...])
            let nodes = rest[..<slash].split(separator: ",").map { Self.node($0, defaultPort: 26379) }
            guard !master.isEmpty, !master.contains("/"), !nodes.isEmpty, nodes.allSatisfy({ $0 != nil }) else { return nil }
            self = .sentinel(sentinels: nodes.compactMap { $0 }, master: master)
        } else {
            return nil
        }
    }

    private static func node(_ text: Substring, defaultPort: Int) -> Node? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty else { return nil }
        let port = parts.count > 1 ? Int(parts[1]) : defaultPort
        guard let port, (1...65535).contains(port) else { return nil }
        return Node(host: String(host), port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): "redis://\(host):\(port)"
        case .unix(let path): "unix://\(path)"
        case .sentinel(let sentinels, let master): "redis-sentinel://" + sentinels.map { "\($0.host):\($0.port)" }.joined(separator: ",") + "/" + master
        }
    }
}
