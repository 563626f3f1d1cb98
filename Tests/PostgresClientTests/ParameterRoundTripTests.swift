import Foundation
import Identifiers
import PostgresClient
import TestSupport
import Testing

@Suite("Parameters and typed rows", .onTestThreads)
struct ParameterRoundTripTests {
    @Test("hostile and multilingual text comes back unchanged", arguments: [
        "it's \"quoted\"",
        #"back\slash \\ and \n literal"#,
        "$1 and $2 are not placeholders here",
        "'; DROP TABLE students; --",
        "試験に合格する",
        "การสอบผ่าน",
        "🎓📚✅ and a ZWJ family 👩‍👩‍👧",
        "",
        "line\nbreak\ttab",
    ])
    func textRoundTrips(_ value: String) throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let row = try #require(try connection.query("SELECT \(value)::text AS value, length(\(value)::text) AS length").first)
        #expect(try row.decode("value", as: String.self) == value)
        #expect(try row.decode("length", as: Int.self) == value.unicodeScalars.count)
    }

    @Test("arrays of text and uuids come back element for element, quotes, commas, NULL-looking text and all")
    func arraysRoundTrip() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let texts = ["plain", "with, comma", "with \"quote\"", "back\\slash", "NULL", "", "{braces}", "試験 🎓"]
        let row = try #require(try connection.query("SELECT \(texts)::text[] AS texts").first)
        #expect(try row.decode("texts", as: [String].self) == texts)
        let ids = (0..<50).map { _ in UUID() }
        #expect(try connection.query("SELECT \(ids)::uuid[] AS ids").first!.decode("ids", as: [UUID].self) == ids)
        #expect(try connection.query("SELECT '{}'::uuid[] AS ids").first!.decode("ids", as: [UUID].self) == [])
        #expect(throws: PostgresError.self) { try connection.query("SELECT ARRAY[NULL]::text[] AS texts").first!.decode("texts", as: [String].self) }
    }

    @Test("a uuid is written as PostgreSQL prints it: 36 lowercase characters")
    func uuidText() throws {
        for uuid in [UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, UUID(uuidString: "FFFFFFFF-ABCD-4EF0-9999-0123456789AB")!] {
            #expect(uuid.lowercasedText == uuid.uuidString.lowercased())
            // Read back as written, in either case, as Foundation reads it.
            #expect(UUID(text: uuid.lowercasedText) == uuid && UUID(text: uuid.uuidString) == uuid)
        }
        let id = "6f1c2f2e-8a3d-4c57-9d1e-2b8f0f6a4c11"
        for nearMiss in [String(id.dropLast()), id + "0", String(id.dropLast()) + "g", id.replacingOccurrences(of: "-", with: ""), "{" + id + "}",
                         " " + id, String(id.prefix(8)) + "_" + String(id.dropFirst(9)), "6f1c2f2e-8a3d4-c57-9d1e-2b8f0f6a4c11", ""] {
            #expect(UUID(text: nearMiss) == nil && UUID(uuidString: nearMiss) == nil, "\(nearMiss)")
        }
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let uuid = UUID()
        #expect(try connection.query("SELECT \(uuid)::uuid::text AS text").single().decode("text", as: String.self) == uuid.lowercasedText)
    }

    @Test("uuids are read in any case, and text that is not one is refused", arguments: [
        ("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", true), ("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0", true),
        ("0f1e2d3c4b5a69788796a5b4c3d2e1f0", false), ("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f", false),
        ("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f00", false), ("0g1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", false), ("", false),
    ])
    func uuidText(_ text: String, _ valid: Bool) {
        let parsed = UUID(postgresText: text[...])
        #expect((parsed != nil) == valid)
        if let parsed { #expect(parsed == UUID(uuidString: text)) }
    }

    @Test("values survive a table: stored, read back, and NULL stays NULL")
    func storedValuesRoundTrip() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try connection.execute("""
            CREATE TABLE samples (id uuid PRIMARY KEY, label text, count bigint, ratio double precision,
                                  flag boolean, at timestamptz, tags text[], numbers integer[], document jsonb)
            """)
        let id = UUID()
        let at = Date(timeIntervalSince1970: 1_737_000_000.123456)
        let tags = ["a,b", "quote\"d", "back\\slash", "NULL", "", "日本語"]
        let document = try PostgresJSON(encoding: ["question": "¿Qué?", "options": "[1,2]"])
        try connection.execute("""
            INSERT INTO samples VALUES (\(id), \(String?.none), \(Int64(9_007_199_254_740_993)), \(0.1), \(true),
                                        \(at), \(tags), \([3, -1, 0]), \(document)::jsonb)
            """)
        let row = try #require(try connection.query("SELECT * FROM samples WHERE id = \(id)").first)
        #expect(try row.decode("id", as: UUID.self) == id)
        #expect(try row.decode("label", as: String?.self) == nil)
        #expect(try row.decode("count", as: Int64.self) == 9_007_199_254_740_993)
        #expect(try row.decode("ratio", as: Double.self) == 0.1)
        #expect(try row.decode("flag", as: Bool.self))
        #expect(abs(try row.decode("at", as: Date.self).timeIntervalSince(at)) < 0.000_001)
        #expect(try row.decode("tags", as: [String].self) == tags)
        #expect(try row.decode("numbers", as: [Int].self) == [3, -1, 0])
        #expect(try row.decodeJSON("document", as: [String: String].self) == ["question": "¿Qué?", "options": "[1,2]"])
    }

    @Test("reading a column as the wrong type is an error that names the column")
    func typeMismatchNamesColumn() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let row = try #require(try connection.query("SELECT 'abc'::text AS title, NULL::int AS missing").first)
        let mismatch = #expect(throws: PostgresError.self) { try row.decode("title", as: Int.self) }
        #expect(mismatch?.column == "title")
        let null = #expect(throws: PostgresError.self) { try row.decode("missing", as: Int.self) }
        #expect(null?.column == "missing")
        #expect(try row.decode("missing", as: Int?.self) == nil)
    }

    @Test("a NUL byte in a parameter is refused instead of being cut off silently")
    func nulByteIsRefused() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT \("before\0after")::text") }
        #expect(error?.kind == .invalidParameter)
    }

    @Test("prepared statements give the same rows as unprepared ones, repeatedly")
    func preparedStatements() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        for value in [1, 2, 3] {
            let sql: SQL = "SELECT \(value) * 2 AS doubled"
            let row = try #require(try connection.query(sql.prepared()).first)
            #expect(try row.decode("doubled", as: Int.self) == value * 2)
        }
    }
}
