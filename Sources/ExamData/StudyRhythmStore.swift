import Foundation
import PostgresClient
import QuestionEngine

/// A holiday a student has set: nothing is due from `startsOn` through `endsOn`.
public struct StudyHoliday: Sendable, Equatable {
    public var id: UUID
    /// `YYYY-MM-DD`, in the student's time zone.
    public var startsOn: String
    public var endsOn: String
    /// Reviews the holiday moved into the week before it, and into the week after, when it was set.
    public var movedBefore: Int
    public var movedAfter: Int
}

/// How a student's reviews are laid out on their calendar: spread or not, their easy days,
/// their study time, their holidays, and whether they have a calendar feed.
public struct StudyRhythm: Sendable, Equatable {
    public var balance: Bool
    /// Monday first.
    public var week: [StudyDayLoad]
    /// `HH:MM`, in the student's time zone.
    public var studyTime: String
    public var timeZone: String
    /// The student's today, `YYYY-MM-DD`.
    public var today: String
    /// Holidays that have not ended yet, the earliest first.
    public var holidays: [StudyHoliday]
    /// When the student's calendar feed was made, if they have one.
    public var calendarFeedSince: Date?
}

/// Why a holiday was refused.
public enum HolidayProblem: Error, Sendable, Equatable {
    /// It ends before it starts, or starts before today.
    case outOfOrder
    /// Longer than `StudyRhythmStore.longestHoliday` days.
    case tooLong
    /// It overlaps a holiday already set.
    case overlaps
    /// Already `StudyRhythmStore.mostHolidays` holidays ahead.
    case tooMany
}

/// The signed-in student's study rhythm (their own row and holidays, by row-level security).
/// Every change that moves reviews reschedules their cards from their history in the database,
/// as a change of retention does.
public struct StudyRhythmStore: Sendable {
    /// Days a holiday may last.
    public static let longestHoliday = 62
    /// Holidays a student may have ahead at once.
    public static let mostHolidays = 10

    public init() {}

    /// The student's rhythm; nil without a signed-in student.
    public func rhythm(_ connection: PostgresConnection) throws -> StudyRhythm? {
        guard let row = try connection.query(("""
            SELECT u.balance_reviews, u.easy_days, to_char(u.study_time, 'HH24:MI') AS study_time, u.time_zone,
                   ((SELECT app_now()) AT TIME ZONE u.time_zone)::date::text AS today,
                   (SELECT f.created_at FROM calendar_feeds f WHERE f.user_id = u.id) AS feed_since
            FROM users u WHERE u.id = (SELECT app_user_id())
            """ as SQL).prepared()).first else { return nil }
        let today = try row.decode("today", as: String.self)
        let holidays = try connection.query(("""
            SELECT id, starts_on::text AS starts_on, ends_on::text AS ends_on, moved_before, moved_after FROM study_holidays
            WHERE user_id = (SELECT app_user_id()) AND ends_on >= \(today)::date ORDER BY starts_on
            """ as SQL).prepared()).rows.map { row in
            StudyHoliday(
                id: try row.decode("id", as: UUID.self), startsOn: try row.decode("starts_on", as: String.self),
                endsOn: try row.decode("ends_on", as: String.self), movedBefore: try row.decode("moved_before", as: Int.self),
                movedAfter: try row.decode("moved_after", as: Int.self))
        }
        return StudyRhythm(
            balance: try row.decode("balance_reviews", as: Bool.self),
            week: StudyDayLoad.week(try row.decode("easy_days", as: String.self)) ?? Array(repeating: .normal, count: 7),
            studyTime: try row.decode("study_time", as: String.self), timeZone: try row.decode("time_zone", as: String.self),
            today: today, holidays: holidays, calendarFeedSince: try row.decode("feed_since", as: Date?.self))
    }

    /// Saves whether reviews are spread, the easy days and the study time; reschedules the
    /// student's cards when the first two changed. `week` must hold a day that is not "none"
    /// and `studyTime` be `HH:MM` (the caller checks both).
    public func save(balance: Bool, week: [StudyDayLoad], studyTime: String, _ connection: PostgresConnection) throws {
        let letters = String(week.map(\.letter))
        let moved = try connection.query(("""
            UPDATE users u SET balance_reviews = \(balance), easy_days = \(letters), study_time = \(studyTime)::time
            FROM (SELECT balance_reviews, easy_days FROM users WHERE id = (SELECT app_user_id())) AS before
            WHERE u.id = (SELECT app_user_id())
            RETURNING (before.balance_reviews, before.easy_days) IS DISTINCT FROM (u.balance_reviews, u.easy_days) AS moved
            """ as SQL).prepared()).first?.decode("moved", as: Bool.self) ?? false
        if moved { _ = try ReviewCardStore().rebuild(connection) }
    }

    /// Sets a holiday (days `YYYY-MM-DD`, checked as dates by the caller) and reschedules the
    /// student's cards around it; counts, and keeps with it, the reviews it moved into the week
    /// before and the week after.
    public func addHoliday(from start: String, through end: String, _ connection: PostgresConnection) throws -> Result<StudyHoliday, HolidayProblem> {
        let checks = try connection.query(("""
            SELECT \(start)::date > \(end)::date OR \(start)::date < ((SELECT app_now()) AT TIME ZONE u.time_zone)::date AS out_of_order,
                   \(end)::date - \(start)::date >= \(Self.longestHoliday) AS too_long,
                   EXISTS (SELECT 1 FROM study_holidays h WHERE h.user_id = u.id AND h.starts_on <= \(end)::date AND h.ends_on >= \(start)::date) AS overlaps,
                   (SELECT count(*) FROM study_holidays h WHERE h.user_id = u.id
                    AND h.ends_on >= ((SELECT app_now()) AT TIME ZONE u.time_zone)::date) >= \(Self.mostHolidays) AS too_many
            FROM users u WHERE u.id = (SELECT app_user_id())
            """ as SQL).prepared()).single()
        if try checks.decode("out_of_order", as: Bool.self) { return .failure(.outOfOrder) }
        if try checks.decode("too_long", as: Bool.self) { return .failure(.tooLong) }
        if try checks.decode("overlaps", as: Bool.self) { return .failure(.overlaps) }
        if try checks.decode("too_many", as: Bool.self) { return .failure(.tooMany) }
        let before = try weeksAround(start, end, connection)
        let id = try connection.query(("""
            INSERT INTO study_holidays (user_id, starts_on, ends_on) VALUES ((SELECT app_user_id()), \(start)::date, \(end)::date) RETURNING id
            """ as SQL).prepared()).single().decode("id", as: UUID.self)
        _ = try ReviewCardStore().rebuild(connection)
        let after = try weeksAround(start, end, connection)
        let holiday = StudyHoliday(
            id: id, startsOn: start, endsOn: end, movedBefore: max(0, after.before - before.before), movedAfter: max(0, after.after - before.after))
        try connection.execute(("""
            UPDATE study_holidays SET moved_before = \(holiday.movedBefore), moved_after = \(holiday.movedAfter) WHERE id = \(id)
            """ as SQL).prepared())
        return .success(holiday)
    }

    /// Cancels a holiday of the student's and reschedules their cards without it; false when
    /// they have no such holiday.
    public func removeHoliday(_ id: UUID, _ connection: PostgresConnection) throws -> Bool {
        let removed = try connection.execute(("DELETE FROM study_holidays WHERE id = \(id) AND user_id = (SELECT app_user_id())" as SQL).prepared())
        if removed > 0 { _ = try ReviewCardStore().rebuild(connection) }
        return removed > 0
    }

    /// The student's reviews due in the seven days before `start` and the seven after `end`.
    func weeksAround(_ start: String, _ end: String, _ connection: PostgresConnection) throws -> (before: Int, after: Int) {
        let row = try connection.query(("""
            SELECT count(*) FILTER (WHERE x.day BETWEEN \(start)::date - 7 AND \(start)::date - 1) AS before,
                   count(*) FILTER (WHERE x.day BETWEEN \(end)::date + 1 AND \(end)::date + 7) AS after
            FROM (SELECT (c.due AT TIME ZONE u.time_zone)::date AS day
                  FROM review_cards c JOIN users u ON u.id = c.user_id WHERE c.user_id = (SELECT app_user_id())) AS x
            """ as SQL).prepared()).single()
        return (try row.decode("before", as: Int.self), try row.decode("after", as: Int.self))
    }

    // MARK: The calendar feed

    /// Gives the student's calendar feed a new secret address (`token`, random, from the
    /// caller); an earlier address stops working.
    public func startCalendarFeed(token: String, _ connection: PostgresConnection) throws {
        try connection.execute(("SELECT calendar_feed_start(\(token))" as SQL).prepared())
    }

    /// Ends the student's calendar feed: its address stops working.
    public func endCalendarFeed(_ connection: PostgresConnection) throws {
        try connection.execute(("DELETE FROM calendar_feeds WHERE user_id = (SELECT app_user_id())" as SQL).prepared())
    }

    /// What the feed at `token`'s address shows; nil when no live feed has that token.
    public func calendarFacts(token: String, days: Int = 30, _ connection: PostgresConnection) throws -> CalendarFacts? {
        guard let row = try connection.query(("SELECT calendar_feed_data(\(token), \(days)) AS facts" as SQL).prepared()).first,
              try row.decode("facts", as: PostgresJSON?.self) != nil else { return nil }
        return try row.decodeJSON("facts", as: CalendarFacts.self)
    }

    /// Keeps `body`, made from facts digested as `madeFor`, for the feed at `token`'s address;
    /// returns when its text last changed.
    public func keepCalendar(token: String, madeFor: String, body: String, _ connection: PostgresConnection) throws -> Date? {
        try connection.query(("SELECT calendar_feed_keep(\(token), \(madeFor), \(body)) AS changed_at" as SQL).prepared())
            .first?.decode("changed_at", as: Date?.self)
    }
}

/// What a student's calendar feed shows, as `calendar_feed_data` gives it.
public struct CalendarFacts: Sendable, Decodable {
    public struct Day: Sendable, Decodable {
        /// `YYYY-MM-DD`.
        public var date: String
        public var reviews: Int
    }
    public struct Exam: Sendable, Decodable {
        public var id: Int
        public var title: String
        public var date: String
    }
    public struct Deadline: Sendable, Decodable {
        public var id: UUID
        public var title: String
        public var `class`: String
        /// Seconds since 1970 (JSON has no time type).
        var dueEpoch: Double
        public var due: Date { Date(timeIntervalSince1970: dueEpoch) }
    }
    public var user: UUID
    public var name: String
    public var locale: String?
    public var timeZone: String
    /// `HH:MM`.
    public var studyTime: String
    public var today: String
    public var days: [Day]
    public var secondsPerReview: Int
    public var exams: [Exam]
    public var deadlines: [Deadline]
    /// A digest of everything above: the kept text is current while it matches `keptFor`.
    public var madeFor: String
    public var kept: String?
    public var keptFor: String?
    /// Seconds since 1970.
    var changedEpoch: Double?
    /// When the kept text last changed.
    public var changedAt: Date? { changedEpoch.map(Date.init(timeIntervalSince1970:)) }
}

/// What a simulation of a student's workload starts from: their cards, their schedule, their
/// calendar from today, and how long they typically take over an answer.
public struct WorkloadInputs: Sendable {
    public var cards: [FSRSCard]
    public var schedule: StudentSchedule
    public var rhythm: StudyRhythm
    /// The start of the student's today.
    public var todayStart: Date
    /// The median of their last 200 answers' times, 20 s before they have any.
    public var secondsPerReview: Int

    /// The student's calendar from today, holidays as days from today.
    public var calendar: StudyCalendar {
        var holidays = Set<Int>()
        let today = LocalDay(rhythm.today)
        for holiday in rhythm.holidays {
            guard let start = today.days(to: holiday.startsOn), let end = today.days(to: holiday.endsOn) else { continue }
            for day in max(0, start)...max(0, end) where end >= 0 { holidays.insert(day) }
        }
        return StudyCalendar(balance: rhythm.balance, week: rhythm.week, firstWeekday: today.weekday ?? 0, holidays: holidays)
    }
}

/// A `YYYY-MM-DD` day, for counting days between two of them.
struct LocalDay {
    let text: String
    init(_ text: String) { self.text = text }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    private static func date(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// Whole days from this day to `other`.
    func days(to other: String) -> Int? {
        guard let start = Self.date(text), let end = Self.date(other) else { return nil }
        return Int((end.timeIntervalSince(start) / 86_400).rounded())
    }

    /// 0 Monday … 6 Sunday.
    var weekday: Int? {
        Self.date(text).map { (Self.utc.component(.weekday, from: $0) + 5) % 7 }
    }
}

extension StudyRhythmStore {
    /// Everything a simulation of the signed-in student's workload needs, in one transaction's reads.
    public func workloadInputs(_ connection: PostgresConnection) throws -> WorkloadInputs? {
        guard let rhythm = try rhythm(connection) else { return nil }
        let cards = try ReviewCardStore().storedCards(connection).values.map(\.card)
        let schedule = try StudentSchedule.of(nil, connection)
        let row = try connection.query(("""
            SELECT (\(rhythm.today)::date::timestamp AT TIME ZONE u.time_zone) AS today_start, answer_seconds_typical(u.id) AS seconds
            FROM users u WHERE u.id = (SELECT app_user_id())
            """ as SQL).prepared()).single()
        return WorkloadInputs(
            cards: cards, schedule: schedule, rhythm: rhythm, todayStart: try row.decode("today_start", as: Date.self),
            secondsPerReview: max(1, try row.decode("seconds", as: Int.self)))
    }
}
