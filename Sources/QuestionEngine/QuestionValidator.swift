/// The rules for a question's options, answer key and kind-specific details, applied at entry
/// by the importer and the editor. They are the same rules, with the same messages, as the
/// database's `question_shape_problem` function behind the `questions_shape_valid` CHECK
/// constraint, so a malformed question is refused with a useful message before it ever reaches
/// the database.
public enum QuestionValidator {
    /// An image from this site (`/images/…`) or over HTTPS: never `javascript:`, `data:`, plain
    /// `http:` or a protocol-relative `//host` (which a page would load from anywhere).
    public static func isSafeImageAddress(_ address: String) -> Bool {
        let scalars = Array(address.unicodeScalars)
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"].contains(scalar) }
        if address.hasPrefix("https://") {
            guard scalars.count > 8, !isSpace(scalars[8]), !"/?#".unicodeScalars.contains(scalars[8]) else { return false }
            return !scalars.contains(where: isSpace)
        }
        guard scalars.count >= 2, scalars[0] == "/", scalars[1] != "/" else { return false }
        return !scalars.contains { isSpace($0) || $0 == "\\" }
    }

    /// The detail fields each kind takes (format 1 writes them as the question's own fields).
    static func detailKeys(_ kind: QuestionKind) -> [String] {
        switch kind {
        case .singleChoice, .multiChoice, .ordering, .codeSnippet: []
        case .matching: ["targets"]
        case .fillIn: ["accepted", "match", "tolerance", "partial"]
        case .hotspot: ["imageUrl"]
        case .cloze: ["gaps"]
        }
    }

    /// Why the shape is malformed, or nil when it is sound. `details` holds the kind's own
    /// fields (an object; absent fields may be left out).
    public static func problem(type: String, options: JSONValue, correct: JSONValue, details: JSONValue = .object([:])) -> String? {
        guard let kind = QuestionKind(rawValue: type) else { return "unknown question type \(type)" }
        guard case .object(let fields) = details else { return "the details must be an object" }
        if let other = fields.keys.sorted().first(where: { !detailKeys(kind).contains($0) }) { return "a \(type) question does not take \(other)" }
        guard case .array(let items) = options else { return "options must be an array" }
        switch kind {
        case .fillIn:
            return fillInProblem(items: items, correct: correct, fields: fields)
        case .cloze:
            return clozeProblem(items: items, correct: correct, fields: fields)
        case .singleChoice, .multiChoice, .ordering, .codeSnippet, .matching, .hotspot:
            break
        }
        guard (2...10).contains(items.count) else { return "a question needs 2 to 10 options" }
        if let problem = optionsProblem(items, kind: kind) { return problem }
        switch kind {
        case .matching:
            return matchingProblem(prompts: items.count, correct: correct, fields: fields)
        case .hotspot:
            guard case .string(let address)? = fields["imageUrl"] else { return "a hotspot question needs an image" }
            guard isSafeImageAddress(address) else { return "the image address is neither a path on this site nor https" }
        case .singleChoice, .multiChoice, .ordering, .codeSnippet, .fillIn, .cloze:
            break
        }
        guard case .array(let answers) = correct, !answers.isEmpty else {
            return "the answer key must be a non-empty array of option indexes"
        }
        var seen: [Int] = []
        for answer in answers {
            guard case .number(let number) = answer, number >= 0, number <= 1000, let index = Int(exactly: number) else {
                return "the answer key holds something other than option indexes"
            }
            if index >= items.count { return "the answer key points at option \(index), which does not exist" }
            if seen.contains(index) { return "the answer key names option \(index) twice" }
            seen.append(index)
        }
        switch kind {
        // A single choice's key may name several options, each fully right (Moodle's "single"
        // question with two answers worth 100%); a code snippet's output is one.
        case .codeSnippet where seen.count != 1:
            return "a \(type) question has exactly one correct option"
        case .ordering where seen.count != items.count:
            return "an ordering key must list every option exactly once"
        case .singleChoice, .codeSnippet, .ordering, .multiChoice, .hotspot, .matching, .fillIn, .cloze:
            return nil
        }
    }

    /// The options' own rules: objects with the kind's keys, an id each (never twice), text,
    /// text-valued extras, safe image addresses, and a well-formed region for each of a
    /// hotspot's.
    private static func optionsProblem(_ items: [JSONValue], kind: QuestionKind) -> String? {
        let isHotspot = kind == .hotspot
        let keys: Set<String> = isHotspot ? ["id", "text", "region", "explanation"] : ["id", "text", "imageUrl", "code", "explanation"]
        var ids: Set<String> = []
        for (position, item) in items.enumerated() {
            guard case .object(let fields) = item else { return "option \(position) is not an object" }
            if !Set(fields.keys).isSubset(of: keys) {
                return "option \(position) has a key other than " + (isHotspot ? "id, text, region, explanation" : "id, text, imageUrl, code, explanation")
            }
            guard case .string(let id)? = fields["id"], !id.isEmpty else { return "option \(position) has no id" }
            guard case .string(let text)? = fields["text"], !text.trimmingCharacters(in: " \t\n\r").isEmpty else {
                return "option \(position) has no text"
            }
            for key in ["imageUrl", "code", "explanation"] {
                if let value = fields[key], case .string = value { continue }
                if fields[key] != nil { return "option \(position) has a non-text imageUrl, code or explanation" }
            }
            if case .string(let address)? = fields["imageUrl"], !isSafeImageAddress(address) {
                return "option \(position) has an image address that is neither a path on this site nor https"
            }
            if isHotspot {
                guard let region = fields["region"] else { return "option \(position) has no region" }
                guard case .object(let parts) = region, Set(parts.keys) == ["shape", "coords"], case .string(let name)? = parts["shape"],
                      let shape = HotspotRegion.Shape(rawValue: name) else {
                    return "option \(position) has a region that is not a rect, circle or polygon"
                }
                guard case .array(let values)? = parts["coords"], case let numbers = values.compactMap({ value -> Double? in
                    if case .number(let number) = value { return number }
                    return nil
                }), numbers.count == values.count, HotspotRegion(shape: shape, coords: numbers).isWellFormed else {
                    return "option \(position) has a region whose coordinates do not fit its shape"
                }
            }
            if !ids.insert(id).inserted { return "option \(position) repeats the id \(id)" }
        }
        return nil
    }

    /// A matching question: 2 to 20 targets with ids and text, and a key naming one target for
    /// each option.
    private static func matchingProblem(prompts: Int, correct: JSONValue, fields: [String: JSONValue]) -> String? {
        guard case .array(let targets)? = fields["targets"], (2...20).contains(targets.count) else { return "a matching question needs 2 to 20 targets" }
        var ids: Set<String> = []
        for (position, target) in targets.enumerated() {
            guard case .object(let parts) = target else { return "target \(position) is not an object" }
            if !Set(parts.keys).isSubset(of: ["id", "text"]) { return "target \(position) has a key other than id, text" }
            guard case .string(let id)? = parts["id"], !id.isEmpty else { return "target \(position) has no id" }
            guard case .string(let text)? = parts["text"], !text.trimmingCharacters(in: " \t\n\r").isEmpty else { return "target \(position) has no text" }
            if !ids.insert(id).inserted { return "target \(position) repeats the id \(id)" }
        }
        guard case .array(let answers) = correct, answers.count == prompts else { return "a matching key names one target for each option" }
        for answer in answers {
            guard case .number(let number) = answer, number >= 0, number <= 1000, let index = Int(exactly: number) else {
                return "the answer key holds something other than target indexes"
            }
            if index >= targets.count { return "the answer key points at target \(index), which does not exist" }
        }
        return nil
    }

    /// A fill-in question: no options and no key of indexes; its accepted answers as
    /// `typedProblem` wants them.
    private static func fillInProblem(items: [JSONValue], correct: JSONValue, fields: [String: JSONValue]) -> String? {
        guard items.isEmpty else { return "a fill-in question has no options" }
        guard keyIsAbsent(correct) else { return "a fill-in question has no answer key: its accepted answers are the key" }
        return typedProblem(fields, subject: "a fill-in question", prefix: "")
    }

    /// No key of indexes: null or an empty list.
    private static func keyIsAbsent(_ correct: JSONValue) -> Bool {
        switch correct {
        case .null: true
        case .array(let answers): answers.isEmpty
        case .bool, .number, .string, .object: false
        }
    }

    /// How typed answers are judged (a fill-in question's fields, or one gap's): 1 to 20 accepted
    /// answers, each with text (a number, when compared as numbers), a known way of comparing, a
    /// tolerance only for numbers, and partly right answers. `subject` names the question or
    /// the gap where a message needs it; `prefix` goes before the others ("gap 2: ").
    private static func typedProblem(_ fields: [String: JSONValue], subject: String, prefix: String) -> String? {
        var match = FillInMatch.exact
        if let given = fields["match"] {
            guard case .string(let name) = given, let known = FillInMatch(rawValue: name) else { return prefix + "match must be exact, case-insensitive or numeric" }
            match = known
        }
        guard case .array(let accepted)? = fields["accepted"], (1...20).contains(accepted.count) else { return "\(subject) needs 1 to 20 accepted answers" }
        for (position, answer) in accepted.enumerated() {
            guard case .string(let text) = answer else { return prefix + "accepted answer \(position) is not text" }
            let normal = FillInRule.normalized(text)
            guard !normal.isEmpty else { return prefix + "accepted answer \(position) is empty" }
            guard normal.unicodeScalars.count <= FillInRule.maximumLength else { return prefix + "accepted answer \(position) is longer than 200 characters" }
            if match == .numeric, FillInRule.number(normal) == nil { return prefix + "accepted answer \(position) is not a number" }
        }
        if let tolerance = fields["tolerance"] {
            guard match == .numeric else { return prefix + "a tolerance applies only to numeric answers" }
            guard case .number(let value) = tolerance, value >= 0, value.isFinite else { return prefix + "the tolerance must be a number, 0 or more" }
        }
        if let partial = fields["partial"], let problem = partialProblem(partial, match: match) { return prefix + problem }
        return nil
    }

    /// A cloze question: no options and no key of indexes; 1 to 20 gaps, each an object of the
    /// gap's keys, judged as typed answers are; a choice gap offers 2 to 20 different choices,
    /// compares them exactly, and takes only choices as its answers; a weight from 1 to 100.
    private static func clozeProblem(items: [JSONValue], correct: JSONValue, fields: [String: JSONValue]) -> String? {
        guard items.isEmpty else { return "a cloze question has no options: its gaps hold the answers" }
        guard keyIsAbsent(correct) else { return "a cloze question has no answer key: its gaps hold the answers" }
        guard case .array(let gaps)? = fields["gaps"], (1...20).contains(gaps.count) else { return "a cloze question needs 1 to 20 gaps" }
        for (position, gap) in gaps.enumerated() {
            let number = position + 1, prefix = "gap \(number): "
            guard case .object(let parts) = gap else { return "gap \(number) is not an object" }
            if let other = parts.keys.sorted().first(where: { !["choices", "accepted", "match", "tolerance", "partial", "weight"].contains($0) }) {
                return prefix + "a gap does not take \(other)"
            }
            if let weight = parts["weight"] {
                guard case .number(let value) = weight, let whole = Int(exactly: value), (1...100).contains(whole) else { return prefix + "the weight must be a whole number from 1 to 100" }
            }
            if let problem = typedProblem(parts, subject: "gap \(number)", prefix: prefix) { return problem }
            guard let offered = parts["choices"] else { continue }
            guard case .array(let choices) = offered, (2...20).contains(choices.count) else { return prefix + "a choice gap offers 2 to 20 choices" }
            var texts: [String] = []
            for (index, choice) in choices.enumerated() {
                guard case .string(let text) = choice, case let normal = FillInRule.normalized(text), !normal.isEmpty else { return prefix + "choice \(index) has no text" }
                guard normal.unicodeScalars.count <= FillInRule.maximumLength else { return prefix + "choice \(index) is longer than 200 characters" }
                if texts.contains(normal) { return prefix + "choice \(index) is offered twice" }
                texts.append(normal)
            }
            if parts["match"] != nil { return prefix + "a choice gap compares its choices exactly: it takes no match" }
            var answers: [JSONValue] = []
            if case .array(let accepted)? = parts["accepted"] { answers += accepted }
            if case .array(let partial)? = parts["partial"] { answers += partial.compactMap { if case .object(let entry) = $0 { entry["answer"] } else { nil } } }
            for case .string(let answer) in answers where !texts.contains(FillInRule.normalized(answer)) {
                return prefix + "the answer \(FillInRule.normalized(answer)) is not one of the choices"
            }
        }
        return nil
    }

    /// A fill-in question's partly right answers: up to 20, each an answer as the accepted ones
    /// are, a share of the marks between 0 and 1 (neither), and a tolerance only for numbers.
    private static func partialProblem(_ partial: JSONValue, match: FillInMatch) -> String? {
        guard case .array(let answers) = partial, answers.count <= 20 else { return "partial must be a list of at most 20 answers with their share" }
        for (position, entry) in answers.enumerated() {
            guard case .object(let fields) = entry, fields.keys.allSatisfy(["answer", "share", "tolerance"].contains),
                  case .string(let text)? = fields["answer"]
            else { return "partly right answer \(position) must be an object with answer, share and, for a number, tolerance" }
            let normal = FillInRule.normalized(text)
            guard !normal.isEmpty else { return "partly right answer \(position) is empty" }
            guard normal.unicodeScalars.count <= FillInRule.maximumLength else { return "partly right answer \(position) is longer than 200 characters" }
            if match == .numeric, FillInRule.number(normal) == nil { return "partly right answer \(position) is not a number" }
            guard case .number(let share)? = fields["share"], share > 0, share < 1 else {
                return "partly right answer \(position) needs a share of the marks more than 0 and less than 1"
            }
            if let tolerance = fields["tolerance"] {
                guard match == .numeric else { return "a tolerance applies only to numeric answers" }
                guard case .number(let value) = tolerance, value >= 0, value.isFinite else { return "the tolerance must be a number, 0 or more" }
            }
        }
        return nil
    }
}

extension String {
    func trimmingCharacters(in characters: String) -> Substring {
        var view = Substring(self)
        while let first = view.first, characters.contains(first) { view.removeFirst() }
        while let last = view.last, characters.contains(last) { view.removeLast() }
        return view
    }
}
