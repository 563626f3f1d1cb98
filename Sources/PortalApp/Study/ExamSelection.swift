import ExamData
import Foundation
import PostgresClient
import QuestionEngine

/// What starting a session needs of an exam, the same for every student: its detail (domains,
/// weights, question count) and the questions selection may draw from, for practice and for a
/// mock exam. Every start of the same exam read the same rows (1,250 questions of 7,250, 10 ms
/// of PostgreSQL's time a start, as much as all of that minute's answers), so they are kept per
/// exam by its content version: an edit to the exam is a new version, and so a new read.
struct ExamSelection: Sendable {
    let exam: ExamDetail
    let practice: [Candidate]
    let mock: [Candidate]

    /// The selections of the exams being studied, within a budget of bytes.
    typealias Kept = KeptValues<ExamSelection>

    static func kept(clock: @escaping @Sendable () -> Date) -> Kept {
        // An id, a domain slug and a difficulty: about a hundred bytes a candidate.
        Kept(budget: 16 << 20, maximumAge: 300, patience: 5, clock: clock) { 4_096 + ($0.practice.count + $0.mock.count) * 100 }
    }

    /// The exam's selection as of its current content version; nil when there is no such exam.
    static func current(
        region: String, slug: String, versions: SharedVersions, kept: Kept, _ connection: PostgresConnection
    ) throws -> ExamSelection? {
        let catalog = ExamCatalog(), store = StudyStore()
        guard let version = try versions.exam(ExamAddress(region: region, slug: slug), read: { try catalog.examVersion(region: region, slug: slug, connection) })
        else { return nil }
        struct Removed: Error {}
        do {
            return try kept.value("\(region)|\(slug)|\(version.timeIntervalSince1970)") {
                // Removed since its version was read: nothing to keep.
                guard let exam = try catalog.exam(region: region, slug: slug, connection) else { throw Removed() }
                return ExamSelection(
                    exam: exam, practice: try store.candidates(examID: exam.id, includingExamOnly: false, connection),
                    mock: try store.candidates(examID: exam.id, includingExamOnly: true, connection))
            }
        } catch is Removed {
            return nil
        }
    }
}
