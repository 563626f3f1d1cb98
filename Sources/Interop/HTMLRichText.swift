import Foundation
import QuestionEngine

/// Other systems' question HTML (Moodle's `<text>`, QTI's XHTML) as a `RichText`: paragraphs
/// and line breaks, emphasis, strong, sub- and superscripts, inline code, listings
/// (`<pre>`, the language from `class="language-x"`), lists, tables with their header row and
/// caption and each column's alignment, block quotes, `https:` links, pictures (resolved by the
/// caller to stored ones, with a `<figure>`'s caption), MathML (`MathMLReader`) and TeX
/// between `\(…\)`, `$$…$$` or `\[…\]` (Moodle's notation). Other tags keep only their text;
/// scripts and styles are gone already (`HTMLScanner`). Iterative, one pass over the tokens:
/// nesting in the input costs no stack, and is refused past the tree's limits.
struct HTMLRichText {
    /// What an `<img>` becomes: a picture of the portal's (its address and alt text), or why not.
    typealias PictureResolver = (_ source: String, _ alt: String) -> Result<RichText.Picture, ItemProblem>

    private enum Frame {
        /// Blocks being gathered (the whole text, a list item, a quote, a table cell) and the
        /// paragraph in progress.
        case blocks(tag: String, blocks: [RichText.Block], paragraph: [RichText.Inline])
        case inline(tag: String, href: String?, inlines: [RichText.Inline])
        case list(ordered: Bool, start: Int, items: [[RichText.Block]])
        /// A table's rows so far, its first row's column alignments and its caption.
        case table(rows: [[[RichText.Inline]]], alignments: [RichText.Alignment], caption: [RichText.Inline]?)
        case row(cells: [[RichText.Inline]], alignments: [RichText.Alignment])
        case pre(language: String?, text: String)
    }

    private var stack: [Frame] = [.blocks(tag: "", blocks: [], paragraph: [])]

    /// The tree of `html`, or why it cannot be one; `field` names the text in the problem.
    static func read(_ html: String, field: String = "the question's text", pictures: PictureResolver) throws(ItemProblem) -> RichText {
        try read(tokens: HTMLScanner.tokens(html).map(\.token), field: field, pictures: pictures)
    }

    /// The tree of markup already split into tokens (an XML element's, `XMLTree.Element.markupTokens`).
    static func read(tokens: [HTMLScanner.Token], field: String = "the question's text", pictures: PictureResolver) throws(ItemProblem) -> RichText {
        var reader = HTMLRichText()
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .text(let text): try reader.text(MarkupText.decodeEntities(text))
            case .start(let tag, _, let selfClosing):
                let name = MathMLReader.localName(tag)
                if name == "math" {
                    // A formula: its tokens up to the end tag that closes it, read as MathML.
                    var end = index, level = selfClosing ? 0 : 1
                    while end < tokens.count, level > 0 {
                        if case .start(let inner, _, let closes) = tokens[end], !closes, MathMLReader.localName(inner) == "math" { level += 1 }
                        if case .end(let inner) = tokens[end], MathMLReader.localName(inner) == "math" { level -= 1 }
                        end += 1
                    }
                    try reader.formula(MathMLReader.read(tokens[(index - 1)..<end]))
                    index = end
                    continue
                }
                try reader.open(name, token, selfClosing: selfClosing, pictures: pictures)
            case .end(let tag): try reader.close(MathMLReader.localName(tag), pictures: pictures)
            }
        }
        while reader.stack.count > 1 { try reader.pop(pictures: pictures) }
        guard case .blocks(_, var blocks, let paragraph) = reader.stack[0] else { return RichText([]) }
        Self.flush(paragraph, into: &blocks)
        let text = RichText(blocks)
        do { try RichTextCheck.check(text) } catch { throw ItemProblem(reason: "\(field) \(error.description)") }
        return text
    }

    private static let inlineTags: [String: String] = [
        "strong": "strong", "b": "strong", "em": "em", "i": "em", "sub": "sub", "sup": "sup", "code": "code", "a": "a", "tt": "code",
        "ruby": "ruby", "rt": "rt", "rp": "rp",
    ]

    // MARK: Tokens

    private mutating func text(_ text: String) throws(ItemProblem) {
        if case .pre(let language, let written)? = stack.last { stack[stack.count - 1] = .pre(language: language, text: written + text); return }
        // A run of blanks with a line break or a tab in it is the markup's wrapping: one space,
        // as HTML shows it. Spaces alone are kept as written, so a text comes back as it went.
        var collapsed = "", run = "", wraps = false
        func endRun() {
            collapsed += wraps ? " " : run
            (run, wraps) = ("", false)
        }
        for character in text {
            if character == " " { run.append(" "); continue }
            if character == "\t" || character == "\n" || character == "\r" || character == "\r\n" { run.append(" "); wraps = true; continue }
            endRun()
            collapsed.append(character)
        }
        endRun()
        guard !collapsed.isEmpty else { return }
        if stack.last.flatMap(Self.inlineTag) == "code" { append(.text(collapsed)); return }
        for (inline, display) in try Self.formulas(in: collapsed) {
            if display, case .math(let math) = inline { formula(MathMLReader.Formula(math: math, display: true)) } else { append(inline) }
        }
    }

    /// A formula where it stands: a displayed one is a block of its own (unless it stands in a
    /// run of emphasis or a link, which cannot be split).
    private mutating func formula(_ formula: MathMLReader.Formula) {
        if formula.display, case .blocks? = stack.last { appendBlock(.math(formula.math)) } else { append(.math(formula.math)) }
    }

    /// A cell's alignment, as HTML editors write it: `class="align-right"` (the portal's own
    /// exports), `style="text-align: right"` or the old `align="right"`.
    private static func alignment(_ token: HTMLScanner.Token) -> RichText.Alignment {
        let classes = (token.attribute("class") ?? "").split(separator: " ")
        for alignment in RichText.Alignment.allCases where alignment != .none && classes.contains(Substring("align-" + alignment.rawValue)) { return alignment }
        let style = (token.attribute("style") ?? "").lowercased().replacingOccurrences(of: " ", with: "")
        for alignment in RichText.Alignment.allCases where alignment != .none && style.contains("text-align:" + alignment.rawValue) { return alignment }
        return RichText.Alignment(rawValue: (token.attribute("align") ?? "").lowercased()) ?? .none
    }

    private mutating func open(_ name: String, _ token: HTMLScanner.Token, selfClosing: Bool, pictures: PictureResolver) throws(ItemProblem) {
        guard stack.count < 40 else { throw ItemProblem(reason: "the question's text nests its elements too deep") }
        if case .pre(_, let text)? = stack.last {
            // A listing's `<code class="language-x">` names its language; other tags in it are its text's.
            if name == "code", text.isEmpty {
                let language = (token.attribute("class") ?? "").split(separator: " ").first { $0.hasPrefix("language-") }.map { String($0.dropFirst(9)).lowercased() }
                stack[stack.count - 1] = .pre(language: language.flatMap { RichTextRules.isAllowedLanguage($0) ? $0 : nil }, text: "")
            }
            return
        }
        switch name {
        case "br": append(.lineBreak)
        case "div" where Self.classes(token).contains("figure"), "p" where Self.classes(token).contains("figcaption"):
            // XHTML 1's figure (QTI 2.1 has no <figure>): a div of class figure, its caption a p of class figcaption.
            endParagraph()
            stack.append(.blocks(tag: name, blocks: [], paragraph: []))
        case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6": endParagraph()
        case "img":
            let resolved = pictures(token.attribute("src") ?? "", token.attribute("alt") ?? "")
            switch resolved {
            case .success(let picture): endParagraph(); appendBlock(.picture(picture))
            case .failure(let problem): throw problem
            }
        case "pre":
            endParagraph()
            stack.append(.pre(language: nil, text: ""))
        case "ul", "ol":
            endParagraph()
            stack.append(.list(ordered: name == "ol", start: Int(token.attribute("start") ?? "") ?? 1, items: []))
        case "li":
            // An item outside a list starts one.
            if !isList(stack.last) { stack.append(.list(ordered: false, start: 1, items: [])) }
            stack.append(.blocks(tag: "li", blocks: [], paragraph: []))
        case "blockquote":
            endParagraph()
            stack.append(.blocks(tag: "blockquote", blocks: [], paragraph: []))
        case "table":
            endParagraph()
            stack.append(.table(rows: [], alignments: [], caption: nil))
        case "tr": stack.append(.row(cells: [], alignments: []))
        case "td", "th":
            if case .row(let cells, let alignments)? = stack.last { stack[stack.count - 1] = .row(cells: cells, alignments: alignments + [Self.alignment(token)]) }
            stack.append(.blocks(tag: name, blocks: [], paragraph: []))
        case "figure":
            endParagraph()
            stack.append(.blocks(tag: "figure", blocks: [], paragraph: []))
        case "figcaption": stack.append(.blocks(tag: "figcaption", blocks: [], paragraph: []))
        case "audio", "video":
            // A recording: its source here or in a <source> inside; its words (a transcript, the
            // fallback text) inside or in its title.
            guard !selfClosing else {
                try recording(name, source: token.attribute("src"), words: token.attribute("title") ?? "", pictures: pictures)
                return
            }
            stack.append(.inline(tag: name, href: token.attribute("src"), inlines: token.attribute("title").map { [.text($0)] } ?? []))
        case "object":
            // QTI 2.1's recording: an object of an audio or video type, its fallback the words.
            let data = token.attribute("data") ?? "", type = token.attribute("type") ?? ""
            guard type.hasPrefix("audio/") || type.hasPrefix("video/") || RichTextRules.recordingElement(data) != nil else { return }
            stack.append(.inline(tag: type.hasPrefix("video/") ? "object-video" : "object-audio", href: data, inlines: []))
        case "source":
            if case .inline(let tag, nil, let inlines)? = stack.last, tag == "audio" || tag == "video" {
                stack[stack.count - 1] = .inline(tag: tag, href: token.attribute("src"), inlines: inlines)
            }
        case "caption": stack.append(.blocks(tag: "caption", blocks: [], paragraph: []))
        default:
            guard let tag = Self.inlineTags[name], !selfClosing else { return }
            let href = tag == "a" ? token.attribute("href") : nil
            stack.append(.inline(tag: tag, href: href, inlines: []))
        }
    }

    private mutating func close(_ name: String, pictures: PictureResolver) throws(ItemProblem) {
        if case .pre? = stack.last, name != "pre" { return }
        var tag = Self.inlineTags[name] ?? name
        // An object that is a recording is closed by </object>.
        if name == "object", let top = stack.last.flatMap(Self.inlineTag), top.hasPrefix("object-") { tag = top }
        // Close up to the element this end tag ends; one that ends nothing open is ignored.
        guard stack.indices.dropFirst().contains(where: { Self.tag(of: stack[$0]) == tag }) else {
            if ["p", "div", "h1", "h2", "h3", "h4", "h5", "h6"].contains(name) { endParagraph() }
            return
        }
        while let last = stack.last, Self.tag(of: last) != tag { try pop(pictures: pictures) }
        try pop(pictures: pictures)
        if ["p", "div", "h1", "h2", "h3", "h4", "h5", "h6"].contains(name) { endParagraph() }
    }

    // MARK: The stack

    private static func tag(of frame: Frame) -> String {
        switch frame {
        case .blocks(let tag, _, _), .inline(let tag, _, _): tag
        case .list(let ordered, _, _): ordered ? "ol" : "ul"
        case .table: "table"
        case .row: "tr"
        case .pre: "pre"
        }
    }

    private static func inlineTag(_ frame: Frame) -> String? {
        if case .inline(let tag, _, _) = frame { return tag }
        return nil
    }

    private func isList(_ frame: Frame?) -> Bool {
        if case .list? = frame { return true }
        return false
    }

    /// Ends the top frame and gives what it made to the one under it.
    /// A recording the text plays, stored like a picture; a video needs words for those who
    /// cannot watch it, an audio without any is named by its file.
    private mutating func recording(_ element: String, source: String?, words: String, pictures: PictureResolver) throws(ItemProblem) {
        guard let source, !source.isEmpty else { throw ItemProblem(reason: "an <\(element)> with no address") }
        var transcript = words.trimmingCharacters(in: .whitespacesAndNewlines)
        if transcript.isEmpty {
            guard element == "audio" else {
                throw ItemProblem(reason: "the video \(source.prefix(100)) has no transcript: write what it shows and says inside the <video> element")
            }
            transcript = String((source.removingPercentEncoding ?? source).split(separator: "/").last ?? "")
        }
        switch pictures(source, transcript) {
        case .success(let stored):
            guard RichTextRules.recordingElement(stored.source) != nil else {
                throw ItemProblem(reason: "the \(element) \(source.prefix(100)) is not an MP3, Ogg, M4A, MP4 or WebM recording")
            }
            endParagraph()
            appendBlock(.picture(stored))
        case .failure(let problem): throw problem
        }
    }

    /// A `<ruby>`'s runs put together: each reading (`<rt>`) with the base text before it
    /// (`<rb>`'s or the ruby's own), as many as the element pairs; text after the last reading
    /// stays text. A reading with no base text is refused.
    private static func rubies(_ inlines: [RichText.Inline]) throws(ItemProblem) -> [RichText.Inline] {
        var made: [RichText.Inline] = [], base: [RichText.Inline] = []
        for inline in inlines {
            guard case .ruby("", let reading) = inline else { base.append(inline); continue }
            let words = RichTextPlain.text(base).trimmingCharacters(in: .whitespacesAndNewlines)
            let said = reading.trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = RichTextRules.rubyProblem(base: words, reading: said) {
                throw ItemProblem(reason: "the ruby \(words.prefix(40))(\(said.prefix(40))): \(problem)")
            }
            made.append(.ruby(base: words, reading: said))
            base = []
        }
        return made + base
    }

    private mutating func pop(pictures: PictureResolver) throws(ItemProblem) {
        let frame = stack.removeLast()
        switch frame {
        case .inline(let tag, let href, let inlines):
            switch tag {
            case "strong": append(.strong(inlines))
            case "em": append(.emphasis(inlines))
            case "sub": append(.subscript(inlines))
            case "sup": append(.superscript(inlines))
            case "code": append(.code(RichTextPlain.text(inlines)))
            // A reading goes to its ruby as a reading without base (put together when the ruby ends;
            // one outside any ruby is text); the parentheses for browsers without ruby are not text.
            case "rt":
                if case .inline("ruby", _, _)? = stack.last { append(.ruby(base: "", reading: RichTextPlain.text(inlines))) } else { for inline in inlines { append(inline) } }
            case "rp": break
            case "ruby": for inline in try Self.rubies(inlines) { append(inline) }
            case "audio", "video": try recording(tag, source: href, words: RichTextPlain.text(inlines), pictures: pictures)
            case "object-audio", "object-video":
                try recording(RichTextRules.recordingElement(href ?? "") ?? String(tag.dropFirst(7)), source: href, words: RichTextPlain.text(inlines), pictures: pictures)
            default:
                // A link to a recording (Moodle's media filter plays one) is the recording, its words the link's.
                if let href, !href.hasPrefix("https://"), RichTextRules.recordingElement(href) != nil {
                    try recording(RichTextRules.recordingElement(href) ?? "audio", source: href, words: RichTextPlain.text(inlines), pictures: pictures)
                    return
                }
                if let href, RichTextRules.isAllowedLink(href) { append(.link(href: href, inlines)) } else { for inline in inlines { append(inline) } }
            }
        case .blocks(let tag, var blocks, let paragraph):
            Self.flush(paragraph, into: &blocks)
            switch tag {
            case "li":
                if case .list(let ordered, let start, let items)? = stack.last { stack[stack.count - 1] = .list(ordered: ordered, start: start, items: items + [blocks]) }
            case "blockquote": appendBlock(.quote(blocks))
            case "td", "th":
                let cell = Self.inlines(of: blocks)
                if case .row(let cells, let alignments)? = stack.last { stack[stack.count - 1] = .row(cells: cells + [cell], alignments: alignments) }
            case "caption":
                if case .table(let rows, let alignments, _)? = stack.last { stack[stack.count - 1] = .table(rows: rows, alignments: alignments, caption: Self.inlines(of: blocks)) }
            case "figcaption", "p":
                // A figure's caption is its picture's.
                let caption = RichTextPlain.text(RichText(blocks))
                if case .blocks(let tag, var figure, let paragraph)? = stack.last, case .picture(var picture)? = figure.last, !caption.isEmpty {
                    picture.caption = caption
                    figure[figure.count - 1] = .picture(picture)
                    stack[stack.count - 1] = .blocks(tag: tag, blocks: figure, paragraph: paragraph)
                } else {
                    for block in blocks { appendBlock(block) }
                }
            default: for block in blocks { appendBlock(block) }
            }
        case .list(let ordered, let start, let items):
            if !items.isEmpty { appendBlock(.list(ordered: ordered, start: max(0, min(start, 999_999_999)), items: items)) }
        case .row(let cells, let alignments):
            if case .table(let rows, let tableAlignments, let caption)? = stack.last, !cells.isEmpty {
                stack[stack.count - 1] = .table(rows: rows + [cells], alignments: rows.isEmpty ? alignments : tableAlignments, caption: caption)
            }
        case .table(var rows, let alignments, let caption):
            guard !rows.isEmpty else { return }
            let width = rows.map(\.count).max() ?? 0
            rows = rows.map { $0 + Array(repeating: [], count: width - $0.count) }
            // The first row is the header (a table in a question always has one to read by).
            let columns = (0..<width).map { $0 < alignments.count ? alignments[$0] : .none }
            appendBlock(.table(RichText.Table(header: rows[0], alignments: columns, rows: Array(rows.dropFirst()), caption: caption)))
        case .pre(let language, let text):
            var code = text
            if code.hasPrefix("\n") { code.removeFirst() }
            while code.hasSuffix("\n") { code.removeLast() }
            appendBlock(.code(language: language, text: code))
        }
    }

    private mutating func append(_ inline: RichText.Inline) {
        var inline = inline
        // Blanks that start a line (after a <br>) are not shown, nor kept.
        if case .text(let text) = inline, Self.lastInline(stack.last) == .lineBreak {
            let rest = String(text.drop { $0 == " " })
            guard !rest.isEmpty else { return }
            inline = .text(rest)
        }
        switch stack.last {
        case .inline(let tag, let href, let inlines)?: stack[stack.count - 1] = .inline(tag: tag, href: href, inlines: inlines + [inline])
        case .blocks(let tag, let blocks, let paragraph)?: stack[stack.count - 1] = .blocks(tag: tag, blocks: blocks, paragraph: paragraph + [inline])
        case .list?, .table?, .row?:
            // Text straight inside a list or table (not in an item or cell) is only its layout.
            if case .text(let text) = inline, text.allSatisfy({ $0 == " " }) { return }
            stack.append(.blocks(tag: stack.last.map(Self.tag(of:)) == "tr" ? "td" : "li", blocks: [], paragraph: [inline]))
        case .pre?, nil: break
        }
    }

    private static func classes(_ token: HTMLScanner.Token) -> [Substring] { (token.attribute("class") ?? "").split(separator: " ") }

    /// The last inline of a frame's run of text.
    private static func lastInline(_ frame: Frame?) -> RichText.Inline? {
        switch frame {
        case .inline(_, _, let inlines)?: inlines.last
        case .blocks(_, _, let paragraph)?: paragraph.last
        default: nil
        }
    }

    private mutating func appendBlock(_ block: RichText.Block) {
        endParagraph()
        for index in stack.indices.reversed() {
            if case .blocks(let tag, let blocks, let paragraph) = stack[index] {
                stack[index] = .blocks(tag: tag, blocks: blocks + [block], paragraph: paragraph)
                return
            }
        }
    }

    private mutating func endParagraph() {
        for index in stack.indices.reversed() {
            if case .blocks(let tag, var blocks, let paragraph) = stack[index] {
                Self.flush(paragraph, into: &blocks)
                stack[index] = .blocks(tag: tag, blocks: blocks, paragraph: [])
                return
            }
            if case .inline = stack[index] { return }
        }
    }

    /// A paragraph's inlines with the blanks at either end gone; nothing when only blanks.
    private static func flush(_ paragraph: [RichText.Inline], into blocks: inout [RichText.Block]) {
        func isBlank(_ inline: RichText.Inline) -> Bool {
            if case .text(let text) = inline { return text.allSatisfy { $0 == " " } }
            return inline == .lineBreak
        }
        var inlines = paragraph
        while let first = inlines.first, isBlank(first) { inlines.removeFirst() }
        while let last = inlines.last, isBlank(last) { inlines.removeLast() }
        if case .text(let text)? = inlines.first { inlines[0] = .text(String(text.drop { $0 == " " })) }
        if case .text(let text)? = inlines.last { inlines[inlines.count - 1] = .text(String(text.reversed().drop { $0 == " " }.reversed())) }
        guard !inlines.isEmpty else { return }
        blocks.append(.paragraph(inlines))
    }

    /// A cell's blocks as one run of text (paragraphs apart by line breaks).
    private static func inlines(of blocks: [RichText.Block]) -> [RichText.Inline] {
        var inlines: [RichText.Inline] = []
        for block in blocks {
            if !inlines.isEmpty { inlines.append(.lineBreak) }
            if case .paragraph(let run) = block { inlines += run } else { inlines.append(.text(RichTextPlain.text(RichText([block])))) }
        }
        return inlines
    }

    /// Moodle's TeX in text: `\(…\)` (in the line) and `$$…$$` or `\[…\]` (displayed) become
    /// formulas; a formula the converter cannot show makes the question's problem, named.
    static func formulas(in text: String) throws(ItemProblem) -> [(inline: RichText.Inline, display: Bool)] {
        var inlines: [(inline: RichText.Inline, display: Bool)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let next = [("\\(", "\\)"), ("$$", "$$"), ("\\[", "\\]")].compactMap { pair -> (Range<Substring.Index>, String)? in rest.range(of: pair.0).map { ($0, pair.1) } }
                .min { $0.0.lowerBound < $1.0.lowerBound }
            guard let (open, closeMark) = next, let close = rest[open.upperBound...].range(of: closeMark) else { inlines.append((.text(String(rest)), false)); break }
            if open.lowerBound > rest.startIndex { inlines.append((.text(String(rest[..<open.lowerBound])), false)) }
            let tex = String(rest[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespaces)
            do {
                inlines.append((.math(try RichText.Math(tex: tex)), closeMark != "\\)"))
            } catch {
                throw ItemProblem(reason: "the formula \(tex.prefix(60)) cannot be shown: \(error.message)")
            }
            rest = rest[close.upperBound...]
        }
        return inlines
    }
}
