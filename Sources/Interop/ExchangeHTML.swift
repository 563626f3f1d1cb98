import QuestionEngine

/// A `RichText` as the XHTML other systems read (Moodle's question text, a QTI item's body):
/// paragraphs, lists, tables with a header row (`th scope="col"`, alignment as an `align-…`
/// class), `<pre><code class="language-…">`, block quotes, pictures (`<figure>` when captioned)
/// at the addresses the export gives them, and formulas as MathML with their TeX as the
/// annotation. `HTMLRichText` reads every piece of it back into the same tree.
struct ExchangeHTML {
    /// The address a picture has in the export (`@@PLUGINFILE@@/…`, `../images/…`), or nil
    /// when the export carries no such picture (its alt text then stands for it).
    let pictureAddress: (String) -> String?
    /// XHTML 1 as QTI 2.1 takes it: no `<figure>` (a captioned picture is a `div` of class
    /// `figure` with a `p` of class `figcaption`), no `<audio>` or `<video>` (an `<object>`).
    var xhtml1 = false

    func blocks(_ text: RichText) -> String {
        var html = ""
        for block in text.blocks { write(block, into: &html) }
        return html
    }

    func inlines(_ inlines: [RichText.Inline]) -> String {
        var html = ""
        write(inlines, into: &html)
        return html
    }

    private func write(_ block: RichText.Block, into html: inout String) {
        switch block {
        case .paragraph(let inlines):
            html += "<p>"; write(inlines, into: &html); html += "</p>"
        case .code(let language, let text):
            html += "<pre><code" + (language.map { " class=\"language-\(escape($0))\"" } ?? "") + ">" + escape(text) + "</code></pre>"
        case .list(let ordered, let start, let items):
            html += ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
            for item in items {
                html += "<li>"; for block in item { write(block, into: &html) }; html += "</li>"
            }
            html += ordered ? "</ol>" : "</ul>"
        case .table(let table): html += RichTextHTML.table(table, inlines: inlines)
        case .quote(let blocks):
            html += "<blockquote>"; for inner in blocks { write(inner, into: &html) }; html += "</blockquote>"
        case .math(let math):
            html += "<div>"; write(math, display: true, into: &html); html += "</div>"
        case .picture(let picture):
            guard let address = pictureAddress(picture.source) else {
                html += "<p>" + escape(picture.alt) + "</p>"
                return
            }
            if let element = RichTextRules.recordingElement(picture.source) {
                // A recording, its transcript as the fallback the element shows without a player.
                let type = ContentImage.extensions.first { $0.value == picture.source.split(separator: ".").last.map(String.init) }?.key ?? "\(element)/mp4"
                let player = xhtml1
                    ? "<object data=\"\(escape(address))\" type=\"\(type)\">\(escape(picture.alt))</object>"
                    : "<\(element) controls=\"controls\" src=\"\(escape(address))\">\(escape(picture.alt))</\(element)>"
                html += picture.caption.map { figure(player, caption: $0) } ?? "<div>" + player + "</div>"
                return
            }
            let image = "<img src=\"\(escape(address))\" alt=\"\(escape(picture.alt))\"/>"
            html += picture.caption.map { figure(image, caption: $0) } ?? "<p>" + image + "</p>"
        }
    }

    /// A picture or recording with its caption.
    private func figure(_ shown: String, caption: String) -> String {
        xhtml1
            ? "<div class=\"figure\">" + shown + "<p class=\"figcaption\">" + escape(caption) + "</p></div>"
            : "<figure>" + shown + "<figcaption>" + escape(caption) + "</figcaption></figure>"
    }

    private func write(_ inlines: [RichText.Inline], into html: inout String) {
        for inline in inlines {
            switch inline {
            case .text(let text): html += escape(text)
            case .emphasis(let inner): html += "<em>"; write(inner, into: &html); html += "</em>"
            case .strong(let inner): html += "<strong>"; write(inner, into: &html); html += "</strong>"
            case .subscript(let inner): html += "<sub>"; write(inner, into: &html); html += "</sub>"
            case .superscript(let inner): html += "<sup>"; write(inner, into: &html); html += "</sup>"
            case .code(let text): html += "<code>" + escape(text) + "</code>"
            case .lineBreak: html += "<br/>"
            case .math(let math): write(math, display: false, into: &html)
            case .link(let href, let inner):
                html += "<a href=\"\(escape(href))\">"; write(inner, into: &html); html += "</a>"
            // QTI 2.1's XHTML has no ruby: the reading follows its base in parentheses there.
            case .ruby(let base, let reading):
                html += xhtml1 ? escape(base) + "(" + escape(reading) + ")"
                    : "<ruby><rb>" + escape(base) + "</rb><rp>(</rp><rt>" + escape(reading) + "</rt><rp>)</rp></ruby>"
            }
        }
    }

    private func write(_ math: RichText.Math, display: Bool, into html: inout String) {
        html += "<math xmlns=\"http://www.w3.org/1998/Math/MathML\"" + (display ? " display=\"block\"" : "") + "><semantics>"
        write(math.mathml, into: &html)
        html += "<annotation encoding=\"application/x-tex\">" + escape(math.tex) + "</annotation></semantics></math>"
    }

    private func write(_ node: MathNode, into html: inout String) {
        switch node {
        case .text(let text): html += escape(text)
        case .element(let name, let attributes, let children):
            html += "<" + name
            for (attribute, value) in attributes.sorted(by: { $0.key < $1.key }) { html += " \(attribute)=\"\(escape(value))\"" }
            html += ">"
            for child in children { write(child, into: &html) }
            html += "</" + name + ">"
        }
    }

    private func escape(_ text: String) -> String { MarkupText.escape(text) }
}
