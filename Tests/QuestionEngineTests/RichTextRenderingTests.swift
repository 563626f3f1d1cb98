import Foundation
import QuestionEngine
import TestSupport
import Testing

/// One row of `Tests/Fixtures/rich-text-rendering.json`: a text as an author writes it, the tree
/// it becomes and the markup every renderer makes of it. The offline page's renderer is held to
/// the same rows in Chromium (Tests/browser/test_offline_study.py).
struct RenderingCase: Decodable, CustomStringConvertible, Sendable {
    var name: String
    var markdown: String
    var tree: JSONValue
    var html: String
    var description: String { name }

    static let all: [RenderingCase] = {
        let url = URL(fileURLWithPath: TestPaths.repository + "/Tests/Fixtures/rich-text-rendering.json")
        return (try? JSONDecoder().decode([RenderingCase].self, from: Data(contentsOf: url))) ?? []
    }()
}

@Suite("One rendering of rich text", .onTestThreads)
struct RichTextRenderingTests {
    @Test("the server reads each text into the fixture's tree and renders the fixture's markup", arguments: RenderingCase.all)
    func serverRendering(_ row: RenderingCase) throws {
        let read = try MarkdownReader().read(row.markdown)
        let tree = try JSONDecoder().decode(RichText.self, from: JSONEncoder().encode(row.tree))
        #expect(read == tree)
        #expect(RichTextHTML.render(tree) == row.html)
    }

    @Test("the fixture covers every block and inline the tree has")
    func coverage() throws {
        let text = try JSONEncoder().encode(RenderingCase.all.map(\.tree))
        let found = Set(types(in: try JSONSerialization.jsonObject(with: text)))
        #expect(found.isSuperset(of: ["paragraph", "code", "list", "table", "quote", "picture", "text", "emphasis", "strong", "sub", "sup", "break", "link"]))
        #expect(RenderingCase.all.count >= 8)
        let markup = RenderingCase.all.map(\.html).joined()
        for kind in ["keyword", "string", "comment", "number"] { #expect(markup.contains("<span class=\"tok-\(kind)\">"), "no \(kind) token") }
    }

    @Test("a listing of unclosed comments, strings or marks is highlighted in one pass and keeps every character", arguments: ["/*", "\"", "`", "#", "--", "<#"])
    func hostileListings(_ mark: String) throws {
        let code = String(repeating: mark + "a ", count: 20_000)
        for language in ["c", "javascript", "python", "sql", "powershell"] {
            let tokens = try #require(CodeHighlighter.tokens(code, language: language))
            #expect(tokens.map(\.text).joined() == code)
        }
        #expect(CodeHighlighter.tokens(code, language: "cobol") == nil)
    }
}

/// Every `type` value in a JSON value, at any depth.
private func types(in value: Any) -> [String] {
    switch value {
    case let object as [String: Any]: return ((object["type"] as? String).map { [$0] } ?? []) + object.values.flatMap(types(in:))
    case let array as [Any]: return array.flatMap(types(in:))
    default: return []
    }
}
