/// Where a cloze question's gaps stand in its text: each gap is marked `{#n}` (numbered from 1,
/// as Moodle marks them), exactly once. The marks are plain characters in every markup, so a
/// question in markdown keeps them in its tree and its plain projection alike; a page puts the
/// gap's field where its mark is.
public enum ClozeText {
    /// The mark of gap `number` (from 1).
    public static func mark(_ number: Int) -> String { "{#\(number)}" }

    /// A piece of a text with gap marks: the text between them, or a gap (its number from 1).
    public enum Piece: Equatable, Sendable {
        case text(String)
        case gap(Int)
    }

    /// The text cut at its marks, in order (a mark with a number too large to be one is text).
    public static func pieces(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        var plain = ""
        while let open = rest.firstIndex(of: "{") {
            plain += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if after.first == "#", let close = after.firstIndex(of: "}") {
                let digits = after[after.index(after: after.startIndex)..<close]
                if (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number >= 1 {
                    if !plain.isEmpty { pieces.append(.text(plain)) }
                    plain = ""
                    pieces.append(.gap(number))
                    rest = after[after.index(after: close)...]
                    continue
                }
            }
            plain += "{"
            rest = after
        }
        plain += rest
        if !plain.isEmpty { pieces.append(.text(plain)) }
        return pieces
    }

    /// The gap numbers marked in a text, in the order they appear.
    public static func marks(_ text: String) -> [Int] {
        pieces(text).compactMap { if case .gap(let number) = $0 { number } else { nil } }
    }

    /// Why a cloze question's text does not mark its `gaps` gaps once each in some order, or
    /// nil when it does. The database's `cloze_text_problem` says the same, word for word.
    public static func problem(_ text: String, gaps: Int) -> String? {
        let marked = marks(text)
        var seen: Set<Int> = []
        for number in marked {
            if number > gaps { return "the text marks {#\(number)}, but the question has \(gaps) gaps" }
            if !seen.insert(number).inserted { return "the text marks {#\(number)} twice" }
        }
        if let missing = (1...max(1, gaps)).first(where: { !seen.contains($0) }), gaps > 0 {
            return "the text does not mark gap \(missing) as {#\(missing)}"
        }
        return nil
    }

    /// The text with each mark replaced by what `gap` gives for its number (HTML built by a
    /// page: the marks stand only in text, never in a tag, as the writers escape what they
    /// write and neither `{` nor `#` needs escaping).
    public static func filling(_ html: String, gap: (Int) -> String) -> String {
        var out = ""
        var inTag = false
        var run = ""
        func flush() {
            for piece in pieces(run) {
                switch piece {
                case .text(let text): out += text
                case .gap(let number): out += gap(number)
                }
            }
            run = ""
        }
        for character in html {
            if inTag {
                out.append(character)
                if character == ">" { inTag = false }
            } else if character == "<" {
                flush()
                out.append(character)
                inTag = true
            } else {
                run.append(character)
            }
        }
        flush()
        return out
    }
}
