import ExamData
import Foundation

/// The catalogue's domains with their exams and question counts (`DomainFacts`), kept for the
/// catalogue version they were read at: a dashboard joins a student's own figures to them in
/// memory instead of counting 5,000 questions for every reader.
final class DomainFactsCache: @unchecked Sendable {  // `kept` only under `lock`
    private let lock = ReadWriteLock()
    private var kept: (version: Date, facts: [Int: DomainFacts])?

    /// The facts as of `version`, read with `read` when what is kept is older.
    func facts(version: Date, read: () throws -> [DomainFacts]) throws -> [Int: DomainFacts] {
        if let kept = lock.reading({ kept }), kept.version == version { return kept.facts }
        let facts = Dictionary(try read().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        lock.writing { kept = (version, facts) }
        return facts
    }
}
