import Foundation
import QuestionEngine

/// Content from the formats schools already have, imported into an exam of the portal: the
/// format is told from the content itself, the questions that map onto the portal's kinds
/// become a format-1 document for that exam (categories become domains), and what does not map
/// is named by its position. The document then goes through `ContentImport` like any other,
/// so the same checks, all-or-nothing writing and stable keys apply.
public struct ForeignImport: Sendable {
    public init() {}

    /// The formats the importer recognises.
    public enum Format: String, Sendable, Equatable {
        case portalJSON = "format 1 (JSON)"
        case gift = "GIFT"
        case aiken = "Aiken"
        case moodleXML = "Moodle XML"
        case qti3 = "QTI 3.0"
        case qti21 = "QTI 2.1"
        case contentPackage = "IMS content package (zip)"
    }

    /// The format of `data`, from its content: a zip's signature, an XML root's namespace, JSON,
    /// Aiken's `ANSWER:` lines, GIFT's answer blocks. Nil when it is none of them.
    public static func detect(_ data: Data) -> Format? {
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .contentPackage }
        guard let text = try? text(data) else { return nil }
        let head = text.prefix(4096)
        let start = head.drop { $0.isWhitespace }
        // JSON, unless it is not JSON and is GIFT (a GIFT file may open with an answer block).
        if start.hasPrefix("{"), (try? JSONSerialization.jsonObject(with: data)) != nil || !GIFTFormat.looksLike(text) { return .portalJSON }
        if start.hasPrefix("<") {
            // Told by the root element, found past the prolog however long it is (a document
            // type names the root too, and is then refused by the reader with its reason).
            switch XMLReader.rootName(of: text).map({ $0.split(separator: ":").last.map(String.init) ?? $0 }) {
            case "qti-assessment-item": return .qti3
            case "assessmentItem": return .qti21
            case "quiz", "question": return .moodleXML
            default: break
            }
            if head.contains("imsqtiasi_v3p0") { return .qti3 }
            if head.contains("imsqti_v2p1") { return .qti21 }
            return nil
        }
        if AikenFormat.looksLike(text) && !text.contains("{") { return .aiken }
        if GIFTFormat.looksLike(text) { return .gift }
        if AikenFormat.looksLike(text) { return .aiken }
        return nil
    }

    /// The file as text: UTF-8, or the UTF-16 or UTF-32 its byte-order mark names (an XML file
    /// may also name its encoding in its declaration); any other encoding is refused by name
    /// rather than read as garbage.
    public static func text(_ data: Data) throws(FormatError) -> String {
        try SourceText.decode([UInt8](data), xml: true)
    }

    /// The questions of a GIFT or Aiken file (`language`: the target exam's, for true/false).
    public func read(_ data: Data, format: Format, language: String) throws(FormatError) -> ForeignContent {
        let content: ForeignContent
        switch format {
        case .contentPackage: content = try QTIPackage.read([UInt8](data), language: language)
        case .gift: content = try GIFTFormat.parse(try Self.text(data), keyPrefix: "gift:", language: language)
        case .aiken: content = try AikenFormat.parse(try Self.text(data), keyPrefix: "aiken:")
        case .moodleXML: content = try MoodleXMLFormat.parse(data, language: language)
        case .qti3, .qti21: content = try QTIFormat.parse(data, language: language)
        case .portalJSON:
            throw FormatError(position: "the file", problem: "is \(format.rawValue), which this importer does not read yet")
        }
        return Self.distinctKeys(content)
    }

    /// A name (or text) used by two questions of one file makes the later one's key its own:
    /// `key#2`, `key#3`… in file order, so importing the file again finds each question again;
    /// the report says which.
    static func distinctKeys(_ content: ForeignContent) -> ForeignContent {
        var content = content, first: [String: String] = [:], used = Set(content.questions.map(\.key))
        for index in content.questions.indices {
            let key = content.questions[index].key
            guard let earlier = first[key] else { first[key] = content.questions[index].position; continue }
            var number = 2
            while used.contains("\(key)#\(number)") { number += 1 }
            let distinct = "\(key)#\(number)"
            used.insert(distinct)
            content.questions[index].key = distinct
            content.notes.append(SkippedItem(position: content.questions[index].position,
                                             reason: "the name \(key.prefix(100)) is the one of the question at \(earlier): kept as \(distinct.prefix(100))"))
        }
        return content
    }

    /// Domains new to the exam get this weight; an admin sets the blueprint afterwards.
    public static let newDomainWeight = 10

    /// `content` as a document for `exam` (as `ContentImport.export` gives it): each question in
    /// the domain named by `domain`, else the one its category names (created when missing, its
    /// slug made from the category's last part).
    public func document(_ content: ForeignContent, into exam: ContentDocument, domain: String?) throws(FormatError) -> ContentDocument {
        guard let region = exam.regions.first, var target = region.exams.first else {
            throw FormatError(position: "the exam", problem: "is not in the document")
        }
        let existing = Dictionary(target.domains.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        var domains: [String: ContentDocument.Domain] = [:], order: [String] = []
        // A domain is named by its category's last part, unless two categories end alike
        // (`A/Sub`, `B/Sub`): those are told apart by their whole path.
        func parts(_ category: String?) -> [String] {
            (category ?? "").split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var paths: [String: Set<[String]>] = [:]
        for question in content.questions { let path = parts(question.category); if let last = path.last { paths[last, default: []].insert(path) } }
        for question in content.questions {
            let slug: String, title: String
            let path = parts(question.category)
            if let domain {
                slug = domain
                title = existing[domain]?.title ?? domain
            } else if let category = path.last {
                // As many of the path's last parts as tell the categories ending alike apart.
                let alike = paths[category] ?? []
                let depth = (1...max(1, path.count)).first { depth in Set(alike.map { $0.suffix(depth) }).count == alike.count } ?? path.count
                let named = path.suffix(depth).joined(separator: " / ")
                slug = Self.slug(named)
                title = existing[slug]?.title ?? named
            } else if target.domains.count == 1, let only = target.domains.first {
                slug = only.slug
                title = only.title
            } else {
                throw FormatError(position: question.position, problem: "has no category: name the domain for such questions (--domain SLUG, or the domain on the import page)")
            }
            if domains[slug] == nil {
                domains[slug] = ContentDocument.Domain(slug: slug, title: title, weight: existing[slug]?.weight ?? Self.newDomainWeight, questions: [])
                order.append(slug)
            }
            domains[slug]!.questions.append(Self.written(question))
        }
        target.domains = order.compactMap { domains[$0] }
        var images: [ContentImage] = [], stored = Set<String>()
        for question in content.questions {
            var shown = question.options.compactMap(\.image) + question.shownImages
            if case .clicking(let image) = question.answering { shown.append(image) }
            for image in shown where stored.insert(image.path).inserted { images.append(image) }
        }
        return ContentDocument(regions: [ContentDocument.Region(code: region.code, name: region.name, exams: [target])], images: images.isEmpty ? nil : images)
    }

    /// A question in format 1, in markdown when one of its texts is a tree (its other texts then
    /// written as markdown that says exactly what they said).
    static func written(_ question: ForeignQuestion) -> ContentDocument.Question {
        let plain = Self.question(question)
        guard question.hasTrees else { return plain }
        // Stored options of an ordering question are moved on by one (`question(_:)`): their trees too.
        var options = question.options.map { (text: $0.richText, explanation: $0.richFeedback) }
        if question.isOrdering, case .choosing = question.answering, !options.isEmpty {
            options = options.indices.map { options[($0 + 1) % options.count] }
        }
        return plain.writtenAsMarkdown(stem: question.richStem, explanation: question.richFeedback, options: options)
    }

    /// A question in format 1: options lettered a, b, c…, their feedback as explanations. An
    /// ordering question's steps are stored moved on by one (so the list as stored is never the
    /// answer), the key listing them in their right order.
    static func question(_ question: ForeignQuestion) -> ContentDocument.Question {
        let base = { (kind: QuestionKind, options: JSONValue, correct: [Int], details: QuestionDetails) in
            ContentDocument.Question(
                key: question.key, type: kind.rawValue, stem: question.stem, code: question.code,
                codeLanguage: question.code == nil ? nil : question.codeLanguage, options: options, correct: .array(correct.map { .number(Double($0)) }),
                explanation: question.generalFeedback, difficulty: question.difficulty.map { min(5, max(1, $0)) } ?? 3, status: question.status,
                examOnly: question.examOnly ? true : nil, details: (try? JSONValue(encoding: details)) ?? .object([:]))
        }
        switch question.answering {
        case .choosing:
            break
        case .matching(let targets):
            return base(.matching, options(question.options), question.correct,
                        QuestionDetails(targets: targets.enumerated().map { MatchTarget(id: "t\($0.offset + 1)", text: $0.element) }))
        case .typing(let accepted, let match, let tolerance, let partial):
            return base(.fillIn, .array([]), [], QuestionDetails(
                accepted: accepted, match: match, tolerance: match == .numeric ? tolerance : nil, partial: partial.isEmpty ? nil : partial))
        case .clicking(let image):
            return base(.hotspot, options(question.options), question.correct, QuestionDetails(imageUrl: image.path))
        case .filling(let gaps):
            return base(.cloze, .array([]), [], QuestionDetails(gaps: gaps))
        }
        if question.isOrdering {
            let count = question.options.count
            var shown = question
            shown.options = (0..<count).map { question.options[($0 + 1) % count] }
            let correct = (0..<count).map { step in (step - 1 + count) % count }
            shown.isOrdering = false
            shown.isMultiple = false
            shown.correct = correct
            shown.code = nil
            var stored = Self.question(shown)
            stored.type = QuestionKind.ordering.rawValue
            return stored
        }
        let options = options(question.options)
        // A single answer about a code block is the portal's code-snippet kind.
        let kind: QuestionKind = question.isMultiple ? .multiChoice : question.code != nil ? .codeSnippet : .singleChoice
        return ContentDocument.Question(
            key: question.key, type: kind.rawValue, stem: question.stem, code: question.code, codeLanguage: question.code == nil ? nil : question.codeLanguage,
            options: options, correct: .array(question.correct.map { .number(Double($0)) }), explanation: question.generalFeedback,
            difficulty: question.difficulty.map { min(5, max(1, $0)) } ?? 3, status: question.status, examOnly: question.examOnly ? true : nil)
    }

    /// Options lettered a, b, c…, their feedback as explanations, with their pictures and regions.
    static func options(_ options: [ForeignQuestion.Option]) -> JSONValue {
        .array(options.enumerated().map { index, option in
            var fields: [String: JSONValue] = ["id": .string(String(UnicodeScalar(UInt8(97 + index % 26)))), "text": .string(option.text)]
            if let feedback = option.feedback, !feedback.isEmpty { fields["explanation"] = .string(feedback) }
            if let image = option.image { fields["imageUrl"] = .string(image.path) }
            if let region = option.region, let json = try? JSONValue(encoding: region) { fields["region"] = json }
            return .object(fields)
        })
    }

    /// A domain slug from a category name: lower-case ASCII letters and digits joined by
    /// hyphens; a name with none (日本語) gets a slug from its fingerprint.
    static func slug(_ name: String) -> String {
        var slug = "", gap = false
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if gap, !slug.isEmpty { slug += "-" }
                slug.unicodeScalars.append(scalar)
                gap = false
            } else {
                gap = true
            }
        }
        return slug.isEmpty ? "category-" + StableHash.hex(name).prefix(8) : String(slug.prefix(80))
    }
}
