import Foundation
import PostgresClient

/// A request to teach: who asked, for which school, with what note, and what an admin decided.
public struct TeacherRequest: Sendable, Equatable {
    public enum Decision: String, Sendable {
        case approved, refused
    }

    public var id: UUID
    public var username: String
    public var displayName: String
    public var school: String
    public var note: String
    public var createdAt: Date
    public var decision: Decision?
    public var decidedAt: Date?
    /// The requester's language, for the message that tells them the decision.
    public var locale: String?
}

/// What filing a request did.
public enum TeacherRequestFiling: String, Sendable {
    /// A new request waits for an admin.
    case filed
    /// The request already open has the new school and note.
    case updated
    /// The account teaches already: nothing was filed.
    case teaches
}

/// Requests to teach: a student files one (`teacher_request_file`), admins read the queue and
/// decide (`teacher_request_decide`, which makes the account a teacher's and audits it). Row-level
/// security shows a requester only their own requests and admins all of them.
public struct TeacherRequestStore: Sendable {
    public init() {}

    static let columns: SQL = """
        t.id, u.username, u.display_name, t.school, t.note, t.created_at, t.decision, t.decided_at, u.locale
        """

    /// Files the signed-in student's request, or updates the one already open. A school the
    /// database refuses (empty, too long) is a `PostgresError` with `isCheckViolation`.
    public func file(school: String, note: String, _ connection: PostgresConnection) throws -> TeacherRequestFiling {
        let row = try connection.query(("SELECT teacher_request_file(\(school), \(note)) AS outcome" as SQL).prepared()).single()
        guard let filing = TeacherRequestFiling(rawValue: try row.decode("outcome", as: String.self)) else {
            throw PostgresError(kind: .decoding, message: "teacher_request_file returned an outcome this build does not know")
        }
        return filing
    }

    /// The reader's latest request, open or decided.
    public static let latestOfMineStatement: SQL = ("""
        SELECT \(fragment: columns) FROM teacher_requests t JOIN users u ON u.id = t.user_id
        WHERE t.user_id = (SELECT app_user_id()) ORDER BY t.created_at DESC LIMIT 1
        """ as SQL).prepared()

    public func latestOfMine(_ connection: PostgresConnection) throws -> TeacherRequest? {
        try connection.query(Self.latestOfMineStatement).first.map(Self.request)
    }

    /// The open requests, oldest first (admins; anyone else reads only their own).
    public func open(limit: Int, _ connection: PostgresConnection) throws -> [TeacherRequest] {
        try connection.query(("""
            SELECT \(fragment: Self.columns) FROM teacher_requests t JOIN users u ON u.id = t.user_id
            WHERE t.decision IS NULL ORDER BY t.created_at, t.id LIMIT \(limit)
            """ as SQL).prepared()).rows.map(Self.request)
    }

    /// The latest decisions, newest first.
    public func decided(limit: Int, _ connection: PostgresConnection) throws -> [TeacherRequest] {
        try connection.query(("""
            SELECT \(fragment: Self.columns) FROM teacher_requests t JOIN users u ON u.id = t.user_id
            WHERE t.decision IS NOT NULL ORDER BY t.decided_at DESC, t.id LIMIT \(limit)
            """ as SQL).prepared()).rows.map(Self.request)
    }

    /// One request, if the reader may see it.
    public func request(_ id: UUID, _ connection: PostgresConnection) throws -> TeacherRequest? {
        try connection.query(("""
            SELECT \(fragment: Self.columns) FROM teacher_requests t JOIN users u ON u.id = t.user_id WHERE t.id = \(id)
            """ as SQL).prepared()).first.map(Self.request)
    }

    /// An admin's decision, and the message that tells the requester (queued when they have a
    /// verified address). The decision that stands — the first one, if another came before —
    /// or nil for an unknown request.
    public func decide(_ id: UUID, approve: Bool, message: MailDraft?, _ connection: PostgresConnection) throws -> TeacherRequest.Decision? {
        let row = try connection.query(("""
            SELECT teacher_request_decide(\(id), \(approve), \(message?.subject), \(message?.text), \(message?.html)) AS decision
            """ as SQL).prepared()).single()
        return try row.decode("decision", as: String?.self).flatMap(TeacherRequest.Decision.init(rawValue:))
    }

    static func request(_ row: PostgresRow) throws -> TeacherRequest {
        TeacherRequest(
            id: try row.decode("id", as: UUID.self), username: try row.decode("username", as: String.self),
            displayName: try row.decode("display_name", as: String.self), school: try row.decode("school", as: String.self),
            note: try row.decode("note", as: String.self), createdAt: try row.decode("created_at", as: Date.self),
            decision: try row.decode("decision", as: String?.self).flatMap(TeacherRequest.Decision.init(rawValue:)),
            decidedAt: try row.decode("decided_at", as: Date?.self), locale: try row.decode("locale", as: String?.self))
    }
}
