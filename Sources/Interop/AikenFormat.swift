/// Aiken: a question on one or more lines, its options as `A. text` or `A) text`, and
/// `ANSWER: B`; questions separated by blank lines. Single choice only, no feedback.
enum AikenFormat {
    /// Whether `text` looks like Aiken: an `ANSWER:` line after lettered options.
    static func looksLike(_ text: String) -> Bool {
        var sawOption = false
        // By `isNewline`: a Windows line end is one character, "\r\n", not a "\n".
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if optionLetter(trimmed) != nil { sawOption = true }
            if sawOption, trimmed.uppercased().hasPrefix("ANSWER:") { return true }
        }
        return false
    }

    /// The questions of an Aiken file. A question that is not well formed is named by its line
    /// and left out up to the next blank line, as Moodle does; the rest is read.
    static func parse(_ text: String, keyPrefix: String) throws(FormatError) -> ForeignContent {
        var content = ForeignContent()
        // Blank lines at the end separate nothing.
        var source = text.replacingOccurrences(of: "\r\n", with: "\n")
        while source.last?.isWhitespace == true { source.removeLast() }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var stem: [String] = [], options: [(letter: Character, text: String)] = [], start = 0, skipping = false
        func reset() { stem = []; options = [] }
        func skip(_ position: Int, _ problem: String) {
            content.skipped.append(SkippedItem(position: "line \(position)", reason: problem))
            reset()
            skipping = true
        }
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces), number = index + 1
            if line.isEmpty {
                if !skipping, !stem.isEmpty || !options.isEmpty {
                    skip(start, "the question has no ANSWER: line before the blank line at line \(number)")
                }
                skipping = false
                continue
            }
            if skipping { continue }
            if stem.isEmpty && options.isEmpty { start = number }
            if line.uppercased().hasPrefix("ANSWER:") {
                let letter = line.dropFirst("ANSWER:".count).trimmingCharacters(in: .whitespaces).uppercased()
                guard !stem.isEmpty else { skip(number, "ANSWER: comes before any question"); continue }
                guard options.count >= 2 else { skip(start, "a question needs at least two options (A., B., …)"); continue }
                guard letter.count == 1, let index = options.firstIndex(where: { String($0.letter) == letter }) else {
                    skip(number, "ANSWER: \(letter) names no option of the question"); continue
                }
                let question = stem.joined(separator: "\n")
                content.questions.append(ForeignQuestion(
                    key: keyPrefix + StableHash.hex(question), position: "line \(start)", category: nil, stem: question, isMultiple: false,
                    options: options.map { ForeignQuestion.Option(text: $0.text, feedback: nil) }, correct: [index], generalFeedback: nil))
                reset()
            } else if let (letter, text) = optionLetter(line), !stem.isEmpty {
                guard options.count == Int(letter.asciiValue! - 65) else {
                    skip(number, "option \(letter) is out of order (options go A, B, C, …)"); continue
                }
                options.append((letter, text))
            } else if options.isEmpty {
                stem.append(line)
            } else {
                skip(number, "a line that is neither an option (A. …) nor ANSWER: after the options")
            }
        }
        if !skipping, !stem.isEmpty || !options.isEmpty { skip(start, "the last question has no ANSWER: line") }
        return content
    }

    /// `A. text` or `A) text`: the letter and the text.
    static func optionLetter(_ line: String) -> (Character, String)? {
        guard let first = line.first, first.isASCII, first.isUppercase, line.count >= 3 else { return nil }
        let second = line[line.index(after: line.startIndex)]
        guard second == "." || second == ")" else { return nil }
        let rest = line.dropFirst(2)
        guard rest.first == " " || rest.first == "\t" else { return nil }
        return (first, rest.trimmingCharacters(in: .whitespaces))
    }
}
