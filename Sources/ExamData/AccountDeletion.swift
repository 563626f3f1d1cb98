import Foundation
import PostgresClient

/// What deleting one's own account came to (`auth_delete_own_account`).
public enum DeletionOutcome: String, Sendable, Equatable {
    case deleted
    /// The password's proof failed, or the sign-in is not fresh: nothing changed.
    case wrong
    /// Nobody is signed in.
    case unknown
}

/// Deleting an account (GDPR article 17), decided and done by the database: the person's data
/// erased, their answers kept only as anonymous rows, their name taken out of the audit log,
/// an audit entry without personal data. The caller proves it is them (the password's proof, or
/// a sign-in under ten minutes old for an account without one); an admin deletes on request.
public struct AccountDeletion: Sendable {
    public init() {}

    /// How the signed-in caller confirms: with a password, or by a fresh sign-in; nil for nobody.
    public func confirmation(_ connection: PostgresConnection) throws -> (hasPassword: Bool, freshSignIn: Bool)? {
        guard let row = try connection.query("SELECT has_password, fresh_sign_in FROM auth_deletion_confirmation()").first else { return nil }
        return (try row.decode("has_password", as: Bool.self), try row.decode("fresh_sign_in", as: Bool.self))
    }

    /// Deletes the caller's account: `attempt` and `proof` from a reserved sign-in attempt with
    /// their own username when they have a password (nil otherwise).
    public func deleteOwn(attempt: UUID?, proof: [UInt8]?, _ connection: PostgresConnection) throws -> DeletionOutcome {
        let answer = try connection.query("SELECT auth_delete_own_account(\(attempt), \(proof.map(PostgresBytes.init))) AS outcome").first?
            .decode("outcome", as: String.self)
        return answer.flatMap(DeletionOutcome.init(rawValue:)) ?? .unknown
    }

    /// An admin deletes another account on its owner's request; whether one was deleted.
    public func deleteByAdmin(userID: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT admin_delete_account(\(userID)) AS deleted").first?.decode("deleted", as: Bool.self) ?? false
    }
}
