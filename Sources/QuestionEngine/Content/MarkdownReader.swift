/// Reads the markdown an author writes (CommonMark's blocks and inlines that `RichText` holds,
/// GitHub's tables, pandoc's `~sub~` and `^sup^`) into a `RichText`, or refuses it saying what
/// and where. A line wrap inside a paragraph is a space, as in CommonMark; a hard break is two
/// spaces or a backslash at the end of a line. What the tree cannot hold (headings, rules,
/// a picture inside a sentence, a link that is not `https:`) is refused, never dropped. Every
/// search for a closing mark remembers where it failed, so no input makes the reader quadratic.
public struct MarkdownReader {
    /// What is wrong with a source text, on which line.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    public init() {}

    public func read(_ source: String) throws(Problem) -> RichText {
        guard source.utf8.count <= RichTextRules.maximumLength else {
            throw Problem(line: 1, message: "the text is longer than \(RichTextRules.maximumLength / 1024) KB")
        }
        let normalized = source.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").replacingOccurrences(of: "\t", with: "    ")
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { Line(text: String($1), number: $0 + 1) }
        return RichText(try blocks(lines, depth: 0))
    }

    struct Line {
        var text: String
        var number: Int
        var isBlank: Bool { text.allSatisfy { $0 == " " } }
        var indent: Int { text.prefix { $0 == " " }.count }
        var trimmed: Substring { text.drop { $0 == " " } }
    }

    // MARK: Blocks

    private func blocks(_ lines: [Line], depth: Int) throws(Problem) -> [RichText.Block] {
        var blocks: [RichText.Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.isBlank { index += 1; continue }
            let trimmed = line.trimmed
            if line.indent <= 3, let fence = Self.fence(trimmed) {
                let (block, next) = try code(lines, from: index, fence: fence)
                blocks.append(block); index = next
            } else if line.indent <= 3, trimmed.hasPrefix(">") {
                guard depth < RichTextRules.maximumDepth else { throw Problem(line: line.number, message: "quotes and lists nest more than \(RichTextRules.maximumDepth) deep") }
                var inner: [Line] = []
                while index < lines.count, lines[index].indent <= 3, lines[index].trimmed.hasPrefix(">") {
                    var text = lines[index].trimmed.dropFirst()
                    if text.first == " " { text = text.dropFirst() }
                    inner.append(Line(text: String(text), number: lines[index].number)); index += 1
                }
                blocks.append(.quote(try self.blocks(inner, depth: depth + 1)))
            } else if line.indent <= 3, Self.listMarker(trimmed) != nil {
                let (block, next) = try list(lines, from: index, depth: depth)
                blocks.append(block); index = next
            } else if line.indent <= 3, Self.isHeading(trimmed) {
                throw Problem(line: line.number, message: "a heading (#) is not part of a question's text: write **bold** instead")
            } else if line.indent <= 3, Self.isRule(trimmed) {
                throw Problem(line: line.number, message: "a horizontal rule (---) is not part of a question's text")
            } else if index + 1 < lines.count, trimmed.contains("|"), let alignments = Self.delimiterRow(lines[index + 1].trimmed) {
                let (block, next) = try table(lines, from: index, alignments: alignments)
                blocks.append(block); index = next
            } else {
                var paragraph: [Line] = []
                while index < lines.count, !lines[index].isBlank, paragraph.isEmpty || !Self.interrupts(lines[index]) {
                    paragraph.append(lines[index]); index += 1
                }
                blocks.append(try self.paragraph(paragraph))
            }
        }
        return blocks
    }

    /// A paragraph; one that is a picture alone is the picture.
    private func paragraph(_ lines: [Line]) throws(Problem) -> RichText.Block {
        // A paragraph's text starts at its first word and ends at its last (CommonMark).
        let text = lines.map(\.text).joined(separator: "\n").trimmingBlanks
        let stripped = text
        if stripped.hasPrefix("!["), let picture = try Self.picture(stripped, line: lines[0].number) { return .picture(picture) }
        // A paragraph that is one formula between $$ … $$ or \[ … \] is a displayed formula.
        for (open, close) in [("$$", "$$"), ("\\[", "\\]")] where stripped.count >= 4 && stripped.hasPrefix(open) && stripped.hasSuffix(close) {
            let tex = String(stripped.dropFirst(2).dropLast(2))
            guard !tex.contains(open), !tex.contains(close), tex.contains(where: { $0 != " " && $0 != "\n" }) else { continue }
            do {
                return .math(try RichText.Math(tex: tex.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)))
            } catch {
                throw Problem(line: lines[0].number, message: "the formula \(tex.prefix(60)) cannot be shown: \(error.message)")
            }
        }
        return .paragraph(try Self.inlines(text, line: lines[0].number))
    }

    private func code(_ lines: [Line], from start: Int, fence: (mark: Character, count: Int, info: Substring)) throws(Problem) -> (RichText.Block, Int) {
        let language = fence.info.split(separator: " ").first.map { $0.lowercased() }
        if let language, !RichTextRules.isAllowedLanguage(language) {
            throw Problem(line: lines[start].number, message: "\"\(language.prefix(40))\" is not a language name (letters, digits, +, # and -)")
        }
        let indent = lines[start].indent
        var body: [String] = []
        var index = start + 1
        while index < lines.count {
            let trimmed = lines[index].trimmed
            if lines[index].indent <= 3, trimmed.allSatisfy({ $0 == fence.mark }), trimmed.count >= fence.count {
                return (.code(language: language, text: body.joined(separator: "\n")), index + 1)
            }
            // The fence's own indentation is taken off every line of the code.
            body.append(String(lines[index].text.dropFirst(min(indent, lines[index].indent))))
            index += 1
        }
        throw Problem(line: lines[start].number, message: "the code block opened here is never closed with \(String(repeating: fence.mark, count: fence.count))")
    }

    private func list(_ lines: [Line], from start: Int, depth: Int) throws(Problem) -> (RichText.Block, Int) {
        guard depth < RichTextRules.maximumDepth else { throw Problem(line: lines[start].number, message: "quotes and lists nest more than \(RichTextRules.maximumDepth) deep") }
        guard let first = Self.listMarker(lines[start].trimmed) else { return (.paragraph([]), start + 1) }
        var items: [[Line]] = []
        var index = start
        let baseIndent = lines[start].indent
        while index < lines.count {
            let line = lines[index]
            guard line.indent >= baseIndent, line.indent <= baseIndent + 3, let marker = Self.listMarker(line.trimmed), marker.ordered == first.ordered, marker.delimiter == first.delimiter else { break }
            let contentIndent = line.indent + marker.width
            var item = [Line(text: String(line.text.dropFirst(contentIndent)), number: line.number)]
            index += 1
            // The item's own lines: indented to its content, or a paragraph's lazy continuation.
            while index < lines.count {
                let next = lines[index]
                if next.isBlank {
                    // A blank line continues the item only when indented content follows it.
                    var after = index + 1
                    while after < lines.count, lines[after].isBlank { after += 1 }
                    guard after < lines.count, lines[after].indent >= contentIndent else { break }
                    item.append(Line(text: "", number: next.number)); index += 1
                } else if next.indent >= contentIndent {
                    item.append(Line(text: String(next.text.dropFirst(contentIndent)), number: next.number)); index += 1
                } else if !Self.interrupts(next), !(item.last?.isBlank ?? true), Self.listMarker(next.trimmed) == nil {
                    item.append(Line(text: String(next.trimmed), number: next.number)); index += 1
                } else {
                    break
                }
            }
            items.append(item)
            while index < lines.count, lines[index].isBlank, index + 1 < lines.count, Self.listMarker(lines[index + 1].trimmed) != nil, lines[index + 1].indent == baseIndent { index += 1 }
        }
        var read: [[RichText.Block]] = []
        for item in items { read.append(try blocks(item, depth: depth + 1)) }
        return (.list(ordered: first.ordered, start: first.start, items: read), index)
    }

    private func table(_ lines: [Line], from start: Int, alignments: [RichText.Alignment]) throws(Problem) -> (RichText.Block, Int) {
        let header = Self.cells(lines[start].trimmed)
        guard header.count == alignments.count else {
            throw Problem(line: lines[start].number, message: "the table's header has \(header.count) cells and its delimiter row \(alignments.count)")
        }
        func inlines(_ cell: String, _ line: Int) throws(Problem) -> [RichText.Inline] { try Self.inlines(cell, line: line) }
        var headerCells: [[RichText.Inline]] = []
        for cell in header { headerCells.append(try inlines(cell, lines[start].number)) }
        var rows: [[[RichText.Inline]]] = []
        var index = start + 2
        while index < lines.count, !lines[index].isBlank, lines[index].trimmed.contains("|") {
            var cells = Self.cells(lines[index].trimmed)
            guard cells.count <= alignments.count else {
                throw Problem(line: lines[index].number, message: "this row has \(cells.count) cells; the table has \(alignments.count) columns")
            }
            cells += Array(repeating: "", count: alignments.count - cells.count)
            var row: [[RichText.Inline]] = []
            for cell in cells { row.append(try inlines(cell, lines[index].number)) }
            rows.append(row); index += 1
        }
        var caption: [RichText.Inline]?
        var next = index
        while next < lines.count, lines[next].isBlank { next += 1 }
        if next < lines.count, lines[next].trimmed.hasPrefix("Table: ") {
            caption = try inlines(String(lines[next].trimmed.dropFirst("Table: ".count)), lines[next].number)
            index = next + 1
        }
        return (.table(RichText.Table(header: headerCells, alignments: alignments, rows: rows, caption: caption)), index)
    }

    private static func inlines(_ text: String, line: Int) throws(Problem) -> [RichText.Inline] {
        var reader = InlineReader(text, line: line)
        return try reader.read()
    }

    // MARK: Recognising lines

    private static func fence(_ trimmed: Substring) -> (mark: Character, count: Int, info: Substring)? {
        guard let mark = trimmed.first, mark == "`" || mark == "~" else { return nil }
        let count = trimmed.prefix { $0 == mark }.count
        guard count >= 3 else { return nil }
        let info = trimmed.dropFirst(count).trimmingPrefixBlanks
        if mark == "`" && info.contains("`") { return nil }
        return (mark, count, info)
    }

    private static func listMarker(_ trimmed: Substring) -> (ordered: Bool, start: Int, delimiter: Character, width: Int)? {
        if let first = trimmed.first, "-*+".contains(first) {
            let rest = trimmed.dropFirst()
            guard rest.isEmpty || rest.first == " " else { return nil }
            if isRule(trimmed) { return nil }
            return (false, 1, first, 1 + min(4, rest.prefix { $0 == " " }.count).clamped(atLeast: 1))
        }
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard (1...9).contains(digits.count), let delimiter = trimmed.dropFirst(digits.count).first, delimiter == "." || delimiter == ")" else { return nil }
        let rest = trimmed.dropFirst(digits.count + 1)
        guard rest.isEmpty || rest.first == " " else { return nil }
        return (true, Int(digits) ?? 1, delimiter, digits.count + 1 + min(4, rest.prefix { $0 == " " }.count).clamped(atLeast: 1))
    }

    private static func isHeading(_ trimmed: Substring) -> Bool {
        let hashes = trimmed.prefix { $0 == "#" }.count
        return (1...6).contains(hashes) && (trimmed.count == hashes || trimmed.dropFirst(hashes).first == " ")
    }

    private static func isRule(_ trimmed: Substring) -> Bool {
        guard let mark = trimmed.first, "-*_".contains(mark) else { return false }
        let marks = trimmed.filter { $0 != " " }
        return marks.count >= 3 && marks.allSatisfy { $0 == mark }
    }

    /// A line that ends a paragraph: a fence, a quote, a heading, a rule or a bulleted item.
    private static func interrupts(_ line: Line) -> Bool {
        guard line.indent <= 3 else { return false }
        let trimmed = line.trimmed
        if fence(trimmed) != nil || trimmed.hasPrefix(">") || isHeading(trimmed) || isRule(trimmed) { return true }
        if let marker = listMarker(trimmed) { return !marker.ordered || marker.start == 1 }
        return false
    }

    /// A table's delimiter row (`| --- | :-: | --: |`): each column's alignment.
    static func delimiterRow(_ trimmed: Substring) -> [RichText.Alignment]? {
        guard trimmed.contains("-") else { return nil }
        var alignments: [RichText.Alignment] = []
        for cell in cells(trimmed) {
            let text = cell.trimmingBlanks
            let left = text.hasPrefix(":"), right = text.hasSuffix(":")
            let dashes = text.dropFirst(left ? 1 : 0).dropLast(right && text.count > 1 ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == "-" }) else { return nil }
            alignments.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return alignments.isEmpty ? nil : alignments
    }

    /// A table row's cells: split at `|` not escaped and not inside a code span, the outer pipes optional.
    static func cells(_ trimmed: Substring) -> [String] {
        var text = trimmed.trimmingBlanks
        if text.hasPrefix("|") { text.removeFirst() }
        if text.hasSuffix("|") && !text.hasSuffix("\\|") { text.removeLast() }
        var cells: [String] = [], current = "", escaped = false, inCode = false
        for character in text {
            if escaped {
                current.append(character == "|" ? "|" : "\\"); if character != "|" { current.append(character) }
                // Inside a code span a backslash is itself: the backtick after it still closes the span.
                if character == "`" && inCode { inCode = false }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "`" {
                inCode.toggle(); current.append(character)
            } else if character == "|" && !inCode {
                cells.append(current.trimmingBlanks); current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        cells.append(current.trimmingBlanks)
        return cells
    }

    /// `![alt](/content-images/name "caption")` standing alone; nil when the text is more than that.
    private static func picture(_ text: String, line: Int) throws(Problem) -> RichText.Picture? {
        guard text.hasSuffix(")"), let close = text.range(of: "]("), !text[text.index(text.startIndex, offsetBy: 2)..<close.lowerBound].contains("]") else { return nil }
        let alt = String(text[text.index(text.startIndex, offsetBy: 2)..<close.lowerBound]).trimmingBlanks
        var target = String(text[close.upperBound..<text.index(before: text.endIndex)]).trimmingBlanks
        var caption: String?
        if let quote = target.firstIndex(of: "\""), target.hasSuffix("\""), quote < target.index(before: target.endIndex) {
            caption = String(target[target.index(after: quote)..<target.index(before: target.endIndex)])
            target = String(target[..<quote]).trimmingBlanks
        }
        guard !target.contains(" ") else { return nil }
        guard RichTextRules.isAllowedPicture(target) else {
            throw Problem(line: line, message: "a picture must be one of the portal's (\(RichTextRules.picturePrefix)…), not \(target.prefix(80))")
        }
        guard !alt.isEmpty else { throw Problem(line: line, message: "the picture \(target.prefix(80)) has no alt text: say in [brackets] what it shows") }
        return RichText.Picture(source: target, alt: alt, caption: caption.map(\.trimmingBlanks).flatMap { $0.isEmpty ? nil : $0 })
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    var trimmingBlanks: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    var trimmingPrefixBlanks: SubSequence { self.drop { $0 == " " } }
}

extension Int {
    fileprivate func clamped(atLeast minimum: Int) -> Int { Swift.max(self, minimum) }
}
