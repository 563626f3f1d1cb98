import Foundation
import QuestionEngine

/// The import and export format for content (format 1): regions → exams → domains →
/// questions, each with its natural key (region code, exam slug, domain slug, question key), so
/// importing the same document twice changes nothing. Documented in the README.
public struct ContentDocument: Codable, Sendable, Equatable {
    public struct Region: Codable, Sendable, Equatable {
        public var code: String
        public var name: String
        public var exams: [Exam]

        public init(code: String, name: String, exams: [Exam]) {
            self.code = code
            self.name = name
            self.exams = exams
        }
    }

    public struct Exam: Codable, Sendable, Equatable {
        public var slug: String
        public var title: String
        public var description: String?
        public var language: String
        public var passMark: Int
        public var timeLimitSeconds: Int
        public var questionCount: Int
        /// `"markdown"`: every question's texts are markdown (a question may say so itself);
        /// absent: plain text.
        public var markup: String? = nil
        /// The score the exam reports besides the percentage (optional): `{"min": 100, "pass": 700, "max": 1000}`.
        public var scaledScore: ScaledScore? = nil
        public var domains: [Domain]

        public init(
            slug: String, title: String, description: String?, language: String, passMark: Int, timeLimitSeconds: Int, questionCount: Int,
            markup: String? = nil, scaledScore: ScaledScore? = nil, domains: [Domain]
        ) {
            self.markup = markup
            self.scaledScore = scaledScore
            self.slug = slug
            self.title = title
            self.description = description
            self.language = language
            self.passMark = passMark
            self.timeLimitSeconds = timeLimitSeconds
            self.questionCount = questionCount
            self.domains = domains
        }
    }

    public struct Domain: Codable, Sendable, Equatable {
        public var slug: String
        public var title: String
        public var weight: Int
        public var questions: [Question]

        public init(slug: String, title: String, weight: Int, questions: [Question]) {
            self.slug = slug
            self.title = title
            self.weight = weight
            self.questions = questions
        }
    }

    public struct Question: Codable, Sendable, Equatable {
        /// The question's natural key, unique across all content.
        public var key: String
        public var type: String
        public var stem: String
        /// `"markdown"`: the stem, the explanation and the options' texts and explanations are
        /// markdown (`QuestionTexts`); `"plain"` or absent: plain text, unless the exam says
        /// markdown for all its questions.
        public var markup: String? = nil
        public var code: String?
        public var codeLanguage: String?
        /// Kept as raw JSON until validated, so a malformed option is reported, not a decoding error.
        public var options: JSONValue
        public var correct: JSONValue
        public var explanation: String?
        public var difficulty: Int
        /// draft, published (the default) or retired.
        public var status: String?
        /// Kept for mock exams and live events (never offline, never in practice); absent is false.
        public var examOnly: Bool? = nil
        /// The kinds' own fields, raw until validated like the options: a matching question's
        /// `targets`, a fill-in question's `accepted`, `match`, `tolerance` and `partial`, a
        /// hotspot question's `imageUrl`, a cloze question's `gaps`.
        public var targets: JSONValue? = nil
        public var accepted: JSONValue? = nil
        public var match: JSONValue? = nil
        public var tolerance: JSONValue? = nil
        public var partial: JSONValue? = nil
        public var imageUrl: JSONValue? = nil
        public var gaps: JSONValue? = nil

        public init(
            key: String, type: String, stem: String, markup: String? = nil, code: String? = nil, codeLanguage: String? = nil, options: JSONValue,
            correct: JSONValue, explanation: String? = nil, difficulty: Int, status: String? = nil, examOnly: Bool? = nil, details: JSONValue = .object([:])
        ) {
            self.key = key
            self.markup = markup
            self.type = type
            self.stem = stem
            self.code = code
            self.codeLanguage = codeLanguage
            self.options = options
            self.correct = correct
            self.explanation = explanation
            self.difficulty = difficulty
            self.status = status
            self.examOnly = examOnly
            if case .object(let fields) = details {
                (targets, accepted, match, tolerance, partial, imageUrl, gaps) = (
                    fields["targets"], fields["accepted"], fields["match"], fields["tolerance"], fields["partial"], fields["imageUrl"], fields["gaps"])
            }
        }

        /// A fill-in question may leave its (empty) key out.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                key: try container.decode(String.self, forKey: .key), type: try container.decode(String.self, forKey: .type),
                stem: try container.decode(String.self, forKey: .stem), markup: try container.decodeIfPresent(String.self, forKey: .markup),
                code: try container.decodeIfPresent(String.self, forKey: .code),
                codeLanguage: try container.decodeIfPresent(String.self, forKey: .codeLanguage), options: try container.decode(JSONValue.self, forKey: .options),
                correct: try container.decodeIfPresent(JSONValue.self, forKey: .correct) ?? .array([]),
                explanation: try container.decodeIfPresent(String.self, forKey: .explanation), difficulty: try container.decode(Int.self, forKey: .difficulty),
                status: try container.decodeIfPresent(String.self, forKey: .status), examOnly: try container.decodeIfPresent(Bool.self, forKey: .examOnly))
            (targets, accepted, match, tolerance, partial, imageUrl) = (
                try container.decodeIfPresent(JSONValue.self, forKey: .targets), try container.decodeIfPresent(JSONValue.self, forKey: .accepted),
                try container.decodeIfPresent(JSONValue.self, forKey: .match), try container.decodeIfPresent(JSONValue.self, forKey: .tolerance),
                try container.decodeIfPresent(JSONValue.self, forKey: .partial), try container.decodeIfPresent(JSONValue.self, forKey: .imageUrl))
            gaps = try container.decodeIfPresent(JSONValue.self, forKey: .gaps)
        }

        /// The kind's own fields as stored in `questions.details`.
        public var details: JSONValue {
            var fields: [String: JSONValue] = [:]
            for (name, value) in [("targets", targets), ("accepted", accepted), ("match", match), ("tolerance", tolerance), ("partial", partial), ("imageUrl", imageUrl), ("gaps", gaps)] {
                if let value { fields[name] = value }
            }
            return .object(fields)
        }
    }

    public var format: Int
    public var regions: [Region]
    /// The stored images the questions show (`/content-images/…`), carried with the content so
    /// another portal importing it gets them too; absent when there are none.
    public var images: [ContentImage]? = nil

    public init(format: Int = 1, regions: [Region], images: [ContentImage]? = nil) {
        self.format = format
        self.regions = regions
        self.images = images
    }

    /// Every picture's address (options' images, hotspot questions' pictures, pictures in
    /// markdown texts), in document order (repeats included).
    public var imagePaths: [String] {
        regions.flatMap(\.exams).flatMap { exam in exam.domains.flatMap(\.questions).map { (exam.markup, $0) } }.flatMap { examMarkup, question -> [String] in
            var paths: [String] = []
            if case .array(let options) = question.options {
                paths = options.compactMap { option in
                    if case .object(let fields) = option, case .string(let path)? = fields["imageUrl"] { return path }
                    return nil
                }
            }
            if case .string(let path)? = question.imageUrl { paths.append(path) }
            if question.isMarkdown(examMarkup: examMarkup), let texts = try? question.stored(examMarkup: examMarkup).texts { paths += texts.picturePaths }
            return paths
        }
    }

    /// Decodes a document; the error says where the JSON does not fit the format.
    public static func decode(_ data: Data) throws(ImportProblem) -> ContentDocument {
        do {
            return try JSONDecoder().decode(ContentDocument.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw ImportProblem(item: Self.path(context.codingPath), field: key.stringValue, problem: "is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw ImportProblem(item: Self.path(context.codingPath.dropLast()), field: context.codingPath.last?.stringValue ?? "", problem: "has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw ImportProblem(item: Self.path(context.codingPath.dropLast()), field: context.codingPath.last?.stringValue ?? "", problem: "is null")
        } catch {
            throw ImportProblem(item: "document", field: "", problem: "is not valid JSON")
        }
    }

    static func path(_ keys: some Collection<any CodingKey>) -> String {
        let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        return text.isEmpty ? "document" : String(text.drop { $0 == "." })
    }
}

/// One thing wrong with an import: where, which field, what.
public struct ImportProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var item: String
    public var field: String
    public var problem: String

    public init(item: String, field: String, problem: String) {
        self.item = item
        self.field = field
        self.problem = problem
    }

    public var description: String { "\(item) \(field): \(problem)" }
}
