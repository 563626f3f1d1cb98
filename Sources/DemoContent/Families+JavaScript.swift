import QuestionEngine

/// The JavaScript exam: programs whose output is computed here.
extension Families {
    static func javascriptArrays(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let values = (0..<Int.random(in: 4...7, using: &r)).map { _ in Int.random(in: 1...15, using: &r) }
        let factor = Int.random(in: 2...5, using: &r), limit = Int.random(in: 8...40, using: &r)
        let mapped = values.map { $0 * factor }
        let kept = mapped.filter { $0 > limit }
        let code = "const values = \(values);\nconst result = values.map(x => x * \(factor)).filter(x => x > \(limit));\nconsole.log(result.length);"
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "What does this program print?", code: code, language: "javascript",
            answer: Choice(text: "\(kept.count)", explanation: ""),
            distractors: [
                Choice(text: "\(values.filter { $0 > limit }.count)", explanation: "filter runs on the mapped values, not the originals."),
                Choice(text: "\(values.count)", explanation: "filter removes the values not above \(limit)."),
                Choice(text: "\(mapped.filter { $0 >= limit }.count)", explanation: "The comparison is strict: > \(limit)."),
                Choice(text: "\(kept.reduce(0, +))", explanation: "length counts the elements; it does not sum them."),
            ],
            explanation: "Mapped: \(mapped); above \(limit): \(kept); length \(kept.count).",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static let javascriptWords = ["study", "portal", "exam", "question", "answer", "review", "streak", "practice"]

    static func javascriptStrings(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let word = javascriptWords[index % javascriptWords.count]
        let times = Int.random(in: 2...4, using: &r)
        let start = Int.random(in: 0...2, using: &r)
        let repeated = String(repeating: word, count: times)
        let slice = String(Array(repeated)[start..<min(repeated.count, start + 4)])
        let code = "const s = \"\(word)\".repeat(\(times));\nconsole.log(s.length + \":\" + s.slice(\(start), \(start + 4)));"
        let answer = "\(repeated.count):\(slice)"
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "What does this program print?", code: code, language: "javascript",
            answer: Choice(text: answer, explanation: ""),
            distractors: [
                Choice(text: "\(word.count):\(slice)", explanation: "repeat makes the string \(times) times longer."),
                Choice(text: "\(repeated.count):\(String(Array(repeated)[start..<min(repeated.count, start + 5)]))", explanation: "slice's end index is excluded."),
                Choice(text: "\(repeated.count + 1):\(slice)", explanation: "length counts characters exactly."),
                Choice(text: "\(repeated.count)\(slice)", explanation: "The \":\" separator is part of the output."),
            ],
            explanation: "\"\(word)\" repeated \(times) times has \(repeated.count) characters; slice(\(start), \(start + 4)) is \"\(slice)\".",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func javascriptCoercion(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let a = Int.random(in: 1...9, using: &r), b = Int.random(in: 1...9, using: &r)
        let cases: [(String, String, String)] = [
            ("\"\(a)\" + \(b)", "\(a)\(b)", "+ with a string concatenates."),
            ("\"\(a)\" - \(b)", "\(a - b)", "- converts both sides to numbers."),
            ("\(a) + \(b) + \"\(a)\"", "\(a + b)\(a)", "Left to right: numbers add first, then the string concatenates."),
            ("\"\(a)\" * \"\(b)\"", "\(a * b)", "* converts both strings to numbers."),
            ("[\(a)] + [\(b)]", "\(a)\(b)", "Arrays become strings, which concatenate."),
        ]
        let (expression, result, why) = cases[index % cases.count]
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "What does this program print?", code: "console.log(\(expression));", language: "javascript",
            answer: Choice(text: result, explanation: ""),
            distractors: [
                Choice(text: "\(a + b)", explanation: "That would be numeric addition."),
                Choice(text: "\(a)\(b)", explanation: "That would be string concatenation."),
                Choice(text: "NaN", explanation: "Both operands convert cleanly."),
                Choice(text: "\(a * b)", explanation: "That would be multiplication."),
            ],
            explanation: why, difficulty: index % cases.count + 1, using: &r)
    }

    static func javascriptLoops(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let limit = Int.random(in: 5...30, using: &r), step = Int.random(in: 2...4, using: &r)
        var total = 0
        for i in stride(from: 0, to: limit, by: step) where i % 2 == 0 { total += i }
        let code = "let total = 0;\nfor (let i = 0; i < \(limit); i += \(step)) {\n  if (i % 2 === 0) total += i;\n}\nconsole.log(total);"
        var inclusive = 0
        for i in stride(from: 0, through: limit, by: step) where i % 2 == 0 { inclusive += i }
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "What does this program print?", code: code, language: "javascript",
            answer: Choice(text: "\(total)", explanation: ""),
            distractors: [
                Choice(text: "\(inclusive)", explanation: "The loop stops before \(limit)."),
                Choice(text: "\(stride(from: 0, to: limit, by: step).reduce(0, +))", explanation: "Only even values of i are added."),
                Choice(text: "\(total + step)", explanation: "Trace i through 0, \(step), \(2 * step) …"),
            ],
            explanation: "i takes \(Array(stride(from: 0, to: limit, by: step))); the even ones sum to \(total).",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func eventLoopOrder(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let label = ["A", "B", "C", "D"].shuffled(using: &r)
        let steps = [
            Choice(text: "console.log(\"\(label[0])\") — synchronous code", explanation: ""),
            Choice(text: "console.log(\"\(label[1])\") — a resolved promise's then()", explanation: ""),
            Choice(text: "console.log(\"\(label[2])\") — setTimeout(…, 0)", explanation: ""),
        ]
        return QuestionBuilder.ordering(
            key: key, stem: "A script schedules these three logs. In what order do they print?",
            steps: steps,
            explanation: "Synchronous code runs first, then microtasks (promise callbacks), then macrotasks such as timers.",
            difficulty: 3 + index % 2, using: &r)
    }

    static let javascriptValues: [(String, Bool)] = [
        ("0", false), ("\"\"", false), ("null", false), ("undefined", false), ("NaN", false), ("-0", false),
        ("\"0\"", true), ("[]", true), ("{}", true), ("\"false\"", true), ("-1", true), ("Infinity", true),
    ]

    static func javascriptFalsy(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        var chosen = Array(javascriptValues.shuffled(using: &r).prefix(5))
        if !chosen.contains(where: { !$0.1 }) { chosen[0] = javascriptValues[0] }
        return QuestionBuilder.multiple(
            key: key, stem: "Which of these values are falsy in JavaScript? Choose all that apply.",
            choices: chosen.map { value, truthy in
                (Choice(text: value, explanation: truthy ? "Truthy: only false, 0, -0, 0n, \"\", null, undefined and NaN are falsy." : "Falsy."), !truthy)
            },
            explanation: "The falsy values are false, 0, -0, 0n, \"\", null, undefined and NaN; everything else, [] and {} included, is truthy.",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }
}
