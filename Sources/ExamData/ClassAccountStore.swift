import Foundation
import PostgresClient

/// Someone a teacher makes an account for: the name shown, the username wanted (made unique by
/// the database with a number), the start code as the card prints it and its hash (the database
/// keeps the printed code for the teacher's eyes for a day, the hash for the first sign-in).
public struct NewClassAccount: Sendable, Equatable {
    public var name: String
    public var username: String
    public var shownCode: String
    public var codeHash: [UInt8]

    public init(name: String, username: String, shownCode: String, codeHash: [UInt8]) {
        self.name = name
        self.username = username
        self.shownCode = shownCode
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

/// One card of a batch of class accounts, as its teacher reads it again.
public struct ClassAccountCard: Sendable, Equatable {
    public var userID: UUID
    public var displayName: String
    public var username: String
    /// The start code while the batch is under a day old; nil after (forgotten).
    public var code: String?
}

/// A batch of class accounts with its cards (`class_account_cards`).
public struct ClassAccountBatch: Sendable, Equatable {
    public var classID: UUID
    public var className: String
    public var madeAt: Date
    public var cards: [ClassAccountCard]
}

/// Accounts a teacher makes for a class (`teacher_make_accounts`): students without e-mail or
/// password, members of the class at once, each with a start code for the first sign-in.
public struct ClassAccountStore: Sendable {
    public init() {}

    /// At most this many at once (the database says so too).
    public static let batchLimit = 100

    /// Makes the accounts as one batch, all or none, in the order given; throws
    /// `ClassAccountRefusal` for a class the caller does not teach or past the day's allowance.
    /// Returns the batch, whose cards `batch(_:)` reads.
    public func make(classID: UUID, _ people: [NewClassAccount], _ connection: PostgresConnection) throws -> UUID {
        let list: [[String: String]] = people.map {
            ["name": $0.name, "username": $0.username, "shown": $0.shownCode, "code": $0.codeHash.map { String(format: "%02x", $0) }.joined()]
        }
        let json = String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
        do {
            return try connection.query("SELECT teacher_make_account_batch(\(classID), \(json)::jsonb) AS batch").single().decode("batch", as: UUID.self)
        } catch {
            throw ClassAccountRefusal(error) ?? error
        }
    }

    /// A batch's cards for the teacher who made it; nil for anyone else or no such batch (or a
    /// batch whose accounts have all left the class).
    public func batch(_ id: UUID, _ connection: PostgresConnection) throws -> ClassAccountBatch? {
        let rows = try connection.query(("SELECT * FROM class_account_cards(\(id))" as SQL).prepared()).rows
        guard let first = rows.first else { return nil }
        return ClassAccountBatch(
            classID: try first.decode("class_id", as: UUID.self), className: try first.decode("class_name", as: String.self),
            madeAt: try first.decode("made_at", as: Date.self),
            cards: try rows.map {
                ClassAccountCard(
                    userID: try $0.decode("user_id", as: UUID.self), displayName: try $0.decode("display_name", as: String.self),
                    username: try $0.decode("username", as: String.self), code: try $0.decode("code", as: String?.self))
            })
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
}
