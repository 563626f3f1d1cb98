/// A `RichText` as HTML: every text escaped, every attribute one the tree defines, written by
/// the server once when content changes (pages keep the result). Tables have header cells
/// with scope and scroll inside their box; a listing scrolls too and can be reached by
/// keyboard; a picture fits the width and opens full size when tapped, without a script.
public enum RichTextHTML {
    public static func render(_ text: RichText) -> String {
        var html = ""
        for block in text.blocks { write(block, into: &html) }
        return html
    }

    /// Inlines alone, for a place that is one line (an option, a table cell).
    public static func render(_ inlines: [RichText.Inline]) -> String {
        var html = ""
        write(inlines, into: &html)
        return html
    }

    private static func write(_ block: RichText.Block, into html: inout String) {
        switch block {
        case .paragraph(let inlines):
            html += "<p>"; write(inlines, into: &html); html += "</p>"
        case .code(let language, let text):
            html += "<pre class=\"code\" tabindex=\"0\"><code"
            if let language, RichTextRules.isAllowedLanguage(language) { html += " data-language=\"\(language)\"" }
            html += ">"
            if let language, let tokens = CodeHighlighter.tokens(text, language: language) {
                for token in tokens {
                    html += token.kind == .plain ? escaped(token.text) : "<span class=\"tok-\(token.kind.rawValue)\">" + escaped(token.text) + "</span>"
                }
            } else {
                html += escaped(text)
            }
            html += "</code></pre>"
        case .list(let ordered, let start, let items):
            html += ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
            for item in items {
                html += "<li>"
                // An item's leading paragraph followed by nothing but lists is its text (a
                // tight list); an item with more (code, a second paragraph) keeps paragraphs.
                if case .paragraph(let inlines)? = item.first, item.dropFirst().allSatisfy({ if case .list = $0 { true } else { false } }) {
                    write(inlines, into: &html)
                    for block in item.dropFirst() { write(block, into: &html) }
                } else {
                    for block in item { write(block, into: &html) }
                }
                html += "</li>"
            }
            html += ordered ? "</ol>" : "</ul>"
        case .table(let table):
            html += "<div class=\"table-scroll\" tabindex=\"0\">" + Self.table(table, inlines: render) + "</div>"
        case .quote(let blocks):
            html += "<blockquote>"; for inner in blocks { write(inner, into: &html) }; html += "</blockquote>"
        case .math(let math):
            // A wide formula scrolls in its box, which the keyboard can reach.
            html += "<div class=\"formula\" tabindex=\"0\">"; write(math, display: true, into: &html); html += "</div>"
        case .picture(let picture):
            guard RichTextRules.isAllowedPicture(picture.source) else { return }
            let source = escaped(picture.source)
            if let element = RichTextRules.recordingElement(picture.source) {
                // A recording plays with the browser's own controls; its words (a transcript) stand under it.
                html += "<figure class=\"recording\"><\(element) controls preload=\"\(element == "video" ? "metadata" : "none")\" src=\"\(source)\"></\(element)>"
                html += "<figcaption>" + (picture.caption.map { "<strong>\(escaped($0))</strong><br>" } ?? "") + "<span class=\"transcript\">\(escaped(picture.alt))</span></figcaption></figure>"
                return
            }
            html += "<figure class=\"exhibit\"><a href=\"\(source)\"><img src=\"\(source)\" alt=\"\(escaped(picture.alt))\" loading=\"lazy\"></a>"
            if let caption = picture.caption { html += "<figcaption>\(escaped(caption))</figcaption>" }
            html += "</figure>"
        }
    }

    /// A table's markup, its cells and caption written by `inlines`: the caption, a header row of
    /// `th scope="col"`, the body rows, each column's alignment as an `align-…` class. The
    /// exports' XHTML writes its tables the same way.
    public static func table(_ table: RichText.Table, inlines: ([RichText.Inline]) -> String) -> String {
        var html = "<table>"
        if let caption = table.caption { html += "<caption>" + inlines(caption) + "</caption>" }
        // A table of a header alone has its row in the body (XHTML 1, as QTI 2.1 takes it,
        // wants a body with a row).
        html += table.rows.isEmpty ? "<tbody><tr>" : "<thead><tr>"
        for (column, cell) in table.header.enumerated() { html += "<th scope=\"col\"\(alignment(table, column))>" + inlines(cell) + "</th>" }
        guard !table.rows.isEmpty else { return html + "</tr></tbody></table>" }
        html += "</tr></thead><tbody>"
        for row in table.rows {
            html += "<tr>"
            for (column, cell) in row.enumerated() { html += "<td\(alignment(table, column))>" + inlines(cell) + "</td>" }
            html += "</tr>"
        }
        return html + "</tbody></table>"
    }

    private static func alignment(_ table: RichText.Table, _ column: Int) -> String {
        let alignment = column < table.alignments.count ? table.alignments[column] : .none
        return alignment == .none ? "" : " class=\"align-\(alignment.rawValue)\""
    }

    private static func write(_ inlines: [RichText.Inline], into html: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let text): html += escaped(text)
            case .emphasis(let inner): html += "<em>"; write(inner, into: &html); html += "</em>"
            case .strong(let inner): html += "<strong>"; write(inner, into: &html); html += "</strong>"
            case .subscript(let inner): html += "<sub>"; write(inner, into: &html); html += "</sub>"
            case .superscript(let inner): html += "<sup>"; write(inner, into: &html); html += "</sup>"
            case .code(let text): html += "<code>" + escaped(text) + "</code>"
            case .lineBreak: html += "<br>"
            case .math(let math): write(math, display: false, into: &html)
            // The parentheses show where a browser draws no ruby (and a reader who hides readings sees none).
            case .ruby(let base, let reading): html += "<ruby>" + escaped(base) + "<rp>(</rp><rt>" + escaped(reading) + "</rt><rp>)</rp></ruby>"
            case .link(let href, let inner):
                // A target outside the rules is no link at all: its words stay.
                if RichTextRules.isAllowedLink(href) {
                    html += "<a href=\"\(escaped(href))\" rel=\"noopener noreferrer nofollow\">"; write(inner, into: &html); html += "</a>"
                } else {
                    write(inner, into: &html)
                }
            }
        }
    }

    /// A formula as MathML (which browsers draw and read aloud themselves), its TeX kept as
    /// the annotation; only the elements and attributes MathNode allows are written.
    private static func write(_ math: RichText.Math, display: Bool, into html: inout String) {
        html += display ? "<math display=\"block\">" : "<math>"
        html += "<semantics>"
        write(math.mathml, into: &html)
        html += "<annotation encoding=\"application/x-tex\">" + escaped(math.tex) + "</annotation></semantics></math>"
    }

    private static func write(_ node: MathNode, into html: inout String) {
        switch node {
        case .text(let text): html += escaped(text)
        case .element(let name, let attributes, let children):
            guard MathNode.elements.contains(name) else { return }
            html += "<" + name
            for (attribute, value) in attributes.sorted(by: { $0.key < $1.key }) where MathNode.attributes.keys.contains(attribute) {
                html += " \(attribute)=\"\(escaped(value))\""
            }
            html += ">"
            for child in children { write(child, into: &html) }
            html += "</" + name + ">"
        }
    }

    /// Text for an element's content or a quoted attribute.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Controls other than tab and newline are not text (the checker refuses them).
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" || (0x7F...0x9F).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
