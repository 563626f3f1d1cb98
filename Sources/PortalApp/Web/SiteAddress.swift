import Foundation
import HTTPClient
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
