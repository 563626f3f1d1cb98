import Foundation
import PostgresClient

/// How many of a student's review cards fall due on each of their next days, per exam: what
/// the review page lists and charts. Day 0 is the rest of the student's today in their time
/// zone, with everything overdue (what the dashboard calls due today); day 1 is tomorrow.
/// Only cards a review session can ask (published, not kept for mock exams) are counted.
public struct ReviewForecast: Sendable, Equatable {
    /// The cards of one exam falling due on one day.
    public struct Count: Sendable, Equatable {
        public var examID: Int
        public var day: Int
        public var cards: Int

        public init(examID: Int, day: Int, cards: Int) {
            self.examID = examID
            self.day = day
            self.cards = cards
        }
    }

    public var counts: [Count]

    public init(counts: [Count]) { self.counts = counts }

    /// The cards due on each day `0..<days`, all exams together.
    public func perDay(_ days: Int) -> [Int] {
        var totals = Array(repeating: 0, count: days)
        for count in counts where count.day < days { totals[count.day] += count.cards }
        return totals
    }

    /// The cards due on day 0 per exam.
    public var dueToday: [Int: Int] {
        counts.filter { $0.day == 0 }.reduce(into: [:]) { $0[$1.examID, default: 0] += $1.cards }
    }

    /// The reader's cards due before the end of their day `days` from now, grouped by exam and
    /// day, as a statement for `forecast`.
    public static func statement(now: Date, days: Int) -> SQL {
        ("""
        WITH me AS (SELECT u.id, u.time_zone, (\(now)::timestamptz AT TIME ZONE u.time_zone)::date AS today
                    FROM users u WHERE u.id = (SELECT app_user_id()))
        SELECT d.exam_id, greatest((c.due AT TIME ZONE me.time_zone)::date - me.today, 0) AS day, count(*) AS cards
        FROM me JOIN review_cards c ON c.user_id = me.id JOIN questions q ON q.id = c.question_id JOIN domains d ON d.id = q.domain_id
        WHERE q.status = 'published' AND q.deleted_at IS NULL AND NOT q.exam_only
          AND c.due < (me.today + \(days)::int)::timestamp AT TIME ZONE me.time_zone
        GROUP BY 1, 2 ORDER BY 1, 2
        """ as SQL).prepared()
    }

    /// What `statement` returned.
    public static func forecast(_ result: QueryResult) throws -> ReviewForecast {
        ReviewForecast(counts: try result.rows.map { row in
            Count(examID: try row.decode("exam_id", as: Int.self), day: try row.decode("day", as: Int.self), cards: try row.decode("cards", as: Int.self))
        })
    }
}
