import Foundation
import Glibc
import HTTPServer

/// Where the site is and who is asking: the public origin (`PUBLIC_URL`) that absolute links
/// and the Origin check use whatever `Host` a proxy passes on, and the client's address, taken
/// from `X-Forwarded-For` only when the peer is a trusted proxy (`TRUSTED_PROXIES`).
struct SiteAddress: Sendable {
    /// `https://portal.example` (no trailing slash), or nil: then the request's own `Host`.
    var publicOrigin: String?
    /// Peers whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    var trustedProxies: [AddressRange] = []

    /// The client: the peer, or behind trusted proxies the right-most address of
    /// `X-Forwarded-For` that is not itself a trusted proxy.
    func clientAddress(of request: Request) -> String {
        let peer = request.remoteAddress
        guard isTrusted(peer) else { return peer }
        let forwarded = request.headers.values("X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for address in forwarded.reversed() {
            guard AddressRange.parseAddress(address) != nil else { return peer }  // garbage: believe nothing
            if !isTrusted(address) { return address }
        }
        return forwarded.first ?? peer
    }

    /// `https` when the request reached the site over TLS: its public origin says so, or a
    /// trusted proxy's `X-Forwarded-Proto`.
    func scheme(of head: RequestHead, peer: String) -> String {
        if let publicOrigin { return publicOrigin.hasPrefix("https://") ? "https" : "http" }
        if isTrusted(peer), let proto = head.headers["X-Forwarded-Proto"]?.lowercased(), proto == "https" || proto == "http" { return proto }
        return "http"
    }

    /// Whether an `Origin` header names this site: the public origin when one is set (a proxy
    /// may pass any `Host`), else this request's own host.
    func isOwnOrigin(_ origin: String, head: RequestHead) -> Bool {
        if let publicOrigin { return origin == publicOrigin }
        guard let host = Self.host(of: head) else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// An absolute link to a path of this site (share, join and live links): built from the
    /// public origin, or from the request when none is configured.
    func url(_ path: String, for head: RequestHead, peer: String) -> String {
        if let publicOrigin { return publicOrigin + path }
        let host = Self.host(of: head) ?? "127.0.0.1"
        return scheme(of: head, peer: peer) + "://" + host + path
    }

    /// Whether `address` is one of the trusted proxies.
    func isTrustedProxy(_ address: String) -> Bool { isTrusted(address) }

    private func isTrusted(_ address: String) -> Bool {
        guard !trustedProxies.isEmpty, let parsed = AddressRange.parseAddress(address) else { return false }
        return trustedProxies.contains { $0.contains(parsed) }
    }

    /// The request's `Host` when it is a plausible host name and port (the client chooses it).
    private static func host(of head: RequestHead) -> String? {
        head.headers["Host"].flatMap { isPlausibleHost($0) ? $0 : nil }
    }

    /// Host names and ports only: a `Host` header is the client's to choose.
    private static func isPlausibleHost(_ host: String) -> Bool {
        !host.isEmpty && host.count <= 255 && host.utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || "-.:[]".utf8.contains(byte)
        }
    }
}

/// An IPv4 or IPv6 address range in CIDR notation (`10.0.0.0/8`, `::1/128`, or one address).
struct AddressRange: Sendable, Equatable {
    let bytes: [UInt8]
    let prefix: Int

    /// Parses `address` or `address/prefix`; nil when it is neither.
    init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let bytes = Self.parseAddress(first) else { return nil }
        let maximum = bytes.count * 8
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...maximum).contains(prefix) else { return nil }
            self.prefix = prefix
        } else {
            prefix = maximum
        }
        self.bytes = bytes
    }

    /// Whether `address` (as `parseAddress` gives it) lies in the range.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var remaining = prefix
        for index in 0..<bytes.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if address[index] & mask != bytes[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// An address's bytes (4 for IPv4, 16 for IPv6; an IPv4-mapped IPv6 address as IPv4).
    static func parseAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}
