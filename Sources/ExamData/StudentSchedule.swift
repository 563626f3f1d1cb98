import Foundation
import PostgresClient
import QuestionEngine

/// How a student's reviews are scheduled: the retention they aim at, and their own FSRS weights
/// once fitted to their history (the defaults until then).
public struct StudentSchedule: Sendable, Equatable, Decodable {
    /// 0.70–0.97.
    public var desiredRetention: Double
    /// The 21 weights fitted to the student's history; nil while the defaults apply.
    public var weights: [Double]?

    public init(desiredRetention: Double = FSRSParameters().desiredRetention, weights: [Double]? = nil) {
        self.desiredRetention = desiredRetention
        self.weights = weights
    }

    /// The scheduler this student's cards follow.
    public var scheduler: FSRSScheduler {
        FSRSScheduler(parameters: FSRSParameters(weights: weights ?? FSRSParameters.defaultWeights, desiredRetention: desiredRetention))
    }

    /// A JSON expression of the schedule of the user whose id is `user` (an SQL expression),
    /// for a statement that reads it beside other columns (`decoded` reads it back).
    static func expression(user: SQL) -> SQL {
        """
        (SELECT jsonb_build_object('desiredRetention', u.desired_retention, 'weights', f.weights)
         FROM users u LEFT JOIN fsrs_weights f ON f.user_id = u.id WHERE u.id = \(fragment: user))
        """
    }

    /// The schedule in `column` of `row` (the defaults when it is NULL: a guest's session).
    static func decoded(_ row: PostgresRow, column: String) throws -> StudentSchedule? {
        try row.decode(column, as: PostgresJSON?.self) == nil ? nil : try row.decodeJSON(column, as: StudentSchedule.self)
    }

    /// The schedule of `student` (the caller when nil); the defaults for nobody.
    public static func of(_ student: UUID? = nil, _ connection: PostgresConnection) throws -> StudentSchedule {
        let user: SQL = "coalesce(\(student)::uuid, (SELECT app_user_id()))"
        let row = try connection.query(("SELECT \(fragment: expression(user: user)) AS schedule" as SQL).prepared()).first
        return try row.flatMap { try decoded($0, column: "schedule") } ?? StudentSchedule()
    }
}
