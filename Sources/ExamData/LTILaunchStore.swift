import Foundation
import PostgresClient

/// What an LTI launch needs of the database: the login's state taken once, the platform's
/// endpoints, the sign-in (account, course class and session made by the database's
/// `lti_sign_in`), deep-linking requests waiting for the instructor, and graded sessions.
public struct LTILaunchStore: Sendable {
    public init() {}

    /// A login's state as the launch finds it.
    public enum StateOutcome: Sendable, Equatable {
        case taken(platformID: Int, nonce: String, targetLinkURI: String)
        /// Never issued, used already, older than ten minutes, begun in another browser.
        case unknown, used, expired, otherBrowser
    }

    /// Takes the state once (any attempt spends it).
    public func takeState(_ state: String, browser: [UInt8], _ connection: PostgresConnection) throws -> StateOutcome {
        let row = try connection.query(("""
            SELECT outcome, platform_id, nonce, target_link_uri FROM lti_take_state(\(state), \(PostgresBytes(browser)))
            """ as SQL).prepared()).single()
        switch try row.decode("outcome", as: String.self) {
        case "ok":
            return .taken(
                platformID: try row.decode("platform_id", as: Int.self), nonce: try row.decode("nonce", as: String.self),
                targetLinkURI: try row.decode("target_link_uri", as: String.self))
        case "used": return .used
        case "expired": return .expired
        case "other_browser": return .otherBrowser
        default: return .unknown
        }
    }

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

    /// Who the launch is for, as the checked id_token says.
    public struct Launcher: Sendable {
        public var deploymentID: String
        public var subject: String
        public var name: String
        public var isTeacher: Bool
        public var contextID: String?
        public var contextTitle: String?
        public var membershipsURL: String?

        public init(deploymentID: String, subject: String, name: String, isTeacher: Bool, contextID: String?, contextTitle: String?, membershipsURL: String?) {
            self.deploymentID = deploymentID
            self.subject = subject
            self.name = name
            self.isTeacher = isTeacher
            self.contextID = contextID
            self.contextTitle = contextTitle
            self.membershipsURL = membershipsURL
        }
    }

    public enum SignIn: Sendable, Equatable {
        case signedIn(userID: UUID, classID: UUID?)
        case noState, unknownDeployment, disabled
    }

    /// Signs the launcher in with the session of `token` (see `lti_sign_in`), for the login of
    /// `state` taken moments ago.
    public func signIn(state: String, _ launcher: Launcher, token: String, csrfToken: String, userAgent: String, _ connection: PostgresConnection) throws -> SignIn {
        let row = try connection.query(("""
            SELECT outcome, user_id, class_id FROM lti_sign_in(
                \(state), \(launcher.deploymentID), \(launcher.subject), \(launcher.name), \(launcher.isTeacher), \(launcher.contextID),
                \(launcher.contextTitle), \(launcher.membershipsURL), \(token), \(csrfToken), \(userAgent))
            """ as SQL).prepared()).single()
        switch try row.decode("outcome", as: String.self) {
        case "ok": return .signedIn(userID: try row.decode("user_id", as: UUID.self), classID: try row.decode("class_id", as: UUID?.self))
        case "unknown_deployment": return .unknownDeployment
        case "disabled": return .disabled
        default: return .noState
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
            VALUES (sha256(convert_to(\(token), 'UTF8')), (SELECT app_user_id()), \(platformID), \(deploymentID), \(returnURL), \(data), \(acceptsLineItem), \(date))
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
