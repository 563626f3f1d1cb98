import Foundation
import Testing
import TemplateEngine

@Suite("Template engine")
struct TemplateEngineTests {
    static let english = MessageCatalog(locale: "en", messages: [
        "exam.questions": .plural(["one": "{count} question", "other": "{count} questions"]),
        "greeting": .text("Hello, {name}!"),
        "time.just_now": .text("just now"),
        "time.minutes_ago": .plural(["one": "{count} minute ago", "other": "{count} minutes ago"]),
        "time.hours_ago": .plural(["one": "{count} hour ago", "other": "{count} hours ago"]),
        "time.days_ago": .plural(["one": "{count} day ago", "other": "{count} days ago"]),
        "time.months_ago": .plural(["one": "{count} month ago", "other": "{count} months ago"]),
        "time.years_ago": .plural(["one": "{count} year ago", "other": "{count} years ago"]),
    ])
    static let japanese = MessageCatalog(locale: "ja", messages: [
        "exam.questions": .plural(["other": "{count}問"]),
        "greeting": .text("こんにちは、{name}さん"),
    ])

    private func render(_ templates: [String: String], _ value: TemplateValue, name: String = "main",
                        locale: String = "en", mode: TemplateSet.Mode = .strict) throws -> String {
        let set = try TemplateSet(templates: templates, catalogs: [Self.english, Self.japanese], mode: mode)
        return String(decoding: try set.render(name, value: value, locale: locale, now: Date(timeIntervalSince1970: 1_800_000_000)), as: UTF8.self)
    }

    @Test("variables are escaped in text and in attributes; raw is explicit")
    func escaping() throws {
        let hostile = TemplateValue.object(["x": .string(#"<script>alert("1")</script> & 'quotes'"#)])
        let html = try render(["main": #"<p title="{{x}}">{{x}}</p>{{raw x}}"#], hostile)
        #expect(html == #"<p title="&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p><script>alert("1")</script> & 'quotes'"#)
    }

    @Test("dotted paths, sections over lists, objects and booleans, inverted sections")
    func sections() throws {
        struct Page: Encodable {
            struct Exam: Encodable { var title: String; var code: String? }
            var region: [String: String]
            var exams: [Exam]
            var empty: [Exam]
            var signedIn: Bool
        }
        let page = Page(region: ["name": "Europe"], exams: [Page.Exam(title: "AWS", code: "SAA"), Page.Exam(title: "CCNA", code: nil)], empty: [], signedIn: false)
        let template = "{{region.name}}:{{#exams}}[{{title}}{{#code}} ({{.}}){{/code}} in {{region.name}}]{{/exams}}{{^empty}} none{{/empty}}{{#signedIn}} me{{/signedIn}}{{^signedIn}} guest{{/signedIn}} {{exams.count}}"
        #expect(try render(["main": template], TemplateValue(encoding: page)) == "Europe:[AWS (SAA) in Europe][CCNA in Europe] none guest 2")
    }

    @Test("partials and two levels of layout inheritance with named blocks")
    func layouts() throws {
        let templates = [
            "base": "<html>{{$head}}<title>Default</title>{{/head}}<body>{{$body}}empty{{/body}}</body></html>",
            "layout": "{{<base}}{{$body}}<nav>{{> partials/nav}}</nav>{{$main}}main{{/main}}{{/body}}{{/base}}",
            "partials/nav": "{{site}}",
            "main": "{{<layout}}{{$head}}<title>{{title}}</title>{{/head}}{{$main}}<h1>{{title}}</h1>{{/main}}{{/layout}}",
        ]
        let html = try render(templates, .object(["title": .string("Exams"), "site": .string("Study Portal")]))
        #expect(html == "<html><title>Exams</title><body><nav>Study Portal</nav><h1>Exams</h1></body></html>")
    }

    @Test("syntax errors name the template, line and column", arguments: [
        ("line one\n  {{#items}}never closed", "main:2:3"),
        ("{{#a}}x{{/b}}", "main:1:8"),
        ("x\ny {{ not a path! }}", "main:2:3"),
        ("{{> missing}}", "main:1:1"),
        ("text {{ open", "main:1:6"),
        ("{{/stray}}", "main:1:1"),
        ("{{t missing-quotes}}", "main:1:1"),
    ])
    func syntaxErrors(_ source: String, _ place: String) {
        let error = #expect(throws: TemplateError.self) { try TemplateSet(templates: ["main": source], catalogs: [Self.english]) }
        #expect(error.map { "\($0.template):\($0.line):\($0.column)" } == place)
    }

    @Test("a missing variable is an error in strict mode and empty in production")
    func missingVariables() throws {
        let error = #expect(throws: TemplateError.self) { try render(["main": "a\n {{nope.deeper}}"], .object([:])) }
        #expect(error?.description == "main:2:2: missing variable nope.deeper")
        #expect(try render(["main": "a{{nope}}b"], .object([:]), mode: .production) == "ab")
        // A section over something absent is simply not rendered (absent optionals are normal).
        #expect(try render(["main": "a{{#nope}}x{{/nope}}b"], .object([:])) == "ab")
    }

    @Test("messages fill placeholders, choose plural forms per language, and are escaped")
    func messages() throws {
        let template = #"{{t "exam.questions" count=n}} · {{t "greeting" name=who}}"#
        #expect(try render(["main": template], .object(["n": .int(1), "who": .string("<Ada>")])) == "1 question · Hello, &lt;Ada&gt;!")
        #expect(try render(["main": template], .object(["n": .int(5000), "who": .string("Ada")])) == "5,000 questions · Hello, Ada!")
        #expect(try render(["main": template], .object(["n": .int(1), "who": .string("花子")]), locale: "ja") == "1問 · こんにちは、花子さん")
        #expect(throws: TemplateError.self) { try render(["main": #"{{t "no.such.key"}}"#], .object([:])) }
    }

    @Test("numbers and relative times follow the locale")
    func formatting() throws {
        #expect(NumberFormatting.grouped(1_234_567, locale: "en") == "1,234,567")
        #expect(NumberFormatting.grouped(1_234_567, locale: "it") == "1.234.567")
        #expect(NumberFormatting.grouped(999, locale: "it") == "999")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let threeDaysAgo = ISO8601DateFormatter().string(from: now.addingTimeInterval(-3 * 86_400 - 100))
        #expect(try render(["main": "{{ago updated}}"], .object(["updated": .string(threeDaysAgo)])) == "3 days ago")
        let anHourAgo = ISO8601DateFormatter().string(from: now.addingTimeInterval(-3700))
        #expect(try render(["main": "{{ago updated}}"], .object(["updated": .string(anHourAgo)])) == "1 hour ago")
    }

    @Test("catalogue files: nested keys flatten, plural objects need an other form")
    func catalogueFiles() throws {
        let catalog = try MessageCatalog(locale: "it", json: Data(#"{"exam": {"questions": {"one": "{count} domanda", "other": "{count} domande"}, "title": "Esame"}}"#.utf8))
        #expect(catalog.format("exam.questions", ["count": "2"], count: 2) == "2 domande")
        #expect(catalog.format("exam.title", [:]) == "Esame")
        #expect(throws: CatalogError.self) { try MessageCatalog(locale: "it", json: Data(#"{"a": {"one": "x"}}"#.utf8)) }
    }

    @Test("development mode re-reads a changed template without a restart")
    func developmentReload() throws {
        let folder = NSTemporaryDirectory() + "templates-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/i18n", withIntermediateDirectories: true)
        try #"{"hello": "Hello"}"#.write(toFile: folder + "/i18n/en.json", atomically: true, encoding: .utf8)
        try "one {{t \"hello\"}}".write(toFile: folder + "/page.html", atomically: true, encoding: .utf8)
        let set = try TemplateSet(directory: folder, mode: .development)
        #expect(String(decoding: try set.render("page", value: .object([:]), locale: "en", now: Date()), as: UTF8.self) == "one Hello")
        try "two".write(toFile: folder + "/page.html", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: folder + "/page.html")
        #expect(String(decoding: try set.render("page", value: .object([:]), locale: "en", now: Date()), as: UTF8.self) == "two")
    }
}
