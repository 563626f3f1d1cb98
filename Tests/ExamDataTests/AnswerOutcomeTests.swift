import Foundation
import PostgresClient
import TestSupport
import Testing

/// The database checks every stored answer itself (`answer_outcome`): held to the same table of
/// cases as the Swift checker and the browser's.
@Suite("Answer checking in SQL", .onTestThreads)
struct AnswerOutcomeTests {
    @Test("each response gets the same verdict and partial credit as in Swift, or the same refusal")
    func table() throws {
        let database = try TestDatabase(migrated: true)
        let connection = try database.appConnection()
        #expect(CheckingCase.all.count >= 15)
        for row in CheckingCase.all {
            do {
                let outcome = try connection.query("""
                    SELECT correct, score FROM answer_outcome(\(row.kind), \(try PostgresJSON(encoding: row.key))::jsonb,
                        \(try PostgresJSON(encoding: row.optionsJSON))::jsonb, \(try PostgresJSON(encoding: row.detailsJSON))::jsonb,
                        \(try PostgresJSON(encoding: row.response))::jsonb)
                    """).single()
                #expect(row.error == nil, "\(row.name): expected \(row.error ?? "") but got a verdict")
                #expect(try outcome.decode("correct", as: Bool.self) == row.correct, "\(row.name)")
                #expect(abs(try outcome.decode("score", as: Double.self) - (row.score ?? -1)) < 1e-9, "\(row.name)")
            } catch let error as PostgresError {
                #expect(error.sqlState == "22023", "\(row.name): \(error)")
                #expect(error.message.hasSuffix("(\(row.error ?? "a verdict"))"), "\(row.name): \(error.message)")
            }
        }
    }
}
