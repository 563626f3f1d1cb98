import Synchronization

/// Open connections per client address, shared by every event loop: past the limit an address
/// gets no more (idle keep-alive connections from one host cannot starve everyone else). An
/// exempt address (a proxy the server trusts, which carries many clients) is not counted.
final class AddressConnections: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    let limit: Int
    let isExempt: @Sendable (String) -> Bool

    init(limit: Int, isExempt: @escaping @Sendable (String) -> Bool) {
        self.limit = limit
        self.isExempt = isExempt
    }

    /// Counts a new connection from `address`; false (and not counted) when it is over the limit.
    func open(_ address: String) -> Bool {
        if isExempt(address) { return true }
        return counts.withLock { counts in
            let open = counts[address, default: 0]
            guard open < limit else { return false }
            counts[address] = open + 1
            return true
        }
    }

    /// Forgets a connection from `address`.
    func close(_ address: String) {
        if isExempt(address) { return }
        counts.withLock { counts in
            guard let open = counts[address] else { return }
            counts[address] = open > 1 ? open - 1 : nil
        }
    }
}
