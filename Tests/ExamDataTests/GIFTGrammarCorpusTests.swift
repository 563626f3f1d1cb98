import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// A GIFT grammar's own test suite (`../shared/corpus/interop/giftpeg/`, beside the repository
/// when it is there; the test skips itself when it is not): each file with the parse its authors
/// expect. Every expected question of a kind the portal keeps (choice, true/false, short answer,
/// number, matching) is compared with what the portal reads, on the fields it keeps: the stem,
/// the title (the end of the key), the general feedback, the options' texts, which are right and
/// their feedback (true/false: as Moodle gives them to the wrong and the right answer), a short answer's
/// accepted and partly right answers, a number's value, tolerance and partly right values, a
/// matching question's items and their answers. Texts are compared as words: markup, blanks and
/// entities aside. Essays, descriptions and categories must not become questions. The share that
/// matches is printed, with each mismatch.
@Suite("A GIFT grammar's expected parses", .onTestThreads)
struct GIFTGrammarCorpusTests {
    static let folder = URL(fileURLWithPath: TestPaths.repository).deletingLastPathComponent().appendingPathComponent("shared/corpus/interop/giftpeg")

    @Test("the portal reads each question as the grammar's test suite expects, on the fields it keeps", .enabled(if: FileManager.default.fileExists(atPath: folder.path)))
    func expectedParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".gift") }.sorted()
        var kept = 0, matched = 0, mismatches: [String] = []
        for name in files {
            let gift = Self.folder.appendingPathComponent(name)
            let expectedURL = gift.deletingPathExtension().appendingPathExtension("json")
            guard let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [[String: Any]] else { continue }
            let content: ForeignContent
            do { content = try ForeignImport().read(Data(contentsOf: gift), format: .gift, language: "en") } catch {
                let count = expected.filter { Self.keptTypes.contains($0["type"] as? String ?? "") }.count
                kept += count
                mismatches.append("\(name): refused whole (\(error)), \(count) questions lost")
                continue
            }
            var unused = content.questions
            for question in expected {
                let type = question["type"] as? String ?? ""
                guard Self.keptTypes.contains(type) else {
                    if let index = unused.firstIndex(where: { Self.words($0.stem) == Self.words(Self.text(question["stem"])) && !Self.words($0.stem).isEmpty }) {
                        mismatches.append("\(name): a \(type) became a question: \(unused[index].stem.prefix(60))")
                        unused.remove(at: index)
                    }
                    continue
                }
                kept += 1
                let stem = Self.words(Self.text(question["stem"]))
                guard let index = unused.firstIndex(where: { Self.words($0.stem) == stem }) else {
                    mismatches.append("\(name): no question read with the stem “\(stem.prefix(70))” (\(type)); skipped: \(content.skipped)")
                    continue
                }
                let ours = unused.remove(at: index)
                if let problem = Self.difference(ours, question, type: type) {
                    mismatches.append("\(name): “\(stem.prefix(50))”: \(problem)")
                } else {
                    matched += 1
                }
            }
        }
        print("GIFT expected parses: \(matched) of \(kept) match (\(matched * 100 / max(1, kept))%)")
        for line in mismatches { print("  " + line) }
        #expect(kept >= 80)
        #expect(matched * 100 >= kept * 95, "\(mismatches.joined(separator: "\n"))")
    }

    static let keptTypes: Set<String> = ["MC", "TF", "Short", "Numerical", "Matching"]

    /// What differs between the portal's reading and the expected parse, or nil.
    static func difference(_ ours: ForeignQuestion, _ expected: [String: Any], type: String) -> String? {
        // A name used again gets `#2`, `#3`… after it.
        let named = ours.key.replacingOccurrences(of: #"#\d+$"#, with: "", options: .regularExpression)
        if let title = expected["title"] as? String, !named.hasSuffix(title.trimmingCharacters(in: .whitespaces)) { return "title \(title) not in key \(ours.key)" }
        let general = words(text(expected["globalFeedback"]))
        if words(ours.generalFeedback ?? "") != general { return "general feedback “\(ours.generalFeedback ?? "")” instead of “\(general)”" }
        switch type {
        case "MC":
            guard case .choosing = ours.answering else { return "not a choice: \(ours.answering)" }
            let choices = expected["choices"] as? [[String: Any]] ?? []
            if ours.options.map({ words($0.text) }) != choices.map({ words(text($0["text"])) }) { return "options \(ours.options.map(\.text)) instead of \(choices.map { text($0["text"]) })" }
            // The right options: the one worth full marks (others worth part of them are counted
            // wrong, and the report says so), else every one worth something (an even split).
            let full = choices.indices.filter { weight(choices[$0]) >= 99.99 }
            let right = full.count == 1 ? full : choices.indices.filter { weight(choices[$0]) > 0 }
            if Set(ours.correct) != Set(right) { return "right options \(ours.correct) instead of \(right)" }
            for (option, choice) in zip(ours.options, choices) where words(option.feedback ?? "") != words(text(choice["feedback"])) {
                return "feedback “\(option.feedback ?? "")” instead of “\(text(choice["feedback"]))”"
            }
        case "TF":
            // As Moodle reads `{TRUE#first#second}`: the first feedback is for the wrong answer,
            // the second for the right one (the grammar names them trueFeedback and
            // falseFeedback, in that order).
            guard case .choosing = ours.answering, ours.options.count == 2 else { return "not true/false: \(ours.answering)" }
            let isTrue = expected["isTrue"] as? Bool ?? false
            let (right, wrong) = isTrue ? (0, 1) : (1, 0)
            if ours.correct != [right] { return "key \(ours.correct) for \(isTrue)" }
            if words(ours.options[wrong].feedback ?? "") != words(text(expected["trueFeedback"])) { return "first feedback “\(ours.options[wrong].feedback ?? "")”" }
            if words(ours.options[right].feedback ?? "") != words(text(expected["falseFeedback"])) { return "second feedback “\(ours.options[right].feedback ?? "")”" }
        case "Short":
            guard case .typing(let accepted, _, _, let partial) = ours.answering else { return "not a typed answer: \(ours.answering)" }
            let choices = expected["choices"] as? [[String: Any]] ?? []
            let full = choices.filter { weight($0) >= 100 }.map { words(text($0["text"])) }
            let part = choices.filter { weight($0) > 0 && weight($0) < 100 }.map { words(text($0["text"])) }
            if accepted.map(words) != full { return "accepted \(accepted) instead of \(full)" }
            if partial.map({ words($0.answer) }) != part { return "partly right \(partial) instead of \(part)" }
        case "Numerical":
            guard case .typing(let accepted, .numeric, let tolerance, let partial) = ours.answering else { return "not a number: \(ours.answering)" }
            let answers: [(value: Double, tolerance: Double, weight: Double)]
            if let list = expected["choices"] as? [[String: Any]] {
                answers = list.compactMap { choice in number(choice["text"]).map { ($0.0, $0.1, weight(choice)) } }
            } else {
                answers = number(expected["choices"]).map { [($0.0, $0.1, 100)] } ?? []
            }
            let full = answers.filter { $0.weight >= 100 }, part = answers.filter { $0.weight > 0 && $0.weight < 100 }
            if accepted.compactMap({ Double($0) }) != full.map(\.value) { return "accepted \(accepted) instead of \(full.map(\.value))" }
            if let first = full.first, abs((tolerance ?? 0) - first.tolerance) > 1e-9 { return "tolerance \(tolerance ?? 0) instead of \(first.tolerance)" }
            let ourPart = partial.map { (Double($0.answer) ?? .nan, $0.tolerance ?? tolerance ?? 0, $0.share * 100) }
            if ourPart.count != part.count || zip(ourPart, part).contains(where: { abs($0.0 - $1.value) > 1e-9 || abs($0.1 - $1.tolerance) > 1e-9 || abs($0.2 - $1.weight) > 0.01 }) {
                return "partly right \(partial) instead of \(part)"
            }
        case "Matching":
            guard case .matching(let targets) = ours.answering else { return "not matching: \(ours.answering)" }
            let pairs = (expected["matchPairs"] as? [[String: Any]] ?? []).filter { !words(text($0["subquestion"])).isEmpty }
            if ours.options.map({ words($0.text) }) != pairs.map({ words(text($0["subquestion"])) }) { return "items \(ours.options.map(\.text))" }
            let answers = ours.correct.map { targets.indices.contains($0) ? words(targets[$0]) : "" }
            if answers != pairs.map({ words($0["subanswer"] as? String ?? "") }) { return "answers \(answers)" }
        default:
            return "kind \(type)"
        }
        return nil
    }

    /// A choice's weight: its own, else 100 for a right one and 0 for a wrong one.
    static func weight(_ choice: [String: Any]) -> Double {
        if let weight = double(choice["weight"]) { return weight }
        return choice["isCorrect"] as? Bool == true ? 100 : 0
    }

    /// An expected number: its value and tolerance.
    static func number(_ value: Any?) -> (Double, Double)? {
        guard let fields = value as? [String: Any] else { return nil }
        switch fields["type"] as? String {
        case "simple": return double(fields["number"]).map { ($0, 0) }
        case "range": return double(fields["number"]).map { ($0, double(fields["range"]) ?? 0) }
        case "high-low":
            guard let high = double(fields["numberHigh"]), let low = double(fields["numberLow"]) else { return nil }
            return ((high + low) / 2, (high - low) / 2)
        default: return nil
        }
    }

    /// A JSON number, however the reader gave it.
    static func double(_ value: Any?) -> Double? {
        switch value {
        case let number as Double: number
        case let number as Int: Double(number)
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }

    /// An expected text field's words.
    static func text(_ value: Any?) -> String { (value as? [String: Any])?["text"] as? String ?? "" }

    /// Words only: tags, markdown's marks, entities and blanks aside.
    static func words(_ text: String) -> String {
        var plain = "", inTag = false
        for character in text {
            if character == "<" { inTag = true; continue }
            if character == ">", inTag { inTag = false; plain.append(" "); continue }
            if !inTag { plain.append(character) }
        }
        for (entity, character) in ["&nbsp;": " ", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&amp;": "&"] {
            plain = plain.replacingOccurrences(of: entity, with: character)
        }
        let marks = CharacterSet(charactersIn: "*_`\\")
        return plain.unicodeScalars.filter { !marks.contains($0) }.map(String.init).joined()
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
