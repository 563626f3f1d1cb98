/// Writes a `RichText` back as the markdown `MarkdownReader` reads into the same tree: what
/// exports (format 1) and the editor show an author. Every ASCII punctuation mark in text is
/// escaped, so no text can turn into markup; code keeps its characters, fenced or in a span
/// longer than any run of backticks inside it.
public enum MarkdownWriter {
    public static func write(_ text: RichText) -> String { write(text.blocks) }

    /// Blocks apart by a blank line. Two lists in a row would read as one, so every other one
    /// takes the other marker (`)` for `.`, `*` for `-`), which CommonMark reads as a new list.
    private static func write(_ blocks: [RichText.Block]) -> String {
        var written: [String] = []
        var alternate = false
        var previousOrdered: Bool?
        for block in blocks {
            if case .list(let ordered, _, _) = block {
                alternate = previousOrdered == ordered ? !alternate : false
                previousOrdered = ordered
            } else {
                previousOrdered = nil
            }
            written.append(self.block(in: block, alternate: alternate))
        }
        return written.joined(separator: "\n\n")
    }

    private static func block(in block: RichText.Block, alternate: Bool = false) -> String {
        switch block {
        case .paragraph(let inlines):
            let text = write(inlines, inside: nil)
            // "[x]" escaped is "\[x\]", which would read as a displayed formula: its first
            // bracket stays bare (with every other bracket escaped it opens no link).
            return text.hasPrefix("\\[") && text.hasSuffix("\\]") ? String(text.dropFirst()) : text
        case .code(let language, let text):
            let longest = longestRun(of: "`", in: text)
            let fence = String(repeating: "`", count: max(3, longest + 1))
            return fence + (language ?? "") + "\n" + text + "\n" + fence
        case .list(let ordered, let start, let items):
            return items.enumerated().map { offset, item in
                let marker = ordered ? "\(start + offset)\(alternate ? ")" : ".") " : (alternate ? "* " : "- ")
                let indent = String(repeating: " ", count: marker.count)
                let bare = String(marker.dropLast())
                guard !item.isEmpty else { return bare }
                let lines = write(item).split(separator: "\n", omittingEmptySubsequences: false)
                let indented = lines.map { $0.isEmpty ? "" : indent + $0 }
                // An item that begins with a list has its marker on a line of its own: "- - x"
                // reads otherwise, and "- - -" is a rule.
                if case .list? = item.first { return ([bare] + indented).joined(separator: "\n") }
                return ([marker + lines[0]] + indented.dropFirst()).joined(separator: "\n")
            }.joined(separator: "\n")
        case .table(let table):
            func row(_ cells: [[RichText.Inline]]) -> String {
                "| " + cells.map { write($0, inside: nil, lineStart: false).replacingOccurrences(of: "\n", with: " ") }.joined(separator: " | ") + " |"
            }
            var lines = [row(table.header)]
            lines.append("| " + table.alignments.map { alignment -> String in
                switch alignment {
                case .none: "---"
                case .left: ":--"
                case .center: ":-:"
                case .right: "--:"
                }
            }.joined(separator: " | ") + " |")
            lines += table.rows.map(row)
            if let caption = table.caption { lines += ["", "Table: " + write(caption, inside: nil)] }
            return lines.joined(separator: "\n")
        case .quote(let blocks):
            return write(blocks)
                .split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? ">" : "> " + $0 }.joined(separator: "\n")
        case .math(let math):
            return "$$" + math.tex + "$$"
        case .picture(let picture):
            let caption = picture.caption.map { " \"\($0)\"" } ?? ""
            return "![\(picture.alt)](\(picture.source)\(caption))"
        }
    }

    /// Inlines as markdown. `inside` is the mark of the emphasis or strong text they are in, so
    /// an inner one is written with the other mark (`**_both_**`) and no run of marks is ambiguous.
    private static func write(_ inlines: [RichText.Inline], inside: Character?, lineStart: Bool = true) -> String {
        var out = ""
        var atLineStart = lineStart
        for inline in inlines {
            defer { if case .lineBreak = inline { atLineStart = true } else { atLineStart = false } }
            switch inline {
            case .text(let text): out += escaped(text, atLineStart: atLineStart)
            case .emphasis(let inner):
                let mark = inside == "*" ? "_" : "*"
                out += mark + write(inner, inside: Character(mark), lineStart: false) + mark
            case .strong(let inner):
                let mark = inside == "*" ? "__" : "**"
                out += mark + write(inner, inside: mark.first, lineStart: false) + mark
            case .subscript(let inner): out += "~" + write(inner, inside: inside, lineStart: false) + "~"
            case .superscript(let inner): out += "^" + write(inner, inside: inside, lineStart: false) + "^"
            case .code(let code):
                let ticks = String(repeating: "`", count: longestRun(of: "`", in: code) + 1)
                let padded = code.hasPrefix("`") || code.hasSuffix("`") || (code.hasPrefix(" ") && code.hasSuffix(" ") && code.contains { $0 != " " })
                out += ticks + (padded ? " " + code + " " : code) + ticks
            case .lineBreak: out += "\\\n"
            // \( … \) whatever the TeX begins or ends with, and whatever follows it.
            case .math(let math): out += "\\(" + math.tex + "\\)"
            case .link(let href, let inner): out += "[" + write(inner, inside: inside, lineStart: false) + "](" + href + ")"
            // Its parts hold no brace, bar or line break (RichTextRules.rubyProblem): written as they are.
            case .ruby(let base, let reading): out += "{" + base + "|" + reading + "}"
            }
        }
        return out
    }

    /// Marks that may open markup anywhere in a line.
    private static let marks = Set("\\*`[]~^|$")

    /// Text with every character that could be read as markup escaped: the marks above, `!`
    /// before `[`, `_` where it could open emphasis (not inside a word), and at the start of a
    /// line whatever would begin a block there (`#`, `>`, `-`, `+`, `:`, `1. `).
    private static func escaped(_ text: String, atLineStart: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let characters = Array(text)
        var lineStart = atLineStart
        var digitsAtStart = lineStart
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            var escape = marks.contains(character)
            if character == "!" && next == "[" { escape = true }
            if character == "_" && !(previous.map { $0.isLetter || $0.isNumber } ?? false) { escape = true }
            let endsMarker = next == nil || next == " "
            // `:` and `-` could also begin a table's delimiter row under a line with a `|`.
            if lineStart && "#>-+:".contains(character) { escape = true }
            if digitsAtStart && (character == "." || character == ")") && index > 0 && endsMarker { escape = true }
            if escape { out.append("\\") }
            out.append(character)
            digitsAtStart = digitsAtStart && (character.isASCII && character.isNumber)
            lineStart = lineStart && character == " "
        }
        return out
    }

    private static func longestRun(of mark: Character, in text: String) -> Int {
        var longest = 0, current = 0
        for character in text {
            current = character == mark ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }
}
