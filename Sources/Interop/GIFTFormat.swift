import Foundation
import QuestionEngine

/// Moodle's GIFT: questions separated by blank lines, `// comments`, `$CATEGORY: path`,
/// `::title::`, an answer block in braces (`{=right ~wrong}`, `~%50%` weights, `#feedback`,
/// `####general feedback`, `{T}`/`{F}`), text after the braces for a missing word, `[html]` /
/// `[markdown]` markers and the escapes `\~ \= \# \{ \} \:`. Choice and true/false questions,
/// matching (`=item -> answer`), short answers and numbers (`{#v:t}`, `{#a..b}`) map onto the
/// portal's kinds; a question whose text holds Moodle's embedded answers (`{1:SA:=…}`) is a
/// cloze question (`EmbeddedAnswers`); essays are named and skipped.
enum GIFTFormat {
    /// Whether `text` looks like GIFT: an answer block in braces (choices, true/false with or
    /// without feedback, a number, an essay's `{}` among titled questions), or a `$CATEGORY:` line.
    /// One pass over the text (no pattern that could backtrack over thousands of braces).
    static func looksLike(_ text: String) -> Bool {
        if text.contains("$CATEGORY:") { return true }
        var open: String.UnicodeScalarView.Index?, marked = false
        let scalars = text.unicodeScalars
        for index in scalars.indices {
            switch scalars[index] {
            case "{":
                if open == nil { marked = false }
                open = index
            case "=", "~":
                if open != nil { marked = true }
            case "}":
                guard let start = open else { continue }
                if marked { return true }
                // `{T}`, `{FALSE#feedback}`, and an essay's `{}` in a file of titled questions (an
                // empty pair of braces alone could be code).
                let inside = String(scalars[scalars.index(after: start)..<index])
                let parts = inside.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let truth = parts.first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).uppercased() } ?? ""
                if ["T", "F", "TRUE", "FALSE"].contains(truth) { return true }
                if truth.isEmpty, parts.count == 1, text.contains("::") { return true }
                // A number's answer: `{#1822:5}`, `{#1..5}`.
                if truth.isEmpty, parts.count == 2, parts[1].first.map({ $0.isNumber || $0 == "=" || $0 == "-" }) == true { return true }
                open = nil
            default:
                break
            }
        }
        return false
    }

    /// True and false in the exam's language: a true/false question becomes a choice of two.
    static func trueFalse(language: String) -> (String, String) {
        switch language {
        case "de": ("Wahr", "Falsch")
        case "es": ("Verdadero", "Falso")
        case "it": ("Vero", "Falso")
        case "ja": ("正しい", "誤り")
        case "th": ("ถูก", "ผิด")
        case "zh": ("正确", "错误")
        default: ("True", "False")
        }
    }

    static func parse(_ text: String, keyPrefix: String, language: String) throws(FormatError) -> ForeignContent {
        var content = ForeignContent()
        var category: String?
        var block: [(number: Int, line: String)] = []
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func flush() throws(FormatError) {
            defer { block = [] }
            guard let first = block.first else { return }
            let source = block.map(\.line).joined(separator: "\n")
            if let item = try question(source, line: first.number, category: category, keyPrefix: keyPrefix, language: language) {
                switch item {
                case .question(let question, let notes):
                    content.questions.append(question)
                    content.notes += notes.map { SkippedItem(position: "line \(first.number)", reason: $0) }
                case .skipped(let reason): content.skipped.append(SkippedItem(position: "line \(first.number)", reason: reason))
                }
            }
        }
        var openBraces = 0
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if openBraces == 0 {
                if trimmed.hasPrefix("//") { continue }
                if trimmed.isEmpty { try flush(); continue }
                if trimmed.hasPrefix("$CATEGORY:") {
                    try flush()
                    category = String(trimmed.dropFirst("$CATEGORY:".count)).trimmingCharacters(in: .whitespaces)
                    continue
                }
            }
            block.append((index + 1, line))
            openBraces += braceBalance(line)
            if openBraces < 0 { throw FormatError(position: "line \(index + 1)", problem: "a } closes no {") }
        }
        if openBraces > 0, let first = block.first {
            throw FormatError(position: "line \(first.number)", problem: "the answer block opened here is never closed with }")
        }
        try flush()
        return content
    }

    enum Item {
        /// A question, and what the report says was changed to keep it.
        case question(ForeignQuestion, notes: [String] = [])
        case skipped(String)
    }

    /// Unescaped `{` minus unescaped `}` in `line`.
    static func braceBalance(_ line: String) -> Int {
        var balance = 0, escaped = false
        for character in line {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "{": balance += 1
            case "}": balance -= 1
            default: break
            }
        }
        return balance
    }

    /// One question's text, from its first line.
    static func question(_ source: String, line: Int, category: String?, keyPrefix: String, language: String) throws(FormatError) -> Item? {
        // Moodle's exports indent their questions.
        var text = Substring(source).drop { $0 == " " || $0 == "\t" }
        var title: String?
        if text.hasPrefix("::"), let end = firstUnescaped("::", in: text.dropFirst(2)) {
            title = unescape(String(text[text.index(text.startIndex, offsetBy: 2)..<end])).trimmingCharacters(in: .whitespaces)
            text = text[text.index(end, offsetBy: 2)...]
        }
        var isHTML = false, markup = ForeignMarkup.plain, hasMarker = false
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        for marker in ["[html]", "[markdown]", "[plain]", "[moodle]"] where trimmed.hasPrefix(marker) {
            isHTML = marker == "[html]"
            markup = marker == "[html]" ? .html : marker == "[markdown]" ? .markdown : .plain
            text = trimmed.dropFirst(marker.count)
            hasMarker = marker != "[moodle]"
        }
        // No marker (or [moodle]) is Moodle's automatic format, which takes HTML as it is written:
        // a question with tags in it is read as HTML (and sanitised as every imported HTML is).
        if !hasMarker, text.range(of: "<[A-Za-z][A-Za-z0-9]*(\\s[^<>]*)?/?>", options: .regularExpression) != nil {
            (isHTML, markup) = (true, .html)
        }
        // Moodle's embedded answers written into a GIFT question make a cloze question.
        if EmbeddedAnswers.holdsGaps(String(text)) {
            return cloze(String(text), line: line, title: title, category: category, keyPrefix: keyPrefix, markup: markup)
        }
        guard let open = firstUnescaped("{", in: text) else {
            return .skipped("a description with no answers (not a question)")
        }
        guard let close = firstUnescaped("}", in: text[text.index(after: open)...]) else {
            throw FormatError(position: "line \(line)", problem: "the answer block is never closed with }")
        }
        // A GIFT file cannot carry a picture: one its text shows lives elsewhere, which the portal
        // does not load (one in feedback is left out, and the report says so).
        let shown = unescape(String(text[..<open]) + String(text[text.index(after: close)...]))
        if isHTML, let picture = MarkupText.images(shown).first {
            return .skipped(MarkupText.outsidePicture(picture.source, fix: "import it as Moodle XML or a package that carries it"))
        }
        var notes: [String] = []
        func withoutPictures(_ feedback: String, html: Bool, field: String) -> String {
            guard html, let picture = MarkupText.images(unescape(feedback)).first else { return feedback }
            notes.append("\(field)'s picture (\(picture.source.prefix(100))) left out: a GIFT file cannot carry it")
            return MarkupText.removingImages(feedback)
        }
        let before = clean(String(text[..<open]), html: isHTML), after = clean(String(text[text.index(after: close)...]), html: isHTML)
        // A blank at the very start has nothing before it (the key keeps the text it was made of).
        let keyStem = after.isEmpty ? before : before + " _____ " + after
        let plainStem = keyStem.trimmingCharacters(in: .whitespaces)
        guard !plainStem.isEmpty else { return .skipped("a question with no text") }
        // The key stays the one the question's words give, whatever its markup makes of them.
        let key = self.key(keyPrefix, title: title, category: category, stem: keyStem)
        let answers = String(text[text.index(after: open)..<close])
        var body = answers.trimmingCharacters(in: .whitespacesAndNewlines)
        var general: String?, generalSource: String?
        if let feedback = body.range(of: "####") {
            let (marked, html) = marked(String(body[feedback.upperBound...]), isHTML)
            let source = withoutPictures(marked, html: html, field: "the general feedback")
            generalSource = source
            general = clean(source, html: html)
            body = String(body[..<feedback.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // `[html]` and `[markdown]` texts with more than words are kept as trees.
        var richStem: RichText?, richFeedback: RichText?
        do throws(ItemProblem) {
            let rawBefore = String(text[..<open]).trimmingCharacters(in: .whitespacesAndNewlines)
            let rawAfter = String(text[text.index(after: close)...]).trimmingCharacters(in: .whitespacesAndNewlines)
            richStem = try tree(rawAfter.isEmpty ? rawBefore : rawBefore + " _____ " + rawAfter, markup, field: "the question's text")
            richFeedback = try generalSource.flatMap { source throws(ItemProblem) in try tree(source, markup, field: "the general feedback") }
        } catch {
            return .skipped(error.reason)
        }
        let stem = richStem.map(RichTextPlain.text) ?? plainStem
        if let richFeedback { general = RichTextPlain.text(richFeedback) }
        func made(_ options: [ForeignQuestion.Option], correct: [Int], multiple: Bool, notes extra: [String] = []) -> Item {
            var question = ForeignQuestion(
                key: key, position: "line \(line)", category: category, stem: stem, isMultiple: multiple, options: options, correct: correct,
                generalFeedback: general.flatMap { $0.isEmpty ? nil : $0 })
            (question.richStem, question.richFeedback) = (richStem, richFeedback)
            return .question(question, notes: notes + extra)
        }
        func typed(_ accepted: [String], _ match: FillInMatch, tolerance: Double? = nil, partial: [PartialAnswer] = []) -> Item {
            var question = ForeignQuestion(
                key: key, position: "line \(line)", category: category, stem: stem, isMultiple: false, options: [], correct: [],
                generalFeedback: general.flatMap { $0.isEmpty ? nil : $0 })
            question.answering = .typing(accepted: accepted, match: match, tolerance: tolerance, partial: partial)
            (question.richStem, question.richFeedback) = (richStem, richFeedback)
            return .question(question, notes: notes)
        }
        if body.isEmpty { return .skipped("an essay question (no answers to choose from)") }
        if body.hasPrefix("#") {
            // `{#1822:5}` (a value and its tolerance), `{#1..5}` (a range), `{#42}`, or several
            // answers `{#=1822:0 =%50%1822:2}`, each with its weight and feedback.
            let rest = String(body.dropFirst()).trimmingCharacters(in: .whitespacesAndNewlines)
            let entries = rest.hasPrefix("=") || rest.hasPrefix("~") ? split(rest) : [entry("=", rest)]
            var answers: [(value: Double, tolerance: Double, weight: Double)] = []
            // A `~` with no number only carries the feedback for any other answer.
            for entry in entries where !(entry.marker == "~" && entry.text.trimmingCharacters(in: .whitespaces).isEmpty) {
                guard let (value, tolerance) = numberSpec(entry.text) else {
                    return .skipped("a numerical answer that is not a number and its tolerance or range (\(entry.text.prefix(40))), or a number beyond fifteen digits")
                }
                answers.append((value, tolerance, entry.marker == "~" ? 0 : entry.weight ?? 100))
            }
            let right = answers.filter { $0.weight >= 99.99 }
            guard let first = right.first else { return .skipped("a numerical question with no answer worth full marks") }
            guard right.allSatisfy({ $0.tolerance == first.tolerance }) else {
                return .skipped("a numerical question whose right answers have different tolerances (the portal takes one)")
            }
            let partial = answers.filter { $0.weight > 0 && $0.weight < 99.99 }.map {
                PartialAnswer(answer: MarkupText.number($0.value), share: ($0.weight * 100).rounded() / 10000, tolerance: $0.tolerance == first.tolerance ? nil : $0.tolerance)
            }
            var accepted: [String] = []
            for answer in right where !accepted.contains(MarkupText.number(answer.value)) { accepted.append(MarkupText.number(answer.value)) }
            return typed(accepted, .numeric, tolerance: first.tolerance, partial: partial)
        }
        // `{T`, its feedback on the lines after.
        let truth = body.split(separator: "#", maxSplits: 1).first.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines).uppercased() } ?? ""
        if ["T", "TRUE", "F", "FALSE"].contains(truth) {
            let (yes, no) = trueFalse(language: language)
            let isTrue = truth.hasPrefix("T")
            // Each feedback may name its own format (`#[html]<b>No</b>`), as every GIFT text may.
            let feedback = body.split(separator: "#", omittingEmptySubsequences: false).dropFirst().map { part in
                let (source, html) = marked(String(part), isHTML)
                return clean(source, html: html)
            }
            // `#wrong#right`: the first feedback is for a wrong answer, the second for a right one.
            let wrongFeedback = feedback.first.flatMap { $0.isEmpty ? nil : $0 }
            let rightFeedback = feedback.dropFirst().first.flatMap { $0.isEmpty ? nil : $0 }
            return made(
                [ForeignQuestion.Option(text: yes, feedback: isTrue ? rightFeedback : wrongFeedback),
                 ForeignQuestion.Option(text: no, feedback: isTrue ? wrongFeedback : rightFeedback)],
                correct: [isTrue ? 0 : 1], multiple: false)
        }
        // `{One}`: a single short answer needs no `=`.
        let entries = split(body).isEmpty ? [entry("=", body)] : split(body)
        guard !entries.isEmpty else { return .skipped("an answer block that is not one GIFT knows") }
        // Matching only when every answer is `=item -> answer`: a wrong answer may say "->" too.
        if entries.allSatisfy({ $0.marker == "=" }), entries.contains(where: { $0.text.contains("->") }) {
            // `=item -> answer`: the answers become the targets, in the order first given.
            var targets: [String] = [], items: [ForeignQuestion.Option] = [], pairs: [Int] = []
            for entry in entries {
                guard entry.marker == "=", let arrow = entry.text.range(of: "->") else { return .skipped("a matching question with a line that is not item -> answer") }
                let (itemSource, itemHTML) = marked(String(entry.text[..<arrow.lowerBound]), isHTML)
                let item = clean(itemSource, html: itemHTML), target = clean(String(entry.text[arrow.upperBound...]), html: isHTML)
                guard !target.isEmpty else { return .skipped("a matching question with an empty answer") }
                if !targets.contains(target) { targets.append(target) }
                // An item left empty only adds its answer as a distractor.
                if item.isEmpty { continue }
                items.append(ForeignQuestion.Option(text: item))
                pairs.append(targets.firstIndex(of: target)!)
            }
            guard items.count >= 2, targets.count >= 2 else { return .skipped("a matching question needs two items and two answers") }
            var question = ForeignQuestion(
                key: key, position: "line \(line)", category: category, stem: stem,
                isMultiple: false, options: items, correct: pairs, generalFeedback: general.flatMap { $0.isEmpty ? nil : $0 })
            question.answering = .matching(targets: targets)
            (question.richStem, question.richFeedback) = (richStem, richFeedback)
            return .question(question, notes: notes)
        }
        let wrong = entries.filter { $0.marker == "~" }
        if wrong.isEmpty {
            // Short answer, compared as Moodle does by default (case aside): answers worth full
            // marks are accepted, those worth part of them partly right, those worth nothing left out.
            var accepted: [String] = [], partial: [PartialAnswer] = []
            for entry in entries {
                let (source, html) = marked(entry.text, isHTML)
                let text = FillInRule.normalized(clean(source, html: html)), weight = entry.weight ?? 100
                guard !text.isEmpty, weight > 0 else { continue }
                if text.contains("*") { return .skipped("a short answer with a * wildcard (the portal compares whole answers)") }
                // An answer given twice is one answer.
                if weight >= 99.99 {
                    if !accepted.contains(text) { accepted.append(text) }
                } else if !partial.contains(where: { $0.answer == text }) {
                    partial.append(PartialAnswer(answer: text, share: (weight * 100).rounded() / 10000))
                }
            }
            guard !accepted.isEmpty else { return .skipped("a short-answer question with no answer worth full marks") }
            return typed(accepted, .caseInsensitive, partial: partial)
        }
        var options: [ForeignQuestion.Option] = []
        for (number, entry) in entries.enumerated() {
            // An answer may name its own format (`=[html]…`, `~[plain]…`), its feedback too.
            let (text, textHTML) = marked(entry.text, isHTML)
            if textHTML, let picture = MarkupText.images(unescape(text)).first {
                return .skipped(MarkupText.outsidePicture(picture.source, fix: "import it as Moodle XML or a package that carries it"))
            }
            let feedback = entry.feedback.map { marked($0, isHTML) }.map { (withoutPictures($0.0, html: $0.1, field: "answer \(number + 1)'s feedback"), $0.1) }
            var option = ForeignQuestion.Option(text: clean(text, html: textHTML), feedback: feedback.map { clean($0.0, html: $0.1) })
            do throws(ItemProblem) {
                option.richText = try markup == .plain ? nil : markup.optionTree(unescape(text), field: "answer \(number + 1)", isText: true)
                option.richFeedback = try feedback.flatMap { source throws(ItemProblem) in try tree(source.0, markup, field: "answer \(number + 1)'s feedback") }
            } catch {
                return .skipped(error.reason)
            }
            if let tree = option.richText { option.text = RichTextPlain.text(tree) }
            if let tree = option.richFeedback { option.feedback = RichTextPlain.text(tree) }
            options.append(option)
        }
        guard options.allSatisfy({ !$0.text.isEmpty }) else { return .skipped("an answer with no text") }
        let weights = entries.map { $0.weight ?? ($0.marker == "=" ? 100 : 0) }
        let positive = weights.indices.filter { weights[$0] > 0 }
        // No weights: one answer is chosen, and each `=` answer is fully right (as Moodle reads
        // `{=a ~b =c}`: a single-answer question with two answers worth 100%).
        if entries.allSatisfy({ $0.weight == nil }) {
            return made(options, correct: positive, multiple: false)
        }
        // Partial credit the portal can give: every right option worth the same, summing to 100%.
        let share = positive.first.map { weights[$0] } ?? 0
        if positive.count >= 1, positive.allSatisfy({ abs(weights[$0] - share) < 0.01 }), abs(share * Double(positive.count) - 100) < 1 {
            return made(options, correct: positive, multiple: positive.count > 1)
        }
        // One answer worth full marks, others part of them: a single choice, the others wrong.
        let full = weights.indices.filter { weights[$0] >= 99.99 }
        if full.count == 1 {
            let partly = positive.filter { !full.contains($0) }.map { "answer \($0 + 1) (\(MarkupText.number(weights[$0]))%)" }
            return made(options, correct: full, multiple: false, notes: [
                "\(partly.joined(separator: ", ")) counted as wrong: a single-choice question gives full marks for its one right answer or none",
            ])
        }
        return .skipped("a weight pattern that is neither all-or-nothing nor even partial credit")
    }

    /// A numerical answer's value and tolerance: `v`, `v:t` or a range `a..b`; nil for one
    /// that is not, or beyond fifteen digits (what a student can type and the portal checks).
    static func numberSpec(_ text: String) -> (Double, Double)? {
        func checkable(_ text: Substring) -> Double? {
            Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite && abs($0) <= 1e15 ? $0 : nil }
        }
        let text = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if let range = text.range(of: ".."), let low = checkable(text[..<range.lowerBound]), let high = checkable(text[range.upperBound...]), low <= high {
            return ((low + high) / 2, (high - low) / 2)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let value = parts.first.flatMap(checkable) else { return nil }
        guard parts.count == 2 else { return (value, 0) }
        guard let tolerance = checkable(parts[1]), tolerance >= 0 else { return nil }
        return (value, tolerance)
    }

    /// A question's stable key: its title (within its category), else a hash of its text.
    /// A question of text with embedded answers: the gaps read (the answers' escapes resolved),
    /// the text marked `{#n}` where they were.
    static func cloze(_ text: String, line: Int, title: String?, category: String?, keyPrefix: String, markup: ForeignMarkup) -> Item {
        let reading: EmbeddedAnswers.Reading
        do throws(EmbeddedAnswers.Problem) {
            reading = try EmbeddedAnswers.read(text)
        } catch {
            return .skipped(error.reason)
        }
        let plain = clean(reading.text, html: markup == .html).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !plain.isEmpty else { return .skipped("a question with no text") }
        let richStem: RichText?
        do throws(ItemProblem) {
            richStem = try tree(reading.text.trimmingCharacters(in: .whitespacesAndNewlines), markup, field: "the question's text")
        } catch {
            return .skipped(error.reason)
        }
        var question = ForeignQuestion(
            key: key(keyPrefix, title: title, category: category, stem: plain), position: "line \(line)", category: category,
            stem: richStem.map(RichTextPlain.text) ?? plain, isMultiple: false, options: [], correct: [], generalFeedback: nil)
        question.answering = .filling(gaps: reading.gaps.map { $0.mappingTexts { clean($0, html: markup == .html) } })
        question.richStem = richStem
        return .question(question, notes: reading.notes)
    }

    static func key(_ prefix: String, title: String?, category: String?, stem: String) -> String {
        prefix + (title.map { (category.map { $0 + "/" } ?? "") + $0 } ?? StableHash.hex(stem))
    }

    struct Entry {
        var marker: Character
        var weight: Double?
        var text: String
        var feedback: String?
    }

    /// The answers of a block: each starts at an unescaped `=` or `~`.
    static func split(_ body: String) -> [Entry] {
        var entries: [Entry] = []
        var current: (marker: Character, raw: String)?
        var escaped = false
        for character in body {
            if escaped {
                current?.raw.append("\\"); current?.raw.append(character); escaped = false
                continue
            }
            if character == "\\" { escaped = true; continue }
            if character == "=" || character == "~" {
                if let current { entries.append(entry(current.marker, current.raw)) }
                current = (character, "")
                continue
            }
            current?.raw.append(character)
        }
        if let current { entries.append(entry(current.marker, current.raw)) }
        // `~=right` is a right answer, as Moodle reads it: the `~` before it opens nothing.
        return entries.filter { !($0.marker == "~" && $0.text.isEmpty && $0.weight == nil && $0.feedback == nil) }
    }

    static func entry(_ marker: Character, _ raw: String) -> Entry {
        var text = Substring(raw.trimmingCharacters(in: .whitespacesAndNewlines))
        var weight: Double?
        if text.hasPrefix("%"), let end = text.dropFirst().firstIndex(of: "%") {
            weight = Double(text[text.index(after: text.startIndex)..<end])
            text = text[text.index(after: end)...]
        }
        var feedback: String?
        if let hash = firstUnescaped("#", in: text) {
            feedback = String(text[text.index(after: hash)...])
            text = text[..<hash]
        }
        return Entry(marker: marker, weight: weight, text: String(text), feedback: feedback)
    }

    /// A text's own format marker (`[html]`, `[moodle]`, `[plain]`, `[markdown]`) taken off,
    /// and whether it is HTML (the question's format when it names none).
    static func marked(_ text: String, _ isHTML: Bool) -> (String, Bool) {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        for marker in ["[html]", "[moodle]", "[plain]", "[markdown]"] where trimmed.hasPrefix(marker) {
            return (String(trimmed.dropFirst(marker.count)), marker == "[html]")
        }
        return (text, isHTML)
    }

    /// Where `target` (two characters, `::`) first stands unescaped in `text`.
    static func firstUnescaped(_ target: String, in text: Substring) -> String.Index? {
        var escaped = false
        for index in text.indices {
            if escaped { escaped = false; continue }
            if text[index] == "\\" { escaped = true; continue }
            if text[index...].hasPrefix(target) { return index }
        }
        return nil
    }

    static func firstUnescaped(_ target: Character, in text: Substring) -> String.Index? {
        var escaped = false
        for index in text.indices {
            if escaped { escaped = false; continue }
            if text[index] == "\\" { escaped = true; continue }
            if text[index] == target { return index }
        }
        return nil
    }

    /// GIFT's escapes resolved as Moodle reads them: `\~ \= \# \{ \} \: \\` are the character,
    /// `\n` a line break; a backslash before anything else stays (markdown's escapes, TeX's
    /// commands: `\neq` is written `\\neq`, as in Moodle).
    static func unescape(_ text: String) -> String {
        var result = "", escaped = false
        for character in text {
            if escaped {
                if character == "n" { result.append("\n") } else {
                    if !Self.escapable.contains(character) { result.append("\\") }
                    result.append(character)
                }
                escaped = false
                continue
            }
            if character == "\\" { escaped = true; continue }
            result.append(character)
        }
        if escaped { result.append("\\") }
        return result
    }

    /// The characters a backslash makes literal.
    static let escapable: Set<Character> = ["~", "=", "#", "{", "}", ":", "\\"]

    /// The tree of an `[html]` or `[markdown]` text, when it holds more than words. A GIFT file
    /// carries no pictures, so one its markup shows is named.
    static func tree(_ source: String, _ markup: ForeignMarkup, field: String) throws(ItemProblem) -> RichText? {
        try markup.tree(unescape(source), field: field) { source, _ in
            .failure(ItemProblem(reason: MarkupText.outsidePicture(source, fix: "import it as Moodle XML or a package that carries it")))
        }
    }

    /// Plain text: escapes resolved, HTML (`[html]`) reduced to its text (`MarkupText.plain`).
    static func clean(_ text: String, html: Bool) -> String { MarkupText.plain(unescape(text), html: html) }
}
