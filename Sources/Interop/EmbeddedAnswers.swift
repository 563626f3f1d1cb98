import QuestionEngine

/// Moodle's embedded-answers syntax for cloze questions (its `multianswer` type, and cloze
/// blocks written into GIFT): a gap is `{weight:TYPE:answers}`, answers separated by `~`, each
/// `=right`, `%share%answer` or a wrong one, `#feedback` after it; a number `answer:tolerance`.
/// `MULTICHOICE` (with its `_V`, `_H`, `_S` layouts, `MC…` for short) becomes a choice gap,
/// `SHORTANSWER` (`SA`, `MW`) a case-insensitive typed one, `SHORTANSWER_C` (`SAC`, `MWC`) an
/// exact one, `NUMERICAL` (`NM`) a number within its tolerance. The question editor writes and
/// reads the same syntax, so Moodle users type what they know.
public enum EmbeddedAnswers {
    /// A text read: the text with `{#n}` marks in place of its gaps, the gaps, and what could not
    /// be kept (the gaps' own feedback).
    public struct Reading: Equatable, Sendable {
        public var text: String
        public var gaps: [ClozeGap]
        public var notes: [String]
    }

    /// Why a text's embedded answers cannot be read.
    public struct Problem: Error, Equatable, Sendable {
        public var reason: String
    }

    /// Whether a text holds anything that looks like an embedded answer.
    public static func holdsGaps(_ text: String) -> Bool { !spans(text).isEmpty }

    /// Reads every `{…:TYPE:…}` of `text`; text around them is kept as written.
    public static func read(_ text: String) throws(Problem) -> Reading {
        var out = "", gaps: [ClozeGap] = [], notes: Set<String> = []
        var rest = text[...]
        for span in spans(text) {
            out += text[rest.startIndex..<span.range.lowerBound]
            let gap = try self.gap(span.weight, span.type, span.body, number: gaps.count + 1, notes: &notes)
            gaps.append(gap)
            out += ClozeText.mark(gaps.count)
            rest = text[span.range.upperBound...]
        }
        out += rest
        return Reading(text: out, gaps: gaps, notes: notes.sorted())
    }

    /// The text with each `{#n}` mark replaced by its gap in this syntax.
    public static func write(_ text: String, gaps: [ClozeGap]) -> String {
        ClozeText.pieces(text).map { piece in
            switch piece {
            case .text(let words): words
            case .gap(let number): gaps.indices.contains(number - 1) ? write(gaps[number - 1]) : ClozeText.mark(number)
            }
        }.joined()
    }

    /// One gap: `{1:MULTICHOICE:=Paris~Lyon}`, `{2:SHORTANSWER:=Seine~%50%Sein}`,
    /// `{1:NUMERICAL:=1789:0~%50%1790}`.
    public static func write(_ gap: ClozeGap) -> String {
        let type: String
        switch (gap.choices != nil, gap.match ?? .exact) {
        case (true, _): type = "MULTICHOICE"
        case (false, .caseInsensitive): type = "SHORTANSWER"
        case (false, .exact): type = "SHORTANSWER_C"
        case (false, .numeric): type = "NUMERICAL"
        }
        let tolerance = { (value: Double?) in gap.match == .numeric ? ":" + MarkupText.number(value ?? gap.tolerance ?? 0) : "" }
        var answers: [String] = []
        if let choices = gap.choices {
            for choice in choices {
                if gap.accepted.contains(choice) {
                    answers.append("=" + escaped(choice))
                } else if let partial = gap.partial?.first(where: { $0.answer == choice }) {
                    answers.append("%\(MarkupText.number(partial.share * 100))%" + escaped(choice))
                } else {
                    answers.append(escaped(choice))
                }
            }
        } else {
            answers = gap.accepted.map { "=" + escaped($0) + tolerance(nil) }
                + (gap.partial ?? []).map { "%\(MarkupText.number($0.share * 100))%" + escaped($0.answer) + tolerance($0.tolerance) }
        }
        return "{\(gap.marks):\(type):" + answers.joined(separator: "~") + "}"
    }

    // MARK: - Reading

    private struct Span {
        var range: Range<String.Index>
        var weight: Int
        var type: String
        var body: String
    }

    private static let types: [String: String] = [
        "MULTICHOICE": "choice", "MULTICHOICE_V": "choice", "MULTICHOICE_H": "choice", "MULTICHOICE_S": "choice", "MULTICHOICE_VS": "choice",
        "MULTICHOICE_HS": "choice", "MC": "choice", "MCV": "choice", "MCH": "choice", "MCS": "choice", "MCVS": "choice", "MCHS": "choice",
        "SHORTANSWER": "words", "SA": "words", "MW": "words", "SHORTANSWER_C": "exact", "SAC": "exact", "MWC": "exact",
        "NUMERICAL": "number", "NM": "number",
        "MULTIRESPONSE": "several", "MR": "several", "MULTIRESPONSE_H": "several", "MRH": "several", "MULTIRESPONSE_S": "several",
        "MRS": "several", "MULTIRESPONSE_HS": "several", "MRHS": "several",
    ]

    /// The `{weight:TYPE:…}` blocks of a text (an escaped `\}` does not close one).
    private static func spans(_ text: String) -> [Span] {
        var found: [Span] = []
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "{") {
            var cursor = text.index(after: open)
            let digits = text[cursor...].prefix { $0.isASCII && $0.isNumber }
            cursor = digits.endIndex
            guard cursor < text.endIndex, text[cursor] == ":" else { index = text.index(after: open); continue }
            let afterColon = text.index(after: cursor)
            let name = text[afterColon...].prefix { $0.isASCII && ($0.isLetter || $0 == "_") }
            guard name.endIndex < text.endIndex, text[name.endIndex] == ":", types[name.uppercased()] != nil else {
                index = text.index(after: open)
                continue
            }
            var close = text.index(after: name.endIndex), escapedNext = false
            let bodyStart = close
            while close < text.endIndex, escapedNext || text[close] != "}" {
                escapedNext = !escapedNext && text[close] == "\\"
                close = text.index(after: close)
            }
            guard close < text.endIndex else { break }
            found.append(Span(
                range: open..<text.index(after: close), weight: Int(digits).map { max(1, min(100, $0)) } ?? 1, type: name.uppercased(),
                body: String(text[bodyStart..<close])))
            index = text.index(after: close)
        }
        return found
    }

    /// The answers of a block, split at `~` not escaped; each its share (1 for `=`), text and
    /// whether it had feedback.
    private static func answers(_ body: String) -> [(share: Double, text: String, feedback: Bool)] {
        var pieces: [String] = [], current = "", escapedNext = false
        for character in body {
            if escapedNext {
                current.append(character)
                escapedNext = false
            } else if character == "\\" {
                current.append(character)
                escapedNext = true
            } else if character == "~" {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces.compactMap { piece in
            var text = Substring(piece), share = 0.0
            if text.hasPrefix("=") {
                share = 1
                text = text.dropFirst()
            } else if text.hasPrefix("%"), let end = text.dropFirst().firstIndex(of: "%"), let percent = Double(text[text.index(after: text.startIndex)..<end]) {
                share = percent / 100
                text = text[text.index(after: end)...]
            }
            // The feedback after an unescaped #.
            var answer = "", feedback = false, escape = false
            for character in text {
                if escape { answer.append(character); escape = false; continue }
                if character == "\\" { escape = true; continue }
                if character == "#" { feedback = true; break }
                answer.append(character)
            }
            let words = FillInRule.normalized(answer)
            return words.isEmpty && !feedback && share == 0 ? nil : (share, words, feedback)
        }
    }

    private static func gap(_ weight: Int, _ type: String, _ body: String, number: Int, notes: inout Set<String>) throws(Problem) -> ClozeGap {
        let kind = types[type] ?? "words"
        if kind == "several" { throw Problem(reason: "gap \(number) is a \(type) (several answers in one gap), which the portal does not support") }
        let answers = answers(body)
        if answers.contains(where: \.feedback) { notes.insert("the gaps' own feedback was left out (the question's explanation stays)") }
        let right = answers.filter { $0.share >= 1 }.map(\.text)
        guard !right.isEmpty, right.allSatisfy({ !$0.isEmpty }) else { throw Problem(reason: "gap \(number) has no answer worth full marks") }
        let partial = answers.filter { $0.share > 0 && $0.share < 1 && !$0.text.isEmpty }
        switch kind {
        case "choice":
            var choices: [String] = []
            for answer in answers where !answer.text.isEmpty && !choices.contains(answer.text) { choices.append(answer.text) }
            guard choices.count >= 2 else { throw Problem(reason: "gap \(number) offers fewer than two choices") }
            let shares = partial.map { PartialAnswer(answer: $0.text, share: $0.share) }
            return ClozeGap(choices: choices, accepted: unique(right), partial: shares.isEmpty ? nil : shares, weight: weight == 1 ? nil : weight)
        case "number":
            func split(_ text: String) throws(Problem) -> (String, Double?) {
                let parts = text.split(separator: ":", maxSplits: 1).map { FillInRule.normalized(String($0)) }
                guard let value = parts.first, FillInRule.number(value) != nil else { throw Problem(reason: "gap \(number): \(text) is not a number") }
                return (value, parts.count > 1 ? FillInRule.number(parts[1]).map(abs) : nil)
            }
            var accepted: [String] = [], tolerance: Double?
            for text in right {
                let (value, within) = try split(text)
                if !accepted.contains(value) { accepted.append(value) }
                tolerance = tolerance ?? within
            }
            var shares: [PartialAnswer] = []
            for answer in partial {
                // Without its own tolerance a partly right number is exact, as Moodle reads it.
                let (value, within) = try split(answer.text)
                let own = within ?? 0
                shares.append(PartialAnswer(answer: value, share: answer.share, tolerance: own == (tolerance ?? 0) ? nil : own))
            }
            return ClozeGap(accepted: accepted, match: .numeric, tolerance: (tolerance ?? 0) == 0 ? nil : tolerance, partial: shares.isEmpty ? nil : shares, weight: weight == 1 ? nil : weight)
        default:
            if (right + partial.map(\.text)).contains(where: { $0.contains("*") }) {
                throw Problem(reason: "gap \(number) has an answer with a * wildcard (the portal compares whole answers)")
            }
            let shares = partial.filter { !right.contains($0.text) }.map { PartialAnswer(answer: $0.text, share: $0.share) }
            return ClozeGap(accepted: unique(right), match: kind == "exact" ? .exact : .caseInsensitive, partial: shares.isEmpty ? nil : shares, weight: weight == 1 ? nil : weight)
        }
    }

    private static func unique(_ texts: [String]) -> [String] {
        var seen: [String] = []
        for text in texts where !seen.contains(text) { seen.append(text) }
        return seen
    }

    /// An answer's text with the syntax's own characters escaped.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "~#}\\%=:{".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
