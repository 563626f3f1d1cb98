/// An error from the PostgreSQL layer: a failed connection, a statement the server refused,
/// a value that could not be decoded, or a pool that had nothing to lend in time.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, broadly.
    public enum Kind: Sendable, Equatable {
        /// The connection could not be opened or was lost.
        case connection
        /// The server refused a statement; `sqlState` says why.
        case server
        /// A column could not be read as the requested Swift type.
        case decoding
        /// A parameter could not be sent (for example a string holding a NUL byte).
        case invalidParameter
        /// No pooled connection became free before the checkout timeout.
        case poolTimeout
        /// The pool has been shut down.
        case poolClosed
    }

    public var kind: Kind
    /// The five-character SQLSTATE code, when the server sent one.
    public var sqlState: String?
    /// The primary message.
    public var message: String
    /// The server's detail line, if any.
    public var detail: String?
    /// The violated constraint's name, if any.
    public var constraint: String?
    /// The column involved in a decoding error.
    public var column: String?

    public init(
        kind: Kind, message: String, sqlState: String? = nil, detail: String? = nil,
        constraint: String? = nil, column: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.constraint = constraint
        self.column = column
    }

    /// `23505`: a unique or primary-key constraint was violated.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// `23514`: a CHECK constraint was violated.
    public var isCheckViolation: Bool { sqlState == "23514" }
    /// `23503`: a foreign-key constraint was violated.
    public var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// `23502`: a NOT NULL constraint was violated.
    public var isNotNullViolation: Bool { sqlState == "23502" }
    /// `42501`: insufficient privilege, which is also what a row-level security policy raises.
    public var isInsufficientPrivilege: Bool { sqlState == "42501" }
    /// SQLSTATE class 08, or a connection that libpq reported as broken.
    public var isConnectionFailure: Bool {
        kind == .connection || (sqlState?.hasPrefix("08") ?? false) || sqlState == "57P01"
    }

    /// The database cannot serve this now, through no fault of the request: unreachable, no
    /// connection free in time, a statement or lock wait that ran out (`statement_timeout`,
    /// `lock_timeout`), a server shutting down or starting, a read-only server after a
    /// failover. Worth answering "try again shortly".
    public var isTemporarilyUnavailable: Bool {
        if isConnectionFailure || kind == .poolTimeout || kind == .poolClosed { return true }
        guard let sqlState else { return false }
        return ["57014", "55P03", "57P01", "57P02", "57P03", "25006", "40001", "40P01"].contains(sqlState)
    }

    public var description: String {
        var text = "PostgreSQL \(kind)"
        if let sqlState { text += " [\(sqlState)]" }
        text += ": \(message)"
        if let column { text += " (column \"\(column)\")" }
        if let constraint { text += " (constraint \"\(constraint)\")" }
        if let detail { text += " — \(detail)" }
        return text
    }
}
