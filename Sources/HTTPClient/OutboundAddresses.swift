/// Which addresses the portal's own requests may reach: the public internet only. A URL the
/// portal fetches on someone's word (a discovery document, a key set, a token endpoint, a
/// roster from a launch's claims) could otherwise name this machine or the private network
/// behind it. Loopback, private, link-local, shared (CGNAT), multicast, unique-local,
/// reserved and unspecified addresses are refused, in their IPv4-mapped and IPv4-compatible
/// forms too, unless an exception says otherwise.
public struct OutboundAddresses: Sendable, Equatable {
    /// Ranges opened on purpose (`OUTBOUND_ALLOW`, a list of CIDRs).
    public var allowed: [AddressRange]
    /// Loopback opened (`OUTBOUND_ALLOW_LOOPBACK_HTTP=1`: tests and rehearsals on one machine).
    public var allowsLoopback: Bool

    public init(allowed: [AddressRange] = [], allowsLoopback: Bool = false) {
        self.allowed = allowed
        self.allowsLoopback = allowsLoopback
    }

    private static let loopback = ["127.0.0.0/8", "::1/128"].compactMap(AddressRange.init)

    /// Never reached unless allowed (RFC 6890's special-purpose registries, in short).
    private static let refused = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24",
        "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        "::/128", "64:ff9b:1::/48", "100::/64", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    ].compactMap(AddressRange.init)

    /// Whether an address (4 or 16 bytes; an IPv4-mapped one already as 4) may be reached.
    public func permits(_ address: [UInt8]) -> Bool {
        var address = address
        // ::a.b.c.d (IPv4-compatible) and 64:ff9b::a.b.c.d (NAT64) carry an IPv4 address too.
        if address.count == 16, address[0..<12].allSatisfy({ $0 == 0 }), address[12...].contains(where: { $0 != 0 }), address != Array(repeating: 0, count: 15) + [1] {
            address = Array(address[12...])
        } else if address.count == 16, address[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            address = Array(address[12...])
        }
        if allowed.contains(where: { $0.contains(address) }) { return true }
        if Self.loopback.contains(where: { $0.contains(address) }) { return allowsLoopback }
        return !Self.refused.contains { $0.contains(address) }
    }
}
