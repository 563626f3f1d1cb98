import Foundation
import PostgresClient

/// The settings page as one pipelined read: the account's settings, its sign-ins on other
/// devices, the recall it measured, the single sign-on providers and those it is linked to,
/// whether it may appear on public leaderboards, and its e-mail address. Every statement is
/// addressed by the caller (`app_user_id()`), so none waits for another's answer.
public struct SettingsReading: Sendable {
    public var account: AccountSettings
    /// The account's sign-ins, newest activity first.
    public var sessions: [SessionSummary]
    /// The reviews of the last `measuredDays` days made a day or more after the previous answer
    /// to the same question: how many, and how many were recalled.
    public var measured: (recalled: Int, reviews: Int)
    public var providers: [SSOStore.Provider]
    /// The issuers the account is linked to (single sign-on only).
    public var linkedIssuers: Set<String>
    /// Whether the account may appear on public leaderboards at all (a class account only when
    /// its teacher allows).
    public var publicBoardAllowed: Bool
    /// The account was made by a teacher (and so holds no e-mail).
    public var madeByTeacher: Bool
    public var email: (email: String, verifiedAt: Date)?

    /// The days the measured recall looks back over.
    public static let measuredDays = 30

    /// The statements, in the order `init` reads their results.
    public static func statements(now: Date) -> [SQL] {
        [AccountStore.settingsStatement, sessionsStatement, measuredStatement(now: now), SSOStore.providersStatement, linkedStatement,
         ("SELECT my_public_board_allowed() AS allowed, my_account_made_by_teacher() AS made" as SQL).prepared(), EmailAddressStore.currentStatement]
    }

    /// The page from what `statements` returned; nil when nobody is signed in.
    public init?(_ results: [QueryResult]) throws {
        guard results.count == 7, let account = try AccountStore.settings(results[0]) else { return nil }
        self.account = account
        sessions = try results[1].rows.map { row in
            SessionSummary(
                id: try row.decode("id", as: UUID.self), createdAt: try row.decode("created_at", as: Date.self),
                lastSeenAt: try row.decode("last_seen_at", as: Date.self), userAgent: try row.decode("user_agent", as: String.self))
        }
        let measured = try results[2].single()
        self.measured = (try measured.decode("recalled", as: Int.self), try measured.decode("reviews", as: Int.self))
        providers = try results[3].rows.map(SSOStore.provider)
        linkedIssuers = Set(try results[4].rows.map { try $0.decode("issuer", as: String.self) })
        let flags = try results[5].single()
        publicBoardAllowed = try flags.decode("allowed", as: Bool?.self) ?? false
        madeByTeacher = try flags.decode("made", as: Bool?.self) ?? false
        email = try EmailAddressStore.current(results[6])
    }

    private static let sessionsStatement: SQL = ("""
        SELECT id, created_at, last_seen_at, user_agent FROM auth_sessions WHERE user_id = (SELECT app_user_id()) ORDER BY last_seen_at DESC
        """ as SQL).prepared()

    private static func measuredStatement(now: Date) -> SQL {
        ("""
            SELECT count(*) FILTER (WHERE a.correct) AS recalled, count(*) AS reviews
            FROM (SELECT correct, answered_at,
                         lag(answered_at) OVER (PARTITION BY question_id ORDER BY answered_at) AS previous
                  FROM answers WHERE user_id = (SELECT app_user_id()) AND rating IS NOT NULL) AS a
            WHERE a.previous IS NOT NULL AND a.answered_at - a.previous >= interval '1 day'
              AND a.answered_at >= \(now)::timestamptz - make_interval(days => \(measuredDays)::int)
            """ as SQL).prepared()
    }

    private static let linkedStatement: SQL = ("""
        SELECT issuer FROM external_identities WHERE kind = 'sso' AND user_id = (SELECT app_user_id()) ORDER BY issuer
        """ as SQL).prepared()
}
