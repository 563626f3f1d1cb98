/// What a student answered, in one of the shapes the kinds take. Stored as JSON in
/// `answers.response` and `live_answers.response`, tagged by shape: a list of option indexes
/// (the choice kinds, an ordering, a hotspot region chosen from the list — the shape every
/// answer had before the other kinds), `{"pairs": […]}`, `{"text": "…"}`, `{"point": [x, y]}` or
/// `{"gaps": ["…", …]}`.
public enum AnswerResponse: Sendable, Equatable {
    /// Options picked, or for an ordering every option in the order given.
    case indexes([Int])
    /// For each option of a matching question, the index of the target given.
    case pairs([Int])
    /// A typed answer.
    case text(String)
    /// A point clicked on a hotspot question's image, in the image's coordinates.
    case point(x: Double, y: Double)
    /// For each gap of a cloze question, what was typed or the text of the choice chosen
    /// (empty for a gap left blank).
    case gaps([String])

    /// The response a JSON document states, or `.wrongShape` for a document that is none of
    /// the shapes (`.outOfRange` for an index that is not a whole number).
    public init(json: JSONValue) throws(AnswerError) {
        func integers(_ items: [JSONValue]) throws(AnswerError) -> [Int] {
            var numbers: [Int] = []
            for item in items {
                guard case .number(let number) = item else { throw .wrongShape }
                guard let whole = Int(exactly: number) else { throw .outOfRange(-1) }
                numbers.append(whole)
            }
            return numbers
        }
        switch json {
        case .array(let items):
            self = .indexes(try integers(items))
        case .object(let fields) where fields.count == 1:
            switch (fields.keys.first, fields.values.first) {
            case ("pairs", .array(let items)?): self = .pairs(try integers(items))
            case ("text", .string(let text)?): self = .text(text)
            case ("point", .array(let items)?):
                guard items.count == 2, case .number(let x) = items[0], case .number(let y) = items[1], x.isFinite, y.isFinite else { throw .wrongShape }
                self = .point(x: x, y: y)
            case ("gaps", .array(let items)?):
                var texts: [String] = []
                for item in items {
                    guard case .string(let text) = item else { throw .wrongShape }
                    texts.append(text)
                }
                self = .gaps(texts)
            default: throw .wrongShape
            }
        case .null, .bool, .number, .string, .object:
            throw .wrongShape
        }
    }

    /// The response as stored.
    public var json: JSONValue {
        switch self {
        case .indexes(let indexes): .array(indexes.map { .number(Double($0)) })
        case .pairs(let targets): .object(["pairs": .array(targets.map { .number(Double($0)) })])
        case .text(let text): .object(["text": .string(text)])
        case .point(let x, let y): .object(["point": .array([.number(x), .number(y)])])
        case .gaps(let texts): .object(["gaps": .array(texts.map { .string($0) })])
        }
    }

    /// The option indexes of an `.indexes` response (empty for the other shapes).
    public var indexes: [Int] {
        switch self {
        case .indexes(let indexes): indexes
        case .pairs, .text, .point, .gaps: []
        }
    }
}

extension AnswerResponse: Codable {
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            try self.init(json: json)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a response of any kind (\(error.code))"))
        }
    }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

extension AnswerResponse {
    /// Nothing answered: no option chosen, no target given, only blanks typed.
    public var isBlank: Bool {
        switch self {
        case .indexes(let indexes): indexes.isEmpty
        case .pairs(let targets): targets.isEmpty
        case .text(let text): FillInRule.normalized(text).isEmpty
        case .point: false
        case .gaps(let texts): texts.allSatisfy { FillInRule.normalized($0).isEmpty }
        }
    }
}
