internal import CLibPQ

/// The rows a statement returned. Values are read lazily from libpq's result, which is freed
/// when the last reference to this object goes away.
public final class QueryResult {
    private let handle: OpaquePointer
    /// The number of rows.
    public let count: Int
    /// The column names, in order.
    public let columns: [String]
    private let columnIndex: [String: Int]
    /// The number of rows an INSERT, UPDATE or DELETE touched (0 for other statements).
    public let affectedRows: Int

    init(handle: OpaquePointer) {
        self.handle = handle
        count = Int(PQntuples(handle))
        let fields = Int(PQnfields(handle))
        var names: [String] = []
        var index: [String: Int] = [:]
        for field in 0..<fields {
            let name = String(cString: PQfname(handle, Int32(field)))
            names.append(name)
            if index[name] == nil { index[name] = field }
        }
        columns = names
        columnIndex = index
        affectedRows = Int(String(cString: PQcmdTuples(handle))) ?? 0
    }

    deinit { PQclear(handle) }

    /// The rows, in order.
    public var rows: [PostgresRow] { (0..<count).map { PostgresRow(result: self, index: $0) } }

    /// The first row, if any.
    public var first: PostgresRow? { count > 0 ? PostgresRow(result: self, index: 0) : nil }

    /// The one row a statement always returns (an aggregate, `RETURNING` of an insert that did
    /// not conflict); a missing row is a thrown error for the caller's request, never a crash.
    public func single() throws -> PostgresRow {
        guard let first else { throw PostgresError(kind: .server, message: "a statement that returns one row returned none") }
        return first
    }

    func columnNumber(_ name: String) throws -> Int {
        guard let number = columnIndex[name] else {
            throw PostgresError(kind: .decoding, message: "no such column in the result", column: name)
        }
        return number
    }

    func typeOID(column: Int) -> UInt32 { UInt32(PQftype(handle, Int32(column))) }

    func isNull(row: Int, column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    func text(row: Int, column: Int) -> String {
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard let pointer = PQgetvalue(handle, Int32(row), Int32(column)) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}

/// One row of a `QueryResult`.
public struct PostgresRow {
    let result: QueryResult
    let index: Int

    /// Reads a non-NULL column as `Value`; NULL or a value of another type is an error naming the column.
    ///
    ///     let title = try row.decode("title", as: String.self)
    public func decode<Value: PostgresDecodable>(_ column: String, as type: Value.Type) throws -> Value {
        guard let value = try decode(column, as: Value?.self) else {
            throw PostgresError(kind: .decoding, message: "is NULL but \(Value.self) was expected", column: column)
        }
        return value
    }

    /// Reads a column that may be NULL.
    public func decode<Value: PostgresDecodable>(_ column: String, as type: Value?.Type) throws -> Value? {
        let number = try result.columnNumber(column)
        let oid = result.typeOID(column: number)
        guard Value.accepts(typeOID: oid) else {
            throw PostgresError(
                kind: .decoding, message: "has type OID \(oid), which cannot be read as \(Value.self)", column: column)
        }
        if result.isNull(row: index, column: number) { return nil }
        let text = result.text(row: index, column: number)
        guard let value = Value(postgresText: text[...]) else {
            throw PostgresError(kind: .decoding, message: "value is not a valid \(Value.self)", column: column)
        }
        return value
    }

    /// Reads a `json`/`jsonb` column into a `Decodable` value.
    public func decodeJSON<Value: Decodable>(_ column: String, as type: Value.Type) throws -> Value {
        let json = try decode(column, as: PostgresJSON.self)
        do {
            return try json.decoded(as: Value.self)
        } catch {
            throw PostgresError(kind: .decoding, message: "JSON does not decode as \(Value.self): \(error)", column: column)
        }
    }
}
