import Foundation
import PostgresClient

/// Someone a teacher makes an account for: the name shown, the username wanted (made unique by
/// the database with a number) and the start code's hash (the code itself is printed once).
public struct NewClassAccount: Sendable, Equatable {
    public var name: String
    public var username: String
    public var codeHash: [UInt8]

    public init(name: String, username: String, codeHash: [UInt8]) {
        self.name = name
        self.username = username
        self.codeHash = codeHash
    }
}

/// Why the database made no accounts.
public enum ClassAccountRefusal: Error, Sendable, Equatable {
    /// The class is not one the caller teaches (or there is no such class).
    case notYourClass
    /// The teacher made as many accounts today as a day allows.
    case dailyLimit

    /// The refusal a database error stands for; nil for every other failure.
    init?(_ error: any Error) {
        guard let error = error as? PostgresError else { return nil }
        switch error.sqlState {
        case "42501": self = .notYourClass
        case "54000": self = .dailyLimit
        default: return nil
        }
    }
}

/// An account the database made.
public struct MadeAccount: Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var displayName: String
}

/// Accounts a teacher makes for a class (`teacher_make_accounts`): students without e-mail or
/// password, members of the class at once, each with a start code for the first sign-in.
public struct ClassAccountStore: Sendable {
    public init() {}

    /// At most this many at once (the database says so too).
    public static let batchLimit = 100

    /// Makes the accounts, all or none, in the order given; throws `ClassAccountRefusal` for a
    /// class the caller does not teach or past the day's allowance.
    public func make(classID: UUID, _ people: [NewClassAccount], _ connection: PostgresConnection) throws -> [MadeAccount] {
        let list: [[String: String]] = people.map {
            ["name": $0.name, "username": $0.username, "code": $0.codeHash.map { String(format: "%02x", $0) }.joined()]
        }
        let json = String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
        do {
            return try connection.query("SELECT user_id, username, display_name FROM teacher_make_accounts(\(classID), \(json)::jsonb)").rows.map { row in
                MadeAccount(
                    id: try row.decode("user_id", as: UUID.self), username: try row.decode("username", as: String.self),
                    displayName: try row.decode("display_name", as: String.self))
            }
        } catch {
            throw ClassAccountRefusal(error) ?? error
        }
    }
}

/// Public leaderboards and the accounts a teacher made: they appear there only where the
/// teacher allows it for their class (`public_board_allowed`, in the leaderboard's policy).
extension ClassAccountStore {
    /// Whether the class allows its teacher-made accounts on public leaderboards; nil for a
    /// class the caller does not teach.
    public func publicBoards(classID: UUID, _ connection: PostgresConnection) throws -> Bool? {
        try connection.query("SELECT public_boards FROM classes WHERE id = \(classID) AND teacher_id = app_user_id()").first?
            .decode("public_boards", as: Bool.self)
    }

    /// Allows or stops it; whether the class is one the caller teaches.
    public func setPublicBoards(classID: UUID, allowed: Bool, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("UPDATE classes SET public_boards = \(allowed) WHERE id = \(classID) AND teacher_id = app_user_id() RETURNING id").first != nil
    }

    /// Whether the signed-in account may appear on public leaderboards at all.
    public func publicBoardAllowed(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT my_public_board_allowed() AS allowed").first?.decode("allowed", as: Bool.self) ?? false
    }
}
