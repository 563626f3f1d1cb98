import Foundation
import PostgresClient

/// An invitation to teach as the admins' list shows it.
public struct TeacherInvitation: Sendable, Equatable {
    public var id: UUID
    public var school: String
    public var createdAt: Date
    public var expiresAt: Date
    public var usesLeft: Int
    public var revoked: Bool
}

/// Where an invitation stands for someone holding its link.
public enum InvitationState: String, Sendable {
    case open, expired, used, revoked
    /// For an acceptance: it worked, no invitation has that token, or the account teaches already.
    case accepted, unknown, teaches
}

/// Invitations to teach: admins make, list and revoke them (row-level security); someone holding
/// a link reads what it names and, registered through it, becomes a teacher — the database checks
/// the token, its expiry and its count (`teacher_invitation_look`, `teacher_invitation_accept`).
public struct TeacherInvitationStore: Sendable {
    public init() {}

    /// A new invitation whose token has `tokenHash` (SHA-256; the token itself is shown once).
    public func create(school: String, tokenHash: [UInt8], expiresAt: Date, uses: Int, at date: Date, _ connection: PostgresConnection) throws -> UUID {
        try connection.query(("""
            INSERT INTO teacher_invitations (token_hash, school, created_by, created_at, expires_at, uses_left)
            VALUES (\(PostgresBytes(tokenHash)), \(school), (SELECT app_user_id()), \(date), \(expiresAt), \(uses)) RETURNING id
            """ as SQL).prepared()).single().decode("id", as: UUID.self)
    }

    /// Every invitation, newest first (admins).
    public func invitations(_ connection: PostgresConnection) throws -> [TeacherInvitation] {
        try connection.query(("""
            SELECT id, school, created_at, expires_at, uses_left, revoked_at IS NOT NULL AS revoked FROM teacher_invitations
            ORDER BY created_at DESC, id LIMIT 100
            """ as SQL).prepared()).rows.map { row in
            TeacherInvitation(
                id: try row.decode("id", as: UUID.self), school: try row.decode("school", as: String.self),
                createdAt: try row.decode("created_at", as: Date.self), expiresAt: try row.decode("expires_at", as: Date.self),
                usesLeft: try row.decode("uses_left", as: Int.self), revoked: try row.decode("revoked", as: Bool.self))
        }
    }

    /// Revokes one; false when there is no such invitation still standing.
    public func revoke(_ id: UUID, at date: Date, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute(("UPDATE teacher_invitations SET revoked_at = \(date) WHERE id = \(id) AND revoked_at IS NULL" as SQL).prepared()) == 1
    }

    /// The school a token invites to and where the invitation stands; nil for no invitation.
    public func look(token: String, _ connection: PostgresConnection) throws -> (school: String, state: InvitationState)? {
        guard let row = try connection.query(("SELECT school, state FROM teacher_invitation_look(\(token))" as SQL).prepared()).first,
              let state = InvitationState(rawValue: try row.decode("state", as: String.self)) else { return nil }
        return (try row.decode("school", as: String.self), state)
    }

    /// Makes the signed-in student a teacher through the invitation; what came of it.
    public func accept(token: String, _ connection: PostgresConnection) throws -> InvitationState {
        let text = try connection.query(("SELECT teacher_invitation_accept(\(token)) AS outcome" as SQL).prepared()).single().decode("outcome", as: String.self)
        return InvitationState(rawValue: text) ?? .unknown
    }
}
