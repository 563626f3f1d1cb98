/// The rules for a question's options and answer key, applied at entry by the importer and the
/// editor. They are the same rules, with the same messages, as the database's
/// `question_shape_problem` function behind the `questions_shape_valid` CHECK constraint, so a
/// malformed question is refused with a useful message before it ever reaches the database.
public enum QuestionValidator {
    static let optionKeys: Set<String> = ["id", "text", "imageUrl", "code", "explanation"]

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

    /// Why the shape is malformed, or nil when it is sound.
    public static func problem(type: String, options: JSONValue, correct: JSONValue) -> String? {
        guard let kind = QuestionKind(rawValue: type) else { return "unknown question type \(type)" }
        guard case .array(let items) = options else { return "options must be an array" }
        guard (2...10).contains(items.count) else { return "a question needs 2 to 10 options" }
        var ids: Set<String> = []
        for (position, item) in items.enumerated() {
            guard case .object(let fields) = item else { return "option \(position) is not an object" }
            if !Set(fields.keys).isSubset(of: optionKeys) {
                return "option \(position) has a key other than id, text, imageUrl, code, explanation"
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
            if !ids.insert(id).inserted { return "option \(position) repeats the id \(id)" }
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
        case .singleChoice where seen.count != 1, .codeSnippet where seen.count != 1:
            return "a \(type) question has exactly one correct option"
        case .ordering where seen.count != items.count:
            return "an ordering key must list every option exactly once"
        default:
            return nil
        }
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
