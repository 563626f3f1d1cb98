import ExamData
import Foundation
import Interop
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// A question written in markdown, as a student and an admin see it: the exhibit, the table,
/// the listing and the inline code, on the pages that ask, give feedback and review.
@Suite("Questions with exhibits, tables and code over HTTP", .onTestThreads)
struct RichQuestionPageTests {
    static let region = "rich", exam = "routing"

    /// A picture of the portal's own, stored as an import stores it.
    static let exhibit = try! ContentImage(bytes: Array("""
        <svg xmlns="http://www.w3.org/2000/svg" width="320" height="120" viewBox="0 0 320 120"><rect x="10" y="40" width="60" height="40" fill="#1f3a5f"/>\
        <rect x="250" y="40" width="60" height="40" fill="#1f3a5f"/><line x1="70" y1="60" x2="250" y2="60" stroke="#000"/></svg>
        """.utf8))

    static func install(_ site: PortalSite) throws {
        let stem = """
            Refer to the exhibit. Which next hop does **R1** use for `10.1.2.3`?

            ![R1 linked to R2 by one cable](\(exhibit.path) "Exhibit 1")

            | Prefix | Next hop | Metric |
            | :-- | :-- | --: |
            | 10.0.0.0/8 | 192.0.2.1 | 20 |
            | 10.1.0.0/16 | 192.0.2.9 | 110 |

            Table: Routing table of R1

            ```text
            R1# show ip route 10.1.2.3
            ```
            """
        let hostile = "A <script>alert(1)</script> and <img src=x onerror=alert(1)> stay *text*."
        func question(_ key: String, _ stem: String, difficulty: Int) -> ContentDocument.Question {
            ContentDocument.Question(
                key: key, type: "single-choice", stem: stem,
                options: .array([
                    .object(["id": .string("a"), "text": .string("`192.0.2.1`, the *shorter* prefix"), "explanation": .string("A /8 matches too, but:\n\n- the **longest** prefix wins")]),
                    .object(["id": .string("b"), "text": .string("`192.0.2.9`, the longest prefix")]),
                ]),
                correct: .array([.number(1)]), explanation: "The longest match wins:\n\n1. /16 beats /8\n2. whatever the metric", difficulty: difficulty)
        }
        let document = ContentDocument(regions: [ContentDocument.Region(code: region, name: "Rich", exams: [ContentDocument.Exam(
            slug: exam, title: "Routing", description: "", language: "en", passMark: 50, timeLimitSeconds: 600, questionCount: 2, markup: "markdown",
            domains: [ContentDocument.Domain(slug: "tables", title: "Tables", weight: 100, questions: [
                question("route-1", stem, difficulty: 2), question("hostile-1", hostile, difficulty: 3),
                question("formula-1", "A deposit grows by $A = P\\left(1 + \\frac{r}{n}\\right)^{nt}$. What is $\\sqrt[3]{27}$?\n\n$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$", difficulty: 4),
            ])])])], images: [exhibit])
        #expect(ContentImport().problems(document).isEmpty, "\(ContentImport().problems(document))")
        _ = try site.admin { try ContentImport().apply(document, $0) }
    }

    private func start(_ browser: Browser, mode: String) throws -> String {
        let token = browser.csrfToken(from: try browser.request("GET", "/exams/\(Self.region)/\(Self.exam)"))
        let response = try browser.request("POST", "/sessions", pairs: [
            ("csrf_token", token), ("region", Self.region), ("exam", Self.exam), ("mode", mode), ("count", "3"), ("domain", "tables"),
        ])
        #expect(response.status == 303)
        return response.header("Location")?.replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: "") ?? ""
    }

    @Test("practice: the exhibit opens full size, the table has its header cells and caption, the listing scrolls, options and feedback keep their markup; markup typed as text stays text")
    func practice() throws {
        let site = try PortalSite()
        try Self.install(site)
        let browser = site.browser()
        try browser.register("ria")
        let path = try start(browser, mode: "practice")
        var pages: [(name: String, body: [UInt8])] = []
        for number in 1...3 {
            let page = try browser.request("GET", path + "?q=\(number)")
            #expect(page.status == 200)
            let html = page.bodyText
            pages.append(("question \(number)", page.body))
            if html.contains("Refer to the exhibit") {
                #expect(html.contains(#"<div class="stem rich" lang="en"><p>Refer to the exhibit. Which next hop does <strong>R1</strong> use for <code>10.1.2.3</code>?</p>"#))
                #expect(html.contains(#"<figure class="exhibit"><a href="\#(Self.exhibit.path)"><img src="\#(Self.exhibit.path)" alt="R1 linked to R2 by one cable" loading="lazy"></a><figcaption>Exhibit 1</figcaption></figure>"#))
                #expect(html.contains(#"<caption>Routing table of R1</caption><thead><tr><th scope="col" class="align-left">Prefix</th>"#))
                #expect(html.contains(#"<td class="align-right">110</td>"#))
                #expect(html.contains(#"<pre class="code" tabindex="0"><code data-language="text">R1# show ip route 10.1.2.3</code></pre>"#))
                #expect(html.contains(#"<span class="option-text"><code>192.0.2.9</code>, the longest prefix</span>"#))
                let picture = try browser.request("GET", Self.exhibit.path)
                #expect(picture.status == 200 && picture.header("Content-Type")?.hasPrefix("image/svg+xml") == true)
            } else if html.contains("A deposit grows") {
                // Formulas are MathML the browser draws, their TeX kept as the annotation.
                #expect(html.contains(#"<mfrac><mrow><mi>r</mi></mrow><mrow><mi>n</mi></mrow></mfrac>"#))
                #expect(html.contains(#"<mroot><mrow><mn>27</mn></mrow><mn>3</mn></mroot>"#))
                #expect(html.contains(#"<div class="formula" tabindex="0"><math display="block"><semantics><mrow><munderover><mo largeop="true" movablelimits="true">∑</mo>"#))
                #expect(html.contains(#"<annotation encoding="application/x-tex">\sqrt[3]{27}</annotation>"#))
                // Drawn in the portal's own math font, which the style sheet names and the site serves for good.
                let css = try browser.request("GET", "/css/site.css").bodyText
                let font = try #require(css.firstMatch(of: #/url\("(/fonts/[^"]+\.woff2)"\)/#).map { String($0.1) })
                let served = try browser.request("GET", font)
                #expect(served.status == 200 && served.header("Content-Type") == "font/woff2" && served.header("Cache-Control")?.contains("immutable") == true)
                #expect(served.body.starts(with: Array("wOF2".utf8)), "a WOFF2 file")
            } else {
                #expect(html.contains("A &lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(1)&gt; stay <em>text</em>."))
                #expect(!html.contains("<script>alert") && !html.contains("<img src=x"))
            }
            let token = browser.csrfToken(from: page)
            func field(_ name: String) throws -> String {
                let range = try #require(html.range(of: "name=\"\(name)\" value=\""))
                return String(html[range.upperBound...].prefix { $0 != "\"" })
            }
            let answered = try browser.request("POST", path + "/answers", pairs: [
                ("csrf_token", token), ("answer_id", try field("answer_id")), ("question", try field("question")), ("shown_at", try field("shown_at")), ("choice", "0"),
            ])
            #expect(answered.status == 303)
            let feedback = try browser.request("GET", path + "?q=\(number)")
            #expect(feedback.bodyText.contains(#"<div class="explanation rich" lang="en"><p>The longest match wins:</p><ol><li>/16 beats /8</li><li>whatever the metric</li></ol></div>"#))
            #expect(feedback.bodyText.contains(#"<div class="why rich"><p>A /8 matches too, but:</p><ul><li>the <strong>longest</strong> prefix wins</li></ul></div>"#))
            pages.append(("feedback \(number)", feedback.body))
        }
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("a mock exam's results and the admin's preview show the same trees; the editor gives the markdown back and saves an edit as trees")
    func resultsAndEditor() throws {
        let site = try PortalSite()
        try Self.install(site)
        let browser = site.browser()
        try browser.register("ana")
        let path = try start(browser, mode: "mock")
        let confirm = try browser.request("GET", path + "/finish")
        #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": browser.csrfToken(from: confirm)]).status == 303)
        let results = try browser.request("GET", path + "/results")
        #expect(results.bodyText.contains(#"<th scope="col" class="align-right">Metric</th>"#))
        #expect(results.bodyText.contains(#"<div class="explanation rich" lang="en"><p>The longest match wins:</p>"#))

        let (admin, csrf) = try site.signedInAdmin()
        let id = try site.admin { try $0.query("SELECT id FROM questions WHERE source_key = 'route-1'").single().decode("id", as: UUID.self) }.lowercasedText
        let preview = try admin.request("GET", "/admin/questions/\(id)")
        #expect(preview.bodyText.contains(#"<caption>Routing table of R1</caption>"#))
        let editor = try admin.request("GET", "/admin/questions/\(id)/edit")
        #expect(editor.bodyText.contains(#"name="markup" value="markdown" aria-describedby="q-markup-hint" checked"#))
        #expect(editor.bodyText.contains("| 10.1.0.0/16 | 192.0.2.9 | 110 |"), "the stem is given back as markdown")
        // An edit that breaks the markdown is refused beside its field; a sound one is stored as trees.
        var form = try Self.formFields(editor.bodyText)
        form["csrf_token"] = csrf
        // "Preview" shows the question as students will see it, beside the form, and saves nothing.
        form["stem"] = "Which hop?\n\n| Prefix | Hop |\n| --- | --: |\n| 10.0.0.0/8 | `192.0.2.1` |"
        form["preview"] = "1"
        let previewed = try admin.request("POST", "/admin/questions/\(id)/edit", form: form)
        #expect(previewed.status == 200)
        #expect(previewed.bodyText.contains(#"<section class="editor-preview" aria-labelledby="preview-heading">"#))
        #expect(previewed.bodyText.contains(#"<th scope="col" class="align-right">Hop</th>"#) && previewed.bodyText.contains("<td class=\"align-right\"><code>192.0.2.1</code></td>"))
        #expect(previewed.bodyText.contains("| 10.0.0.0/8 | `192.0.2.1` |"), "the source stays in the form")
        #expect(try site.admin { try $0.query("SELECT version FROM questions WHERE source_key = 'route-1'").single().decode("version", as: Int.self) } == 1)
        form["preview"] = nil
        form["stem"] = "Which next hop?\n\n# A heading"
        let refused = try admin.request("POST", "/admin/questions/\(id)/edit", form: form)
        #expect(refused.status == 422 && refused.bodyText.contains("In stem: line 3: a heading (#) is not part of a question&#39;s text"))
        form["stem"] = "Which next hop does **R1** use?\n\n| Prefix | Next hop |\n| --- | --- |\n| 10.1.0.0/16 | 192.0.2.9 |"
        let saved = try admin.request("POST", "/admin/questions/\(id)/edit", form: form)
        #expect(saved.status == 303)
        let stored = try site.admin { try $0.query("SELECT stem, rich FROM questions WHERE id = \(UUID(uuidString: id)!)").single() }
        #expect(try stored.decode("stem", as: String.self) == "Which next hop does R1 use?\nPrefix\tNext hop\n10.1.0.0/16\t192.0.2.9")
        let texts = try stored.decodeJSON("rich", as: QuestionTexts.self)
        #expect(texts.stem.blocks.count == 2 && texts.options[0].explanation != nil)
        let check = try HTMLChecker.passes([("results", results.body), ("preview", preview.body), ("editor", editor.body), ("editor preview", previewed.body), ("editor refused", refused.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    /// The editor form's fields as the page fills them (inputs, checked boxes, selected options, textareas).
    @Test("the editor adds a picture to the question's text in place: stored, written as markdown with its alt text, kept by the save; one without alt text or not a picture is refused beside its field")
    func pictureUpload() throws {
        let site = try PortalSite()
        try Self.install(site)
        let (admin, csrf) = try site.signedInAdmin()
        let id = try site.admin { try $0.query("SELECT id FROM questions WHERE source_key = 'route-1'").single().decode("id", as: UUID.self) }
        let action = "/admin/questions/\(id.lowercasedText)/edit"
        let editor = try admin.request("GET", action)
        #expect(editor.bodyText.contains(#"enctype="multipart/form-data""#) && editor.bodyText.contains(#"<input id="q-picture" name="picture" type="file""#))
        var form = try Self.formFields(editor.bodyText)
        form["csrf_token"] = csrf
        form["add_picture"] = "1"
        let switchSVG = Array(##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20" viewBox="0 0 60 20"><rect width="60" height="20" fill="#345"/></svg>"##.utf8)
        let upload = Browser.Upload(field: "picture", filename: "switch.svg", contentType: "image/svg+xml", bytes: switchSVG)
        // Refused beside the field, nothing stored: no alt text, then a file that is no picture.
        form["picture_alt"] = "  "
        let noAlt = try admin.request("POST", action, multipart: form, files: [upload])
        #expect(noAlt.status == 422 && noAlt.bodyText.contains("its alt text is required"))
        form["picture_alt"] = "A switch with four ports"
        let notPicture = try admin.request("POST", action, multipart: form, files: [Browser.Upload(field: "picture", filename: "notes.txt", contentType: "text/plain", bytes: Array("hello".utf8))])
        #expect(notPicture.status == 422 && notPicture.bodyText.contains("This file is not a PNG, JPEG, GIF, WebP or SVG picture, nor an MP3, Ogg, M4A, MP4 or WebM recording."))
        #expect(notPicture.bodyText.contains(#"value="A switch with four ports""#), "the alt text typed stays in the form")
        let stored = try ContentImage(bytes: switchSVG)
        #expect(try site.admin { try $0.query("SELECT count(*)::int AS n FROM content_images WHERE digest = \(ContentImage.digest(inPath: stored.path) ?? "")").single().decode("n", as: Int.self) } == 0)
        // Added: stored, and written into the stem as markdown the author can move; nothing else is saved yet.
        let added = try admin.request("POST", action, multipart: form, files: [upload])
        #expect(added.status == 200)
        #expect(added.bodyText.contains("![A switch with four ports](\(stored.path))"), "the picture stands in the stem's source")
        #expect(try site.admin { try $0.query("SELECT count(*)::int AS n FROM content_images WHERE digest = \(ContentImage.digest(inPath: stored.path) ?? "")").single().decode("n", as: Int.self) } == 1)
        #expect(try site.admin { try $0.query("SELECT version FROM questions WHERE id = \(id)").single().decode("version", as: Int.self) } == 1)
        // Saved as any edit: the picture is an exhibit of the question's tree.
        var save = try Self.formFields(added.bodyText)
        save["csrf_token"] = csrf
        #expect(try admin.request("POST", action, form: save).status == 303)
        let texts = try site.admin { try $0.query("SELECT rich FROM questions WHERE id = \(id)").single().decodeJSON("rich", as: QuestionTexts.self) }
        #expect(texts.stem.picturePaths.contains(stored.path) && texts.stem.blocks.contains(.picture(RichText.Picture(source: stored.path, alt: "A switch with four ports"))))
        let check = try HTMLChecker.passes([("editor with a picture", added.body), ("picture refused", notPicture.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    static func formFields(_ html: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        func unescape(_ text: Substring) -> String {
            text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        let inputs = try Regex(#"<input ([^>]*)>"#), textareas = try Regex(#"<textarea [^>]*name="([^"]+)"[^>]*>([^<]*)</textarea>"#)
        let selects = try Regex(#"<select [^>]*name="([^"]+)"[^>]*>(.*?)</select>"#)
        for match in html.matches(of: inputs) {
            let attributes = String(match.output[1].substring ?? "")
            guard let name = attributes.firstMatch(of: try Regex(#"name="([^"]+)""#))?.output[1].substring else { continue }
            let value = attributes.firstMatch(of: try Regex(#"value="([^"]*)""#))?.output[1].substring.map(unescape) ?? "on"
            if attributes.contains("type=\"checkbox\"") && !attributes.contains(" checked") || attributes.contains("type=\"file\"") { continue }
            fields[String(name)] = value
        }
        for match in html.matches(of: textareas) { fields[String(match.output[1].substring!)] = unescape(match.output[2].substring!) }
        for match in html.matches(of: selects) {
            let options = String(match.output[2].substring!)
            if let selected = options.firstMatch(of: try Regex(#"<option value="([^"]*)" selected>"#))?.output[1].substring {
                fields[String(match.output[1].substring!)] = String(selected)
            }
        }
        return fields
    }
}
