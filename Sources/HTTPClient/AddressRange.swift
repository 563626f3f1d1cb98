import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address range in CIDR notation (`10.0.0.0/8`, `::1/128`, or one address).
public struct AddressRange: Sendable, Equatable {
    public let bytes: [UInt8]
    public let prefix: Int

    /// Parses `address` or `address/prefix`; nil when it is neither.
    public init?(_ text: String) {
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
    public func contains(_ address: [UInt8]) -> Bool {
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
    public static func parseAddress(_ text: String) -> [UInt8]? {
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
