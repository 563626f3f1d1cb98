import Foundation
import PostgresClient

/// What an LTI launch needs of the database: the login's state taken once, the platform's
/// endpoints, the sign-in (account, course class and session made by the database's
/// `lti_sign_in`), deep-linking requests waiting for the instructor, and graded sessions.
public struct LTILaunchStore: Sendable {
    public init() {}

    /// A platform's registration with every endpoint.
    public struct PlatformEndpoints: Sendable, Equatable {
        public var id: Int
        public var issuer: String
        public var clientID: String
        public var authURL: String
        public var tokenURL: String
        public var jwksURL: String
    }

    public func platform(id: Int, _ connection: PostgresConnection) throws -> PlatformEndpoints? {
        try connection.query(("""
            SELECT id, issuer, client_id, auth_url, token_url, jwks_url FROM lti_platforms WHERE id = \(id)
            """ as SQL).prepared()).first.map(Self.endpoints)
    }

    /// Every registered platform with its deployments, oldest first (the admin's page).
    public func platforms(_ connection: PostgresConnection) throws -> [(platform: PlatformEndpoints, deployments: [String])] {
        try connection.query("""
            SELECT p.id, p.issuer, p.client_id, p.auth_url, p.token_url, p.jwks_url,
                   coalesce((SELECT array_agg(d.deployment_id ORDER BY d.created_at, d.deployment_id) FROM lti_deployments d WHERE d.platform_id = p.id), '{}') AS deployments
            FROM lti_platforms p ORDER BY p.created_at, p.id
            """).rows.map { (try Self.endpoints($0), try $0.decode("deployments", as: [String].self)) }
    }

    static func endpoints(_ row: PostgresRow) throws -> PlatformEndpoints {
        PlatformEndpoints(
            id: try row.decode("id", as: Int.self), issuer: try row.decode("issuer", as: String.self), clientID: try row.decode("client_id", as: String.self),
            authURL: try row.decode("auth_url", as: String.self), tokenURL: try row.decode("token_url", as: String.self),
            jwksURL: try row.decode("jwks_url", as: String.self))
    }

    /// What the portal knows of the browser a launch comes from (see `lti_sign_in`).
    public enum Binding: Sendable, Equatable {
        /// The login's cookie came back (the SHA-256 of its value).
        case cookie([UInt8])
        /// No cookie, in a top-level window (where it would have come back).
        case topLevel
        /// No cookie, inside a frame (where a browser may drop it).
        case framed
        /// Inside a frame, the platform's storage held the state (the portal's own page asked it).
        case storage
    }

    /// What the database decided of a launch.
    public enum SignIn: Sendable, Equatable {
        /// Signed in: the user, the course's class, the platform, and the claims the database verified.
        case signedIn(userID: UUID, classID: UUID?, platformID: Int, claims: String)
        /// Nothing spent: ask the platform's storage (its frame's name, at the origin of the
        /// platform's authorisation address) and post again.
        case needsStorage(target: String, authURL: String)
        /// Nothing spent: the platform's key set is being fetched; post again in a moment.
        case keysPending
        /// Refused: the reason (`lti.` + it names the message) and its detail.
        case refused(reason: String, detail: String?)
    }

    /// The launch decided whole by the database (`lti_sign_in`): the state, the browser, the
    /// token's signature and claims; a session opened for `token` when all hold.
    public func signIn(
        state: String, idToken: String, binding: Binding, agent: [UInt8], token: String, csrfToken: String, userAgent: String,
        _ connection: PostgresConnection
    ) throws -> SignIn {
        let (kind, cookie): (String, [UInt8]?) = switch binding {
        case .cookie(let hash): ("cookie", hash)
        case .topLevel: ("top", nil)
        case .framed: ("framed", nil)
        case .storage: ("storage", nil)
        }
        let row = try connection.query(("""
            SELECT outcome, user_id, class_id, platform_id, claims::text AS claims, claims->>'auth_url' AS auth_url, problem FROM lti_sign_in(
                \(state), \(idToken), \(kind), \(cookie.map(PostgresBytes.init)), \(PostgresBytes(agent)), \(token), \(csrfToken), \(userAgent))
            """ as SQL).prepared()).single()
        let problem = try row.decode("problem", as: String?.self)
        switch try row.decode("outcome", as: String.self) {
        case "ok":
            return .signedIn(
                userID: try row.decode("user_id", as: UUID.self), classID: try row.decode("class_id", as: UUID?.self),
                platformID: try row.decode("platform_id", as: Int.self), claims: try row.decode("claims", as: String.self))
        case "needs_storage": return .needsStorage(target: problem ?? "_parent", authURL: try row.decode("auth_url", as: String?.self) ?? "")
        case "keys_pending": return .keysPending
        case let reason: return .refused(reason: reason, detail: problem)
        }
    }

    /// A deep-linking request waiting for the instructor's choice.
    public struct DeepLink: Sendable, Equatable {
        public var platformID: Int
        public var deploymentID: String
        public var returnURL: String
        public var data: String?
        public var acceptsLineItem: Bool
    }

    /// Keeps a deep-linking request for the signed-in instructor under `token` (its hash).
    public func saveDeepLink(
        token: String, platformID: Int, deploymentID: String, returnURL: String, data: String?, acceptsLineItem: Bool, at date: Date,
        _ connection: PostgresConnection
    ) throws {
        try connection.execute(("""
            INSERT INTO lti_deep_links (token_hash, user_id, platform_id, deployment_id, return_url, data, accepts_line_item, created_at)
            VALUES (sha256(convert_to(\(token), 'UTF8')), (SELECT app_user_id()), \(platformID), \(deploymentID), \(returnURL), \(data)::jsonb, \(acceptsLineItem), \(date))
            """ as SQL).prepared())
    }

    /// The unused request `token` names (made within the hour); `use` marks it answered, so a
    /// second answer finds nothing.
    public func deepLink(token: String, use: Bool, _ connection: PostgresConnection) throws -> DeepLink? {
        try connection.query(("""
            SELECT platform_id, deployment_id, return_url, data, accepts_line_item FROM lti_deep_link(\(token), \(use))
            """ as SQL).prepared()).first.map {
            DeepLink(
                platformID: try $0.decode("platform_id", as: Int.self), deploymentID: try $0.decode("deployment_id", as: String.self),
                returnURL: try $0.decode("return_url", as: String.self), data: try $0.decode("data", as: String?.self),
                acceptsLineItem: try $0.decode("accepts_line_item", as: Bool.self))
        }
    }

    /// Marks the signed-in student's new session as graded: its score goes to `lineItemURL`.
    public func addGradedSession(sessionID: UUID, platformID: Int, resourceLinkID: String, lineItemURL: String, subject: String, _ connection: PostgresConnection) throws {
        try connection.execute(("""
            INSERT INTO lti_graded_sessions (session_id, platform_id, resource_link_id, lineitem_url, subject)
            VALUES (\(sessionID), \(platformID), \(resourceLinkID), \(lineItemURL), \(subject))
            """ as SQL).prepared())
    }

    /// The signed-in student's unfinished session from this graded link, to go on with rather
    /// than start another.
    public func unfinishedGradedSession(platformID: Int, resourceLinkID: String, subject: String, _ connection: PostgresConnection) throws -> UUID? {
        try connection.query(("""
            SELECT g.session_id FROM lti_graded_sessions g JOIN study_sessions s ON s.id = g.session_id
            WHERE g.platform_id = \(platformID) AND g.resource_link_id = \(resourceLinkID) AND g.subject = \(subject)
              AND s.finished_at IS NULL AND s.user_id = (SELECT app_user_id())
            ORDER BY s.started_at DESC LIMIT 1
            """ as SQL).prepared()).first?.decode("session_id", as: UUID.self)
    }

    /// Where the roster of the course behind a class the caller teaches is (Names and Role
    /// Provisioning Services), with the platform's token endpoint; nil when the class is not a
    /// course's or its platform offers no roster.
    public func courseRoster(classID: UUID, _ connection: PostgresConnection) throws -> (membershipsURL: String, tokenURL: String, clientID: String)? {
        try connection.query(("""
            SELECT c.memberships_url, p.token_url, p.client_id FROM lti_contexts c JOIN lti_platforms p ON p.id = c.platform_id
            WHERE c.class_id = \(classID) AND c.memberships_url IS NOT NULL
            """ as SQL).prepared()).first.map {
            (try $0.decode("memberships_url", as: String.self), try $0.decode("token_url", as: String.self), try $0.decode("client_id", as: String.self))
        }
    }

    /// Of the roster's users, those who have launched and belong to the class now.
    public func joinedSubjects(classID: UUID, subjects: [String], _ connection: PostgresConnection) throws -> Set<String> {
        Set(try connection.query(("SELECT lti_roster_joined(\(classID), \(subjects)) AS joined" as SQL).prepared()).single().decode("joined", as: [String].self))
    }

    /// Offers the caller's own session to a new window under `token` (its hash kept), bound to
    /// the browser, with where to go; false without a live session.
    public func offerHandoff(token: String, browser: [UInt8], location: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT lti_offer_handoff(\(token), \(PostgresBytes(browser)), \(location)) AS offered" as SQL).prepared())
            .single().decode("offered", as: Bool.self)
    }

    /// Takes a handoff once: its session answers to `newToken` from now on; where to go, or nil.
    public func takeHandoff(token: String, browser: [UInt8], newToken: String, _ connection: PostgresConnection) throws -> String? {
        try connection.query(("SELECT lti_take_handoff(\(token), \(PostgresBytes(browser)), \(newToken)) AS location" as SQL).prepared())
            .single().decode("location", as: String?.self)
    }
}
