import Foundation
import Synchronization
import Testing
import TemplateEngine

/// A store in memory that counts what it kept.
final class MemoryFragments: FragmentStore {
    let kept = Mutex<[String: [UInt8]]>([:])
    func fragment(_ key: String, render: () throws -> [UInt8]) throws -> [UInt8] {
        if let bytes = kept.withLock({ $0[key] }) { return bytes }
        let bytes = try render()
        kept.withLock { $0[key] = bytes }
        return bytes
    }
}

/// How many times a fragment's data was read.
final class ReadCount: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

@Suite("Template fragments")
struct FragmentTests {
    let set: TemplateSet

    init() throws {
        set = try TemplateSet(templates: [
            "page": "<p>{{viewer}}</p>{{%board}}<ol>{{#rows}}<li>{{name}}</li>{{/rows}}</ol>{{/board}}",
            "nosy": "{{%board}}[{{viewer}}]{{/board}}",
        ], catalogs: [MessageCatalog(locale: "en", messages: [:]), MessageCatalog(locale: "ja", messages: [:])])
    }

    private func render(_ name: String = "page", viewer: String, key: String = "v1", locale: String = "en",
                        store: MemoryFragments, reads: ReadCount, rows: [String] = ["Ada", "Grace"]) throws -> String {
        let board = Fragment(key: key) { () -> TemplateValue in
            reads.add()
            return .object(["rows": .list(rows.map { .object(["name": .string($0)]) })])
        }
        let bytes = try set.render(
            name, value: .object(["viewer": .string(viewer)]), locale: locale, now: Date(), fragments: ["board": board], store: store)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("a fragment is read and rendered once per key, and the rest of the page every time")
    func renderedOncePerKey() throws {
        let store = MemoryFragments(), reads = ReadCount()
        #expect(try render(viewer: "Ada", store: store, reads: reads) == "<p>Ada</p><ol><li>Ada</li><li>Grace</li></ol>")
        #expect(try render(viewer: "Grace", store: store, reads: reads, rows: ["changed"]) == "<p>Grace</p><ol><li>Ada</li><li>Grace</li></ol>")
        #expect(reads.value == 1)
        // A new key (the content changed) reads again; so does another language.
        #expect(try render(viewer: "Grace", key: "v2", store: store, reads: reads, rows: ["Linus"]) == "<p>Grace</p><ol><li>Linus</li></ol>")
        _ = try render(viewer: "Grace", key: "v2", locale: "ja", store: store, reads: reads)
        #expect(reads.value == 3)
    }

    @Test("a fragment cannot see the page around it, so a reader's data never enters it")
    func isolated() throws {
        let store = MemoryFragments(), reads = ReadCount()
        let error = #expect(throws: TemplateError.self) { try render("nosy", viewer: "Ada", store: store, reads: reads) }
        #expect(error?.message.contains("missing variable viewer") == true)
        let lenient = try TemplateSet(templates: ["nosy": "{{%board}}[{{viewer}}]{{/board}}"], catalogs: [MessageCatalog(locale: "en", messages: [:])], mode: .production)
        let html = try lenient.render(
            "nosy", value: .object(["viewer": .string("Ada")]), locale: "en", now: Date(),
            fragments: ["board": Fragment(key: "k") { TemplateValue.object([:]) }], store: store)
        #expect(String(decoding: html, as: UTF8.self) == "[]")
    }

    @Test("when a fragment's data cannot be read the caller gets that error and nothing is kept")
    func failingValue() throws {
        struct Unreachable: Error {}
        let store = MemoryFragments()
        #expect(throws: Unreachable.self) {
            try set.render("page", value: .object(["viewer": .string("Ada")]), locale: "en", now: Date(),
                           fragments: ["board": Fragment(key: "k") { () -> TemplateValue in throw Unreachable() }], store: store)
        }
        #expect(store.kept.withLock { $0.isEmpty })
    }
}
