/// The inlines of one paragraph or table cell (see `MarkdownReader`): backslash escapes, code
/// spans, `**strong**`, `*emphasis*` (and with `_` between words), `~sub~`, `^sup^`, links,
/// ruby (`{漢字|かんじ}`) and line breaks. A mark with no closing mark is text. Searches for a closing mark that failed
/// are remembered by mark and end, so a later opener of the same mark does not search again.
struct InlineReader {
    private let scalars: [Unicode.Scalar]
    private let line: Int
    private var failed: [String: Int] = [:]
    /// For each `[`, where its `]` is (-1: nowhere), found in one pass.
    private let closingBracket: [Int]
    /// An address after `](` that ran into a blank or the end from somewhere in this range:
    /// any address starting inside it does too.
    private var deadAddress: ClosedRange<Int>?
    /// For the first backtick of each run of them, where the next run of the same length
    /// begins (-1: nowhere): where a code span opened there closes, found in one pass.
    private let codeSpanClose: [Int]
    /// For each `$` that is not escaped, where the next one is (-1: nowhere); and where each
    /// `\)` stands: a formula's end, found without searching again.
    private let nextDollar: [Int]
    private let parenCloses: [Int]

    init(_ text: String, line: Int) {
        scalars = Array(text.unicodeScalars)
        self.line = line
        var closing = Array(repeating: -1, count: scalars.count), open: [Int] = []
        var index = 0
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 1
            case "[": open.append(index)
            case "]": if let start = open.popLast() { closing[start] = index }
            default: break
            }
            index += 1
        }
        closingBracket = closing
        codeSpanClose = Self.codeSpanCloses(scalars)
        var next = Array(repeating: -1, count: scalars.count), closes: [Int] = [], lastDollar = -1, position = 0
        while position < scalars.count {
            if scalars[position] == "\\", position + 1 < scalars.count {
                if scalars[position + 1] == ")" { closes.append(position) }
                position += 2; continue
            }
            if scalars[position] == "$" { if lastDollar >= 0 { next[lastDollar] = position }; lastDollar = position }
            position += 1
        }
        nextDollar = next
        parenCloses = closes
    }

    /// A formula opened at `index` (`$` or `\(`): the node and where it ends; nil when it is no
    /// formula (a `$` before a blank, or without a closing one: "costs $5").
    private func formula(at index: Int, within range: Range<Int>) throws(MarkdownReader.Problem) -> (RichText.Inline, Int)? {
        let start: Int, end: Int, after: Int
        if scalars[index] == "$" {
            let close = nextDollar[index]
            guard close > index + 1, close < range.upperBound, !isBlank(index + 1), !isBlank(close - 1) else { return nil }
            if close + 1 < range.upperBound, ("0"..."9").contains(scalars[close + 1]) { return nil }
            (start, end, after) = (index + 1, close, close + 1)
        } else {
            var low = 0, high = parenCloses.count
            while low < high { let middle = (low + high) / 2; if parenCloses[middle] <= index { low = middle + 1 } else { high = middle } }
            guard low < parenCloses.count, parenCloses[low] + 1 < range.upperBound else { return nil }
            (start, end, after) = (index + 2, parenCloses[low], parenCloses[low] + 2)
        }
        // A line wrap inside a formula is a space, as TeX reads it.
        let tex = text(start..<end).replacingOccurrences(of: "\n", with: " ")
        do {
            return (.math(try RichText.Math(tex: tex)), after)
        } catch {
            throw MarkdownReader.Problem(line: line, message: "the formula \(tex.prefix(60)) cannot be shown: \(error.message)")
        }
    }

    /// Each backtick run's next run of equal length, from the runs taken right to left.
    private static func codeSpanCloses(_ scalars: [Unicode.Scalar]) -> [Int] {
        var runs: [(start: Int, length: Int)] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "`" else { index += 1; continue }
            var end = index
            while end < scalars.count, scalars[end] == "`" { end += 1 }
            runs.append((index, end - index)); index = end
        }
        var closes = Array(repeating: -1, count: scalars.count)
        var nextOfLength: [Int: Int] = [:]
        for run in runs.reversed() {
            closes[run.start] = nextOfLength[run.length] ?? -1
            nextOfLength[run.length] = run.start
        }
        return closes
    }

    /// Where a code span whose opening run begins at `index` closes inside `range`, if it does.
    private func codeSpanEnd(at index: Int, within range: Range<Int>) -> Int? {
        let close = codeSpanClose[index]
        return close >= 0 && close < range.upperBound ? close : nil
    }

    mutating func read() throws(MarkdownReader.Problem) -> [RichText.Inline] {
        try inlines(0..<scalars.count, depth: 0)
    }

    private static let punctuation = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars)

    private func isBlank(_ index: Int) -> Bool {
        index < 0 || index >= scalars.count || scalars[index] == " " || scalars[index] == "\n"
    }

    private func isWordCharacter(_ index: Int) -> Bool {
        guard index >= 0, index < scalars.count else { return false }
        let scalar = scalars[index]
        return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    private func text(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range])
        return String(view)
    }

    private mutating func inlines(_ range: Range<Int>, depth: Int) throws(MarkdownReader.Problem) -> [RichText.Inline] {
        var result: [RichText.Inline] = []
        var pending = String.UnicodeScalarView()
        func flush() {
            if !pending.isEmpty { result.append(.text(String(pending))); pending = String.UnicodeScalarView() }
        }
        var index = range.lowerBound
        while index < range.upperBound {
            let scalar = scalars[index]
            switch scalar {
            case "$", "\\" where scalar == "$" || (index + 1 < range.upperBound && scalars[index + 1] == "("):
                if let (node, end) = try formula(at: index, within: range) {
                    flush(); result.append(node); index = end
                } else if scalar == "$" {
                    pending.append(scalar); index += 1
                } else {
                    pending.append("("); index += 2
                }
            case "\\" where index + 1 < range.upperBound && Self.punctuation.contains(scalars[index + 1]):
                pending.append(scalars[index + 1]); index += 2
            case "\\" where index + 1 < range.upperBound && scalars[index + 1] == "\n":
                flush(); result.append(.lineBreak); index += 2
            case "\n":
                // Two spaces before the end of a line break it; otherwise a wrap is a space.
                var trailing = 0
                while let last = pending.last, last == " " { pending.removeLast(); trailing += 1 }
                if trailing >= 2 { flush(); result.append(.lineBreak) } else { pending.append(" ") }
                index += 1
                while index < range.upperBound, scalars[index] == " " { index += 1 }
            case "`":
                let run = run(of: "`", at: index, within: range)
                if let close = codeSpanEnd(at: index, within: range) {
                    flush()
                    var code = text((index + run)..<close).replacingOccurrences(of: "\n", with: " ")
                    if code.count > 1, code.hasPrefix(" "), code.hasSuffix(" "), code.contains(where: { $0 != " " }) { code = String(code.dropFirst().dropLast()) }
                    result.append(.code(code)); index = close + run
                } else {
                    pending.append(contentsOf: scalars[index..<(index + run)]); index += run
                }
            case "*", "_", "~", "^":
                let run = run(of: scalar, at: index, within: range)
                if let (node, end) = try delimited(scalar, run: run, at: index, within: range, depth: depth) {
                    flush(); result.append(node); index = end
                } else {
                    pending.append(contentsOf: scalars[index..<(index + run)]); index += run
                }
            case "{":
                if let (node, end) = try ruby(at: index, within: range) {
                    flush(); result.append(node); index = end
                } else {
                    pending.append(scalar); index += 1
                }
            case "!":
                if index + 1 < range.upperBound, scalars[index + 1] == "[", link(at: index + 1, within: range) != nil {
                    throw MarkdownReader.Problem(line: line, message: "a picture stands in a paragraph of its own: put ![…](…) on a line by itself")
                }
                pending.append(scalar); index += 1
            case "[":
                if let (label, href, end) = link(at: index, within: range) {
                    guard RichTextRules.isAllowedLink(href) else {
                        throw MarkdownReader.Problem(line: line, message: "a link must go to an https: address, not \(href.prefix(80))")
                    }
                    guard depth < RichTextRules.maximumDepth * 2 else { pending.append(scalar); index += 1; continue }
                    flush(); result.append(.link(href: href, try inlines(label, depth: depth + 1))); index = end
                } else {
                    pending.append(scalar); index += 1
                }
            default:
                pending.append(scalar); index += 1
            }
        }
        flush()
        return result
    }

    private func run(of mark: Unicode.Scalar, at index: Int, within range: Range<Int>) -> Int {
        var end = index
        while end < range.upperBound, scalars[end] == mark { end += 1 }
        return end - index
    }

    /// Where a run of `run` marks closes after `start`: a run at least as long, not after a
    /// blank, outside code spans; remembered when there is none.
    private mutating func closing(run: Int, of mark: Unicode.Scalar, from start: Int, within range: Range<Int>) -> Int? {
        let key = "\(mark)|\(run)|\(range.upperBound)"
        if let failedFrom = failed[key], start >= failedFrom { return nil }
        var index = start
        while index < range.upperBound {
            if scalars[index] == "\\" { index += 2; continue }
            // A code span binds tighter than emphasis: a mark inside one closes nothing.
            if scalars[index] == "`" {
                let length = self.run(of: "`", at: index, within: range)
                index = codeSpanEnd(at: index, within: range).map { $0 + length } ?? index + length
                continue
            }
            if scalars[index] == mark {
                let length = self.run(of: mark, at: index, within: range)
                if length >= run && !isBlank(index - 1) && index > start { return index }
                index += length
            } else {
                index += 1
            }
        }
        failed[key] = min(failed[key] ?? start, start)
        return nil
    }

    /// `**strong**`, `*emphasis*`, `~sub~`, `^sup^` opened at `index`, with where it ends.
    private mutating func delimited(
        _ mark: Unicode.Scalar, run: Int, at index: Int, within range: Range<Int>, depth: Int
    ) throws(MarkdownReader.Problem) -> (RichText.Inline, Int)? {
        let after = index + run
        guard !isBlank(after), depth < RichTextRules.maximumDepth * 2 else { return nil }
        // snake_case and 2^10 stay as written: `_` opens only after a non-word character.
        if mark == "_" && isWordCharacter(index - 1) { return nil }
        let width: Int
        switch mark {
        case "~", "^": guard run == 1 else { return nil }; width = 1
        default: width = min(run, 2)
        }
        guard let close = closing(run: width, of: mark, from: index + width, within: range) else { return nil }
        if mark == "_" && isWordCharacter(close + width) { return nil }
        let inner = (index + width)..<close
        if (mark == "~" || mark == "^") && scalars[inner].contains(where: { $0 == " " || $0 == "\n" }) { return nil }
        let content = try inlines(inner, depth: depth + 1)
        let node: RichText.Inline = switch (mark, width) {
        case ("~", _): .subscript(content)
        case ("^", _): .superscript(content)
        case (_, 2): .strong(content)
        default: .emphasis(content)
        }
        // A longer opening run (`***`) leaves its extra marks as text before the node.
        return (node, close + width)
    }

    /// `{base|reading}` at `index`: the ruby and where it ends; nil when the braces hold no bar
    /// (a brace in the text), looking no further than a ruby can be long, so text of braces
    /// costs no more than its length. Refused when it has a bar but not both parts.
    private func ruby(at index: Int, within range: Range<Int>) throws(MarkdownReader.Problem) -> (RichText.Inline, Int)? {
        var bar: Int?, position = index + 1
        let limit = min(range.upperBound, index + 2 * RichTextRules.maximumRuby + 3)
        while position < limit {
            switch scalars[position] {
            case "|": if bar == nil { bar = position } else { return nil }
            case "}":
                guard let bar else { return nil }
                let (base, reading) = (text((index + 1)..<bar), text((bar + 1)..<position))
                if let problem = RichTextRules.rubyProblem(base: base, reading: reading) { throw MarkdownReader.Problem(line: line, message: problem) }
                return (.ruby(base: base, reading: reading), position + 1)
            case "{", "\n", "\\": return nil
            default: break
            }
            position += 1
        }
        return nil
    }

    /// `[label](https://…)` at `index`: the label's range, the address and where it ends.
    private mutating func link(at index: Int, within range: Range<Int>) -> (Range<Int>, String, Int)? {
        let close = closingBracket[index]
        guard close > index, close + 1 < range.upperBound, scalars[close + 1] == "(" else { return nil }
        let start = close + 2
        if let dead = deadAddress, dead.contains(start) { return nil }
        var end = start
        while end < range.upperBound, scalars[end] != ")", scalars[end] != " ", scalars[end] != "\n" { end += 1 }
        guard end < range.upperBound, scalars[end] == ")" else {
            deadAddress = start...end
            return nil
        }
        return ((index + 1)..<close, text(start..<end), end + 1)
    }
}
