import PostgresClient
import QuestionEngine

/// An exam's scaled score as its row holds it: `scaled_min`, `scaled_pass` and `scaled_max`,
/// all three or none (the table's CHECK).
extension ScaledScore {
    /// The columns to select, of the exams row `e`.
    static let columns: SQL = "e.scaled_min, e.scaled_pass, e.scaled_max"

    /// The exam's scale from a row with `columns`; nil when it declares none.
    static func read(_ row: PostgresRow) throws -> ScaledScore? {
        guard let min = try row.decode("scaled_min", as: Int?.self), let pass = try row.decode("scaled_pass", as: Int?.self),
              let max = try row.decode("scaled_max", as: Int?.self) else { return nil }
        return ScaledScore(min: min, pass: pass, max: max)
    }
}
