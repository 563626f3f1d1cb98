import Synchronization

/// An open `text/event-stream` response (Server-Sent Events). Send to it from any thread; the
/// bytes are written by the connection's event loop, so no worker is held while it is open.
public final class EventStream: Sendable {
    private struct State {
        var closed = false
        var onClose: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    private let deliver: @Sendable ([UInt8]) -> Void
    private let finish: @Sendable () -> Void

    init(deliver: @escaping @Sendable ([UInt8]) -> Void, finish: @escaping @Sendable () -> Void) {
        self.deliver = deliver
        self.finish = finish
    }

    /// Sends one event. Lines of `data` become separate `data:` lines, as the format requires.
    public func send(event: String? = nil, id: String? = nil, data: String) {
        var text = ""
        if let event { text += "event: \(Self.singleLine(event))\n" }
        if let id { text += "id: \(Self.singleLine(id))\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line.replacingCarriageReturns)\n"
        }
        text += "\n"
        send(raw: Array(text.utf8))
    }

    /// Sends a comment line, which keeps intermediaries from timing the stream out.
    public func sendComment(_ comment: String) {
        send(raw: Array(": \(Self.singleLine(comment))\n\n".utf8))
    }

    private func send(raw: [UInt8]) {
        guard !isClosed else { return }
        deliver(raw)
    }

    /// Ends the stream and the connection.
    public func close() {
        guard markClosed() else { return }
        finish()
    }

    /// Whether the stream has ended (closed by either side).
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Runs `callback` once when the stream ends, whoever ends it; at once if it already has.
    public func onClose(_ callback: @escaping @Sendable () -> Void) {
        let alreadyClosed = state.withLock { state -> Bool in
            if state.closed { return true }
            state.onClose.append(callback)
            return false
        }
        if alreadyClosed { callback() }
    }

    /// Called by the connection when the peer went away or the server is stopping.
    func connectionClosed() {
        _ = markClosed()
    }

    private func markClosed() -> Bool {
        let callbacks = state.withLock { state -> [@Sendable () -> Void]? in
            if state.closed { return nil }
            state.closed = true
            defer { state.onClose.removeAll() }
            return state.onClose
        }
        guard let callbacks else { return false }
        callbacks.forEach { $0() }
        return true
    }

    private static func singleLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

extension Substring {
    var replacingCarriageReturns: String { String(map { $0 == "\r" ? " " : $0 }) }
}
