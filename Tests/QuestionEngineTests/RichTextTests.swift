import Foundation
import QuestionEngine
import Testing
import TestSupport

/// Question text written in markdown: what an author writes, the tree it becomes, the HTML a
/// student sees and the words search sees — and what is refused, with the line it is on.
@Suite("Rich question text", .onTestThreads)
struct RichTextTests {
    private func html(_ markdown: String) throws -> String { RichTextHTML.render(try MarkdownReader().read(markdown)) }

    private func refusal(_ markdown: String) -> MarkdownReader.Problem? {
        do { _ = try MarkdownReader().read(markdown); return nil } catch { return error }
    }

    @Test("a paragraph wrapped over lines is one paragraph; two spaces or a backslash at a line's end break it")
    func paragraphsAndBreaks() throws {
        #expect(try html("Which protocol\nresolves names\n   to addresses?") == "<p>Which protocol resolves names to addresses?</p>")
        #expect(try html("Line one  \nline two\\\nline three\n\nNext paragraph.") == "<p>Line one<br>line two<br>line three</p><p>Next paragraph.</p>")
    }

    @Test("emphasis, strong, code, sub- and superscripts; snake_case and a lone mark stay as written")
    func inlines() throws {
        #expect(try html("**Strong** and *emphasis* and _this_, H~2~O, E = mc^2^, `a*b<c`") ==
            "<p><strong>Strong</strong> and <em>emphasis</em> and <em>this</em>, H<sub>2</sub>O, E = mc<sup>2</sup>, <code>a*b&lt;c</code></p>")
        #expect(try html("call snake_case_name with 2 * 3 and costs $5 ~ roughly") == "<p>call snake_case_name with 2 * 3 and costs $5 ~ roughly</p>")
        #expect(try html(#"\*not emphasis\* and \`not code\`"#) == "<p>*not emphasis* and `not code`</p>")
    }

    @Test("a table keeps its header, alignment, cells (pipes inside code too) and caption; header cells have scope")
    func table() throws {
        let source = """
            | Destination | Next hop | Metric |
            |:------------|:--------:|-------:|
            | 10.0.0.0/8  | `a|b`    | 20     |
            | 0.0.0.0/0   | 192.0.2.1 |
            Table: The router's **routes**
            """
        let read = try MarkdownReader().read(source)
        guard case .table(let table) = read.blocks.first else { Issue.record("no table: \(read)"); return }
        #expect(table.alignments == [.left, .center, .right])
        #expect(table.rows.count == 2 && table.rows[1][2] == [], "a short row is filled out to the table's width")
        #expect(RichTextHTML.render(read) == """
            <div class="table-scroll" tabindex="0"><table><caption>The router&#39;s <strong>routes</strong></caption><thead><tr>\
            <th scope="col" class="align-left">Destination</th><th scope="col" class="align-center">Next hop</th><th scope="col" class="align-right">Metric</th>\
            </tr></thead><tbody><tr><td class="align-left">10.0.0.0/8</td><td class="align-center"><code>a|b</code></td><td class="align-right">20</td></tr>\
            <tr><td class="align-left">0.0.0.0/0</td><td class="align-center">192.0.2.1</td><td class="align-right"></td></tr></tbody></table></div>
            """)
        #expect(RichTextPlain.text(read) == "The router's routes\nDestination\tNext hop\tMetric\n10.0.0.0/8\ta|b\t20\n0.0.0.0/0\t192.0.2.1\t")
        #expect(refusal("| a | b |\n|---|---|\n| 1 | 2 | 3 |")?.line == 3, "a row wider than the table")
    }

    @Test("lists nest, number from their first item and hold paragraphs and code")
    func lists() throws {
        let nested = try html("- one\n- two\n  1. a\n  2. b\n- three")
        #expect(nested == "<ul><li>one</li><li>two<ol><li>a</li><li>b</li></ol></li><li>three</li></ul>", "\(nested)")
        #expect(try html("3. third\n4. fourth") == "<ol start=\"3\"><li>third</li><li>fourth</li></ol>")
        #expect(try html("- item\n\n  ```sh\n  ls -l\n  ```") == "<ul><li><p>item</p><pre class=\"code\" tabindex=\"0\"><code data-language=\"sh\">ls -l</code></pre></li></ul>")
    }

    @Test("a fenced listing keeps its text exactly, escaped and highlighted, with its language; one never closed is refused on its line")
    func code() throws {
        #expect(try html("Consider:\n\n```Python\nif a < b:\n    print(\"<script>\")\n```") ==
            "<p>Consider:</p><pre class=\"code\" tabindex=\"0\"><code data-language=\"python\"><span class=\"tok-keyword\">if</span> a &lt; b:\n    print(<span class=\"tok-string\">&quot;&lt;script&gt;&quot;</span>)</code></pre>")
        #expect(refusal("Text\n\n```js\nlet a = 1") == MarkdownReader.Problem(line: 3, message: "the code block opened here is never closed with ```"))
        #expect(refusal("```java onclick=x\nx\n```") == nil, "only the first word names the language")
        #expect(refusal("```<b>\nx\n```")?.message.contains("is not a language name") == true)
    }

    @Test("an exhibit is a picture of the portal's on a line of its own, with alt text, opening full size when tapped")
    func pictures() throws {
        #expect(try html("Refer to the exhibit.\n\n![Three routers in a ring](/content-images/ring-1.png \"Exhibit 1\")") ==
            "<p>Refer to the exhibit.</p><figure class=\"exhibit\"><a href=\"/content-images/ring-1.png\"><img src=\"/content-images/ring-1.png\" alt=\"Three routers in a ring\" loading=\"lazy\"></a><figcaption>Exhibit 1</figcaption></figure>")
        #expect(refusal("![](/content-images/a.png)")?.message == "the picture /content-images/a.png has no alt text: say in [brackets] what it shows")
        #expect(refusal("![A cat](https://evil.example/cat.png)")?.message.hasPrefix("a picture must be one of the portal's") == true)
        #expect(refusal("![A cat](/content-images/../secret)")?.message.hasPrefix("a picture must be one of the portal's") == true)
        #expect(refusal("See ![a cat](/content-images/cat.png) here")?.message.hasPrefix("a picture stands in a paragraph of its own") == true)
    }

    @Test("links go to https: addresses only, marked as leaving the site; anything else is refused by name")
    func links() throws {
        #expect(try html("Read [RFC 9110](https://www.rfc-editor.org/rfc/rfc9110).") ==
            "<p>Read <a href=\"https://www.rfc-editor.org/rfc/rfc9110\" rel=\"noopener noreferrer nofollow\">RFC 9110</a>.</p>")
        for target in ["javascript:alert`1`", "http://example.com/", "//evil.example/x", "https:///x", "data:text/html,x"] {
            #expect(refusal("[x](\(target))")?.message == "a link must go to an https: address, not \(target)", "\(target)")
        }
        #expect(try html("[not a link] and [brackets](") == "<p>[not a link] and [brackets](</p>")
    }

    @Test("what a question's text cannot hold is refused with its line: headings, rules, nesting too deep, a text too long")
    func refusals() {
        #expect(refusal("Intro\n\n## Part two") == MarkdownReader.Problem(line: 3, message: "a heading (#) is not part of a question's text: write **bold** instead"))
        #expect(refusal("a\n\n---\n") == MarkdownReader.Problem(line: 3, message: "a horizontal rule (---) is not part of a question's text"))
        #expect(refusal(String(repeating: "> ", count: 12) + "deep")?.message == "quotes and lists nest more than 8 deep")
        #expect(refusal(String(repeating: "a", count: RichTextRules.maximumLength + 1))?.message == "the text is longer than 64 KB")
    }

    @Test("hostile runs of marks are read as text, whole, without searching again for what is not there")
    func hostileRuns() throws {
        for mark in ["*", "_ ", "`", "[", "~", "^", "**a", "[a](", "\\", "![a]"] {
            // After a word, so that no run is a horizontal rule or a list's marker.
            let source = "Text " + String(repeating: mark, count: (RichTextRules.maximumLength - 16) / mark.utf8.count)
            let read = try MarkdownReader().read(source)
            #expect(RichTextPlain.text(read).count >= source.count / 3, "\(mark) lost most of its text")
        }
        let nested = String(repeating: "*a ", count: 5_000) + String(repeating: " a*", count: 5_000)
        #expect(throws: Never.self) { try MarkdownReader().read(nested) }
    }

    @Test("a tree survives JSON unchanged; a stored tree that breaks the rules is refused as it is read")
    func storage() throws {
        let source = "Which **two** are true?\n\n- H~2~O  \n  is water\n- see [the spec](https://example.org/spec)\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n```go\nfmt.Println(1)\n```\n\n> quoted\n\n![A diagram](/content-images/d.svg)"
        let read = try MarkdownReader().read(source)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(read)
        #expect(try JSONDecoder().decode(RichText.self, from: json) == read)
        #expect(String(decoding: json, as: UTF8.self).hasPrefix(
            #"[{"inlines":[{"text":"Which ","type":"text"},{"inlines":[{"text":"two","type":"text"}],"type":"strong"}"#))
        for hostile in [
            #"[{"type":"paragraph","inlines":[{"type":"link","href":"javascript:alert(1)","inlines":[]}]}]"#,
            #"[{"type":"picture","src":"https://evil.example/x.png","alt":"x"}]"#,
            #"[{"type":"picture","src":"/content-images/x.png","alt":" "}]"#,
            #"[{"type":"code","language":"<script>","text":"x"}]"#,
            #"[{"type":"html","text":"<script>alert(1)</script>"}]"#,
            #"[{"type":"table","header":[[]],"align":["left","right"],"rows":[]}]"#,
        ] {
            #expect(throws: (any Error).self, "\(hostile)") { try JSONDecoder().decode(RichText.self, from: Data(hostile.utf8)) }
        }
    }

    @Test("every text and attribute the renderer writes is escaped, whatever a stored tree holds")
    func escaping() {
        let tree = RichText([
            .paragraph([.text("<img src=x onerror=alert(1)> & \"quotes\" 'too'"), .code("</code><script>")]),
            .picture(RichText.Picture(source: "/content-images/a.png", alt: "\" onload=\"alert(1)", caption: "<b>caption</b>")),
            .picture(RichText.Picture(source: "javascript:alert(1)", alt: "x")),
            .paragraph([.link(href: "javascript:alert(1)", [.text("words")])]),
        ])
        let rendered = RichTextHTML.render(tree)
        #expect(rendered == """
            <p>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;<code>&lt;/code&gt;&lt;script&gt;</code></p>\
            <figure class="exhibit"><a href="/content-images/a.png"><img src="/content-images/a.png" alt="&quot; onload=&quot;alert(1)" loading="lazy"></a>\
            <figcaption>&lt;b&gt;caption&lt;/b&gt;</figcaption></figure><p>words</p>
            """)
    }

    @Test("ruby: {漢字|かんじ} is base text with its reading, written back the same; a brace without a bar, an escaped one and a cloze marker stay text; ruby without its base or reading is refused with where it is; ten thousand braces read in one pass")
    func ruby() throws {
        let text = try MarkdownReader().read("{漢字|かんじ}を読む。 \\{a|b} {#1} {a} ｛x｝")
        #expect(text == RichText([.paragraph([.ruby(base: "漢字", reading: "かんじ"), .text("を読む。 {a|b} {#1} {a} ｛x｝")])]))
        #expect(RichTextPlain.text(text) == "漢字を読む。 {a|b} {#1} {a} ｛x｝")
        #expect(try MarkdownReader().read(MarkdownWriter.write(text)) == text)
        for bad in ["{|かんじ}", "{漢字|}", "{ |かんじ}"] {
            #expect(refusal("A line\n\n" + bad)?.message.hasPrefix("a ruby needs its base text and its reading") == true, "\(bad)")
            #expect(refusal("A line\n\n" + bad)?.line == 3, "\(bad)")
        }
        let braces = String(repeating: "{a", count: 10_000) + String(repeating: "|b}", count: 3)
        #expect(try MarkdownReader().read(braces) == RichText([.paragraph([
            .text(String(repeating: "{a", count: 9_999)), .ruby(base: "a", reading: "b"), .text("|b}|b}"),
        ])]))
    }
}
