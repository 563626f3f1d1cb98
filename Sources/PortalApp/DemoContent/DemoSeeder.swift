import ExamData
import PostgresClient
import QuestionEngine

/// Loads the demo catalogue. Everything is keyed by natural keys, so a second run adds nothing
/// and changes nothing; it all happens in one transaction, so a failure leaves nothing behind.
public enum DemoSeeder {
    /// What a seeding run did.
    public struct Outcome: Sendable, Equatable {
        public var exams: Int
        public var newQuestions: Int
    }

    /// Seeds through `connection` (the owner role). Every question is checked by the shared
    /// validator first: a generator bug is reported by name, not as a constraint error.
    @discardableResult
    public static func seed(_ connection: PostgresConnection) throws -> Outcome {
        let writer = ContentWriter()
        return try connection.withTransaction { connection in
            var outcome = Outcome(exams: 0, newQuestions: 0)
            for (position, region) in DemoCorpus.regions.enumerated() {
                let regionID = try writer.region(code: region.code, name: region.name, position: position, connection)
                for exam in region.exams {
                    let examID = try writer.exam(
                        regionID: regionID, slug: exam.slug, title: exam.title, description: exam.description,
                        language: exam.language, passMark: exam.passMark, timeLimitSeconds: exam.timeLimitSeconds,
                        questionCount: exam.questionCount, connection)
                    outcome.exams += 1
                    for domain in exam.domains {
                        let domainID = try writer.domain(examID: examID, slug: domain.slug, title: domain.title, weight: domain.weight, connection)
                        let questions = DemoCorpus.questions(exam: exam, domain: domain)
                        for question in questions {
                            if let problem = QuestionValidator.problem(question) {
                                throw SeedError("\(question.sourceKey): \(problem)")
                            }
                        }
                        outcome.newQuestions += try writer.insertQuestions(domainID: domainID, questions, connection)
                    }
                }
            }
            return outcome
        }
    }
}

/// The demo content failed its own checks.
public struct SeedError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension QuestionValidator {
    /// Checks a question about to be stored, through the same rules as raw JSON input.
    static func problem(_ question: NewQuestion) -> String? {
        let options = question.options.map { option -> JSONValue in
            var fields: [String: JSONValue] = ["id": .string(option.id), "text": .string(option.text)]
            if let imageUrl = option.imageUrl { fields["imageUrl"] = .string(imageUrl) }
            if let code = option.code { fields["code"] = .string(code) }
            if let explanation = option.explanation { fields["explanation"] = .string(explanation) }
            return .object(fields)
        }
        return problem(type: question.type.rawValue, options: .array(options), correct: .array(question.correct.map { .number(Double($0)) }))
    }
}
