/// A reply from Redis, in the RESP2 types hiredis reports.
public enum RedisReply: Sendable, Equatable {
    case string(String)
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null

    /// The text of a string or status reply.
    public var text: String? {
        switch self {
        case .string(let text), .status(let text): text
        default: nil
        }
    }

    /// The number of an integer reply, or of a string that holds one (sorted-set scores).
    public var number: Int? {
        switch self {
        case .integer(let value): value
        case .string(let text): Int(text) ?? Double(text).map { Int($0) }
        default: nil
        }
    }

    /// The elements of an array reply (empty otherwise).
    public var elements: [RedisReply] {
        if case .array(let items) = self { return items }
        return []
    }
}

/// Redis could not be reached, dropped the connection, or answered with an error.
public struct RedisError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case connection, reply }
    public var kind: Kind
    public var message: String
    public var description: String { "Redis \(kind == .connection ? "connection" : "error"): \(message)" }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
