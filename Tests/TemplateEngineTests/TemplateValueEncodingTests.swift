import Foundation
import TemplateEngine
import Testing

/// Page structs become template data without a JSON round trip; the result must be what the
/// round trip gave, which templates were written against.
@Suite("Template values from Encodable pages")
struct TemplateValueEncodingTests {
    enum Mode: String, Encodable { case practice, mock }

    struct Row: Encodable {
        var rank: Int
        var name: String
        var accuracy: Double
        var viewer: Bool
        var note: String?
    }

    struct Nothing: Encodable {}

    struct Custom: Encodable {
        var parts: [String]
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            for part in parts { try list.encode(part) }
            try list.encodeNil()
            var nested = list.nestedContainer(keyedBy: CodingKeysForCustom.self)
            try nested.encode(parts.count, forKey: .count)
        }
        enum CodingKeysForCustom: String, CodingKey { case count }
    }

    struct Page: Encodable {
        var title = "Réseaux — 日本語 <b>&</b>"
        var whole = 3.0
        var fraction = 2.5
        var negativeZero = -0.0
        var huge = 1e20
        var small: Float = 0.1
        var count: Int64 = 42
        var unsigned: UInt8 = 7
        var flag = true
        var missing: Int? = nil
        var present: Int? = 5
        var mode = Mode.mock
        var id = UUID(uuidString: "00000000-0000-4000-8000-0000000000a1")!
        var when = Date(timeIntervalSince1970: 1_700_000_000.75)
        var link = URL(string: "https://example.com/a?b=c")!
        var rows = [Row(rank: 1, name: "Ana", accuracy: 87.5, viewer: false, note: nil), Row(rank: 2, name: "Bo", accuracy: 80, viewer: true, note: "you")]
        var empty: [Row] = []
        var byName = ["b": 2, "a": 1]
        var nothing = Nothing()
        var custom = Custom(parts: ["x", "y"])
        var nested: [[Int?]] = [[1, nil], []]
    }

    /// The old way: to JSON and back.
    static func roundTrip<Value: Encodable>(_ value: Value) throws -> TemplateValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try JSONDecoder().decode(TemplateValue.self, from: encoder.encode(value))
    }

    @Test("every kind of field converts exactly as the JSON round trip did")
    func sameAsRoundTrip() throws {
        let direct = try TemplateValue(encoding: Page())
        #expect(direct == (try Self.roundTrip(Page())))
        guard case .object(let fields) = direct else { Issue.record("not an object"); return }
        #expect(fields["whole"] == .int(3) && fields["fraction"] == .double(2.5) && fields["missing"] == nil)
        #expect(fields["when"] == .string("2023-11-14T22:13:20Z"))
    }
}
