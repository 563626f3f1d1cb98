import Foundation
import QuestionEngine

/// A stored question's options and key as the writers of other formats need them: the option
/// texts, explanations, image addresses and regions in order, the key's indexes, and the kind's
/// own fields.
struct ChoiceView {
    var options: [(text: String, explanation: String?, imageUrl: String?)]
    var correct: [Int]
    var regions: [HotspotRegion?]
    var details: QuestionDetails

    init(_ question: ContentDocument.Question) {
        options = Self.items(question.options).map { option in
            guard case .object(let fields) = option else { return ("", nil, nil) }
            return (Self.string(fields["text"]) ?? "", Self.string(fields["explanation"]), Self.string(fields["imageUrl"]))
        }
        correct = Self.items(question.correct).compactMap { value -> Int? in
            if case .number(let number) = value { return Int(exactly: number) }
            return nil
        }
        regions = Self.items(question.options).map { option in
            guard case .object(let fields) = option, let region = fields["region"] else { return nil }
            return try? JSONDecoder().decode(HotspotRegion.self, from: JSONEncoder().encode(region))
        }
        details = (try? JSONDecoder().decode(QuestionDetails.self, from: JSONEncoder().encode(question.details))) ?? .none
    }

    private static func items(_ value: JSONValue) -> [JSONValue] {
        if case .array(let items) = value { return items }
        return []
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}
