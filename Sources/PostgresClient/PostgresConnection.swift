internal import CLibPQ
import Foundation
import Glibc

/// One connection to PostgreSQL. A connection serves one thread at a time; the pool hands it
/// from thread to thread, never to two at once.
///
/// Nothing is set at startup beyond the encoding and the application's name (a connection
/// pooler in transaction mode refuses startup `options`, and would not carry session settings
/// from one transaction to the next anyway): the roles' own defaults (`ALTER ROLE … SET`, a
/// migration) give every session ISO dates in UTC. Timestamps are read whatever their offset.
public final class PostgresConnection: @unchecked Sendable {
    /// How prepared statements are named on the server.
    public enum StatementNaming: Sendable {
        /// Named after a hash of the SQL text: the same text has the same name on every server
        /// connection, so two texts can never be confused (and PgBouncer ≥ 1.21 can track them).
        case hashed
        /// Unnamed statements only (parse, bind and execute in one flight): for a connection
        /// pooler in transaction mode, where the next statement may reach another server.
        case unnamed
    }

    private var handle: OpaquePointer?
    private var preparedNames: [String: String] = [:]
    private let naming: StatementNaming

    /// How many times this connection has waited for the server: each statement run on its
    /// own, each statement prepared, each pipeline once. Pages are held to a count in tests.
    public private(set) var roundTrips = 0

    /// Opens a connection from a `postgresql://` URL (several hosts and `target_session_attrs`
    /// work as libpq documents). `overrides` replace keywords of the URL (for example
    /// `["dbname": "other"]`) without any string being spliced together.
    public init(url: String, overrides: [String: String] = [:], naming: StatementNaming = .hashed) throws {
        self.naming = naming
        var parameters: [(String, String)] = [("dbname", url)]
        parameters += overrides.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        parameters.append(("client_encoding", "UTF8"))
        if overrides["connect_timeout"] == nil { parameters.append(("connect_timeout", "5")) }
        if overrides["application_name"] == nil { parameters.append(("application_name", "portal")) }

        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let connection = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordBuffer in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valueBuffer in
                PQconnectdbParams(keywordBuffer.baseAddress, valueBuffer.baseAddress, 1)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .connection, message: "out of memory opening a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw PostgresError(kind: .connection, message: message)
        }
        // Server notices (and the FATAL a restarting server sends to idle sessions) are not
        // printed: errors reach callers as thrown PostgresErrors instead.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { close() }

    /// Closes the connection; later calls fail with a connection error.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// Whether the connection is open and idle outside a transaction.
    ///
    /// An idle connection's socket has nothing to read; if it has (a FATAL message, the end
    /// of the stream), the server ended the session, and that is noticed here rather than by
    /// the next query.
    public var isHealthy: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) == PQTRANS_IDLE else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 0)
        return ready == 0
    }

    /// Whether a transaction is open (or failed and not yet rolled back).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Whether the connection is broken beyond repair.
    public var isBroken: Bool {
        guard let handle else { return true }
        return PQstatus(handle) != CONNECTION_OK
    }

    /// Runs a statement and returns its rows.
    @discardableResult
    public func query(_ sql: SQL) throws -> QueryResult {
        try run(sql, mayRetry: true)
    }

    private func run(_ sql: SQL, mayRetry: Bool) throws -> QueryResult {
        guard let handle else { throw PostgresError(kind: .connection, message: "connection is closed") }
        if sql.isPrepared && naming == .hashed && preparedNames[sql.text] == nil {
            // New to this connection: prepared and run in one flight, not a wait for each.
            return try pipeline([sql])[0]
        }
        try Self.checkBindings(sql)
        let values = sql.bindings.map { $0.map { strdup($0.text) } ?? nil }
        defer { values.forEach { free($0) } }
        roundTrips += 1
        let result: OpaquePointer? = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            if sql.isPrepared && naming == .hashed, let name = preparedNames[sql.text] {
                return PQexecPrepared(handle, name, Int32(buffer.count), buffer.baseAddress, nil, nil, 0)
            }
            return PQexecParams(handle, sql.text, Int32(buffer.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        do {
            return try check(result, handle: handle)
        } catch let error as PostgresError where mayRetry && error.sqlState == "26000" && sql.isPrepared && !isInTransaction {
            // The server no longer knows the statement (a pooler gave us another server
            // connection): prepare it again once, where nothing else of ours was under way.
            preparedNames[sql.text] = nil
            return try run(sql, mayRetry: false)
        }
    }

    private static func checkBindings(_ sql: SQL) throws {
        for binding in sql.bindings where binding?.text.utf8.contains(0) == true {
            throw PostgresError(kind: .invalidParameter, message: "a parameter contains a NUL byte, which PostgreSQL text cannot hold")
        }
    }

    /// Runs `statements` in one flight (libpq's pipeline mode) and returns their rows in order:
    /// one wait for the server however many there are. Outside a transaction they run as one
    /// implicit transaction — all or nothing, and `set_config(…, true)` in the first holds for
    /// the rest — ended by the pipeline's sync. The first error is thrown once every result
    /// is read; the statements after it did not run.
    public func pipeline(_ statements: [SQL]) throws -> [QueryResult] {
        // Through a pooler another server connection may lack, or already hold, a statement this
        // one prepared. Nothing ran (the implicit transaction rolled back), so the pipeline goes
        // again: after a missing one (26000) preparing everything afresh; after one held already
        // (42P05, recorded by `sendPipeline`: its name is its text's, so it is this very
        // statement) without preparing that one. Each retry learns a statement, so they end.
        var retries = 0
        while true {
            do {
                return try sendPipeline(statements)
            } catch let error as PostgresError where !isInTransaction && naming == .hashed && retries <= statements.count {
                switch error.sqlState {
                case "26000": preparedNames = [:]
                case "42P05": break
                default: throw error
                }
                retries += 1
            }
        }
    }

    private func sendPipeline(_ statements: [SQL]) throws -> [QueryResult] {
        guard let handle else { throw PostgresError(kind: .connection, message: "connection is closed") }
        for sql in statements { try Self.checkBindings(sql) }
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError(handle) }
        defer { _ = PQexitPipelineMode(handle) }
        roundTrips += 1
        // What each result read back is: a statement's rows, or a prepare to check.
        var expected: [(isPrepare: Bool, text: String)] = []
        var newNames: [String: String] = [:]
        for sql in statements {
            let values = sql.bindings.map { $0.map { strdup($0.text) } ?? nil }
            defer { values.forEach { free($0) } }
            let sent: Int32 = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
                guard sql.isPrepared && naming == .hashed else {
                    return PQsendQueryParams(handle, sql.text, Int32(buffer.count), nil, buffer.baseAddress, nil, nil, 0)
                }
                let name = preparedNames[sql.text] ?? newNames[sql.text] ?? {
                    let name = Self.statementName(sql.text)
                    newNames[sql.text] = name
                    expected.append((true, sql.text))
                    return PQsendPrepare(handle, name, sql.text, Int32(buffer.count), nil) == 1 ? name : ""
                }()
                guard !name.isEmpty else { return 0 }
                return PQsendQueryPrepared(handle, name, Int32(buffer.count), buffer.baseAddress, nil, nil, 0)
            }
            guard sent == 1 else { throw connectionError(handle) }
            expected.append((false, sql.text))
        }
        guard PQpipelineSync(handle) == 1 else { throw connectionError(handle) }
        var results: [QueryResult] = []
        var firstError: PostgresError?
        for item in expected {
            var result: OpaquePointer?
            while let next = PQgetResult(handle) {
                if result == nil { result = next } else { PQclear(next) }
            }
            guard let result else {
                firstError = firstError ?? connectionError(handle)
                continue
            }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                continue
            }
            do {
                let checked = try check(result, handle: handle)
                if item.isPrepare {
                    preparedNames[item.text] = newNames[item.text]
                } else {
                    results.append(checked)
                }
            } catch let error as PostgresError where item.isPrepare && error.sqlState == "42P05" {
                // Held already by this server connection under its text's own name: known from now on.
                preparedNames[item.text] = newNames[item.text]
                firstError = firstError ?? error
            } catch let error as PostgresError {
                firstError = firstError ?? error
            }
        }
        // The sync's own result closes the pipeline; outside a transaction it is also the
        // implicit transaction's commit. Until it arrives nothing is known to be stored: an
        // error at the commit, or a connection lost before the sync, is the pipeline's failure.
        var synced = false
        while let next = PQgetResult(handle) {
            let status = PQresultStatus(next)
            if status == PGRES_PIPELINE_SYNC {
                PQclear(next)
                synced = true
                break
            }
            if status == PGRES_FATAL_ERROR, firstError == nil {
                do { _ = try check(next, handle: handle) } catch let error as PostgresError { firstError = error }
            } else {
                PQclear(next)
            }
        }
        if !synced { firstError = firstError ?? connectionError(handle) }
        if let firstError { throw firstError }
        return results
    }

    private func connectionError(_ handle: OpaquePointer) -> PostgresError {
        PostgresError(kind: .connection, message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A notice of `NOTIFY` received on a channel this connection listens to.
    public struct Notification: Sendable, Equatable {
        public var channel: String
        public var payload: String
    }

    /// Starts listening to `channel` (`LISTEN`; a direct connection — a pooler in transaction
    /// mode cannot keep a listener).
    public func listen(_ channel: PostgresIdentifier) throws {
        try execute("LISTEN \(identifier: channel)")
    }

    /// Waits up to `timeout` seconds for notifications and returns those that arrived (none
    /// when the time ran out). Throws when the connection is lost.
    public func notifications(timeout: TimeInterval) throws -> [Notification] {
        guard let handle else { throw PostgresError(kind: .connection, message: "connection is closed") }
        var received = Self.drainNotifications(handle)
        guard received.isEmpty else { return received }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout) * 1000))
        if ready < 0 && errno != EINTR { throw PostgresError(kind: .connection, message: "waiting for notifications failed") }
        guard ready > 0 else { return [] }
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { throw connectionError(handle) }
        received = Self.drainNotifications(handle)
        return received
    }

    private static func drainNotifications(_ handle: OpaquePointer) -> [Notification] {
        var received: [Notification] = []
        while let notice = PQnotifies(handle) {
            received.append(Notification(channel: String(cString: notice.pointee.relname), payload: String(cString: notice.pointee.extra)))
            PQfreemem(notice)
        }
        return received
    }

    /// Runs a statement for its effect; returns the number of rows it touched.
    @discardableResult
    public func execute(_ sql: SQL) throws -> Int {
        try query(sql).affectedRows
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    @discardableResult
    public func withTransaction<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
        try execute("BEGIN")
        let value: Value
        do {
            value = try body(self)
        } catch {
            if !isBroken { _ = try? execute("ROLLBACK") }
            throw error
        }
        try execute("COMMIT")
        return value
    }

    /// Runs `body` in a transaction whose first statement sets transaction-local settings
    /// (`set_config(name, value, true)`, one statement for all of them).
    @discardableResult
    public func withTransaction<Value>(settings: [String: String], _ body: (PostgresConnection) throws -> Value) throws -> Value {
        try withTransaction(settings: settings, first: []) { connection, _ in try body(connection) }
    }

    /// Like `withTransaction(settings:_:)`, with `first` sent in the same flight as BEGIN and
    /// the settings; `body` gets their rows. A body that ends with `commit(after:)` has its
    /// last writes and the COMMIT in one flight too.
    @discardableResult
    public func withTransaction<Value>(
        settings: [String: String], first: [SQL], _ body: (PostgresConnection, [QueryResult]) throws -> Value
    ) throws -> Value {
        let results = try begin(settings, first)
        let value: Value
        do {
            value = try body(self, results)
        } catch {
            if !isBroken && isInTransaction { _ = try? execute("ROLLBACK") }
            throw error
        }
        if isInTransaction { try execute("COMMIT") }
        return value
    }

    /// Runs `statements` and then COMMIT, in one flight, ending the open transaction; their
    /// rows come back. When one fails nothing of the transaction is kept (the caller rolls back).
    public func commit(after statements: [SQL]) throws -> [QueryResult] {
        Array(try pipeline(statements + ["COMMIT"]).dropLast())
    }

    /// Reads with `statements` under transaction-local `settings`, in one flight: outside a
    /// transaction they form one implicit transaction (no BEGIN, no COMMIT to wait for).
    public func read(settings: [String: String], _ statements: [SQL]) throws -> [QueryResult] {
        guard !isInTransaction else { return try pipeline(statements) }
        return Array(try pipeline([Self.settingStatement(settings)] + statements).dropFirst())
    }

    /// BEGIN, the settings and `first` in one flight; their rows. On failure nothing is left open.
    private func begin(_ settings: [String: String], _ first: [SQL]) throws -> [QueryResult] {
        for attempt in 0..<2 {
            do {
                return Array(try pipeline(["BEGIN", Self.settingStatement(settings)] + first).dropFirst(2))
            } catch let error as PostgresError {
                if !isBroken && isInTransaction { _ = try? execute("ROLLBACK") }
                // Through a pooler another server connection may lack a prepared statement:
                // once more, preparing again.
                guard attempt == 0, error.sqlState == "26000", naming == .hashed else { throw error }
                preparedNames = [:]
            }
        }
        return []
    }

    /// `set_config(name, value, true)` for each setting, in one statement.
    static func settingStatement(_ settings: [String: String]) -> SQL {
        let names = settings.keys.sorted()
        let values = names.map { settings[$0] ?? "" }
        return ("SELECT set_config(unnest(\(names)::text[]), unnest(\(values)::text[]), true)" as SQL).prepared()
    }

    /// Runs `body` under a savepoint inside the current transaction: when it throws, what it did
    /// is undone and the transaction goes on as before it (the error is rethrown). Savepoints
    /// nest: each refers to the innermost of the same name.
    @discardableResult
    public func withSavepoint<Value>(_ body: () throws -> Value) throws -> Value {
        try execute("SAVEPOINT portal_savepoint")
        let value: Value
        do {
            value = try body()
        } catch {
            if !isBroken {
                try execute("ROLLBACK TO SAVEPOINT portal_savepoint")
                try execute("RELEASE SAVEPOINT portal_savepoint")
            }
            throw error
        }
        try execute("RELEASE SAVEPOINT portal_savepoint")
        return value
    }

    /// Runs a trusted script of several statements with no parameters (migration files only).
    func runScript(_ script: String) throws {
        guard let handle else { throw PostgresError(kind: .connection, message: "connection is closed") }
        roundTrips += 1
        try check(PQexec(handle, script), handle: handle)
    }

    /// `portal_` and 128 bits of a hash of the text (FNV-1a over two seeds): a name that means
    /// this statement on every connection.
    static func statementName(_ text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325, second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 1
        }
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "portal_" + hex(first) + hex(second)
    }

    @discardableResult
    private func check(_ result: OpaquePointer?, handle: OpaquePointer) throws -> QueryResult {
        guard let result else {
            throw PostgresError(kind: .connection, message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return QueryResult(handle: result)
        default:
            func field(_ code: Character) -> String? {
                guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
                return String(cString: value)
            }
            let sqlState = field("C")
            let message = field("M") ?? String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            let error = PostgresError(
                kind: PQstatus(handle) == CONNECTION_OK && sqlState != nil ? .server : .connection,
                message: message, sqlState: sqlState, detail: field("D"), constraint: field("n"))
            PQclear(result)
            throw error
        }
    }
}
