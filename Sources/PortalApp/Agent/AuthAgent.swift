import ExamData
import Foundation
import HTTPClient
import HTTPServer
import MailClient
import PostgresClient
import QuestionEngine
import Synchronization
import TemplateEngine
import WebToken

/// `portal auth-agent`: the one process that reaches other parties for sign-ins, connected as
/// portal_agent (`AUTH_AGENT_DATABASE_URL`, never given to `portal serve`). It keeps the LMSs'
/// and identity providers' key sets in the database — fetched when registered, hourly, and
/// when a token names a key a set lacks (at most every ten seconds; a failure waits a minute) —
/// and it exchanges single sign-on codes for tokens, with the client secret only it may read or
/// with a client assertion signed by the tool's key. The database's sign-in functions verify
/// every token against these key sets themselves; the agent only fetches.
///
/// It is also the one process that sends mail (`MailSender`), since a message may carry a
/// link's token that only portal_agent may read, and that sends the study reminders due each
/// minute: by e-mail through that outbox, and by Web Push (`PushSender`, with the VAPID key only
/// portal_agent reads).
///
/// Nothing here holds a request: the server asks with a notice (`key_sets`, `sso_exchanges`,
/// `mail_outbox`) and answers the browser at once; its page asks again a moment later.
public final class AuthAgent: @unchecked Sendable {  // `loop` is set once, before start
    private let database: ConnectionPool
    private let client: HTTPClient
    private let events: DatabaseEvents
    private let clock: @Sendable () -> Date
    private var loop: BackgroundLoop?
    private let mail: MailSender?
    /// Reminders are worded in each student's language from the catalogue (nil without mail).
    private let wording: MailWording?
    /// Reminders on installed sites (nil without the templates to word them).
    private let push: PushSender?
    /// When reminders were last looked for: once a minute is soon enough for a study time.
    private let lastDigests = Mutex<Date>(.distantPast)

    /// `databaseURL` connects as portal_agent, directly (it listens for notices). `mail`: the
    /// mail server and the origin links in messages point to, when the portal sends mail.
    /// `templatesDirectory`: the catalogue study reminders are worded from (none without it).
    public init(
        databaseURL: String, overrides: [String: String] = [:], outbound: HTTPClient.Configuration, mail: (server: MailServer, linkOrigin: String)? = nil,
        templatesDirectory: String? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        database = ConnectionPool(.init(url: databaseURL, overrides: overrides, maxConnections: 2, checkoutTimeout: .seconds(5), naming: .unnamed))
        client = HTTPClient(configuration: outbound)
        events = DatabaseEvents(url: databaseURL, overrides: overrides, channels: ["key_sets", "sso_exchanges", "mail_outbox"])
        self.clock = clock
        let database = self.database
        self.mail = mail.map {
            MailSender(
                database: database, client: SMTPClient(server: $0.server, trustedCertificates: outbound.trustedCertificates), linkOrigin: $0.linkOrigin,
                clock: clock)
        }
        let pages = templatesDirectory.flatMap { directory -> PageRenderer? in
            do {
                let templates = try TemplateSet(directory: directory, mode: .production)
                return PageRenderer(templates: templates, clock: clock, fragments: FragmentCache(clock: clock))
            } catch {
                AuthAgent.log("auth-agent: no reminders: the templates could not be read: \(error)")
                return nil
            }
        }
        wording = mail == nil ? nil : pages.map(MailWording.init(pages:))
        let contact = (mail?.linkOrigin).flatMap { $0.hasPrefix("https://") ? $0 : nil }
        let outboundClient = client
        push = pages.map { PushSender(database: database, client: outboundClient, pages: $0, contact: contact, clock: clock) }
    }

    /// Works on a thread of its own: every five seconds, and at once when the server asks.
    public func start() {
        let loop = BackgroundLoop(name: "auth-agent", interval: 5) { [self] in
            _ = runOnce()
            if clock().timeIntervalSince(lastDigests.withLock { $0 }) >= 60 {
                _ = queueDigests()
                _ = sendPushes()
            }
            _ = sendMail()
        }
        self.loop = loop
        events.subscribe { _ in loop.wake() }
        events.onReset { listening in if listening { loop.wake() } }
        loop.start()
        events.start()
    }

    public func stop() {
        events.stop()
        loop?.stop()
    }

    /// One round: the key sets due fetched, the codes waiting exchanged; how many of each.
    @discardableResult
    public func runOnce() -> (keySets: Int, exchanges: Int) {
        var fetched = 0, exchanged = 0
        do {
            for uri in try database.withConnection({ try AuthAgentStore().dueKeySets(limit: 20, $0) }) {
                refresh(uri)
                fetched += 1
            }
            while true {
                let due = try database.withConnection { try AuthAgentStore().dueExchanges(limit: 20, $0) }
                if due.isEmpty { break }
                for exchange in due {
                    answer(exchange)
                    exchanged += 1
                }
            }
        } catch {
            Self.log("auth-agent: the database could not be reached: \(error)")
        }
        return (fetched, exchanged)
    }

    /// Words and queues the reminders due now, when the portal sends mail; how many.
    @discardableResult
    public func queueDigests() -> Int {
        lastDigests.withLock { $0 = clock() }
        guard let mail, let wording else { return 0 }
        return mail.queueDigests(wording: wording)
    }

    /// Sends the push reminders due now; how many push services accepted.
    @discardableResult
    public func sendPushes() -> Int { push?.sendDue() ?? 0 }

    /// Sends the messages due now, when the portal sends mail: how many went and how many wait.
    @discardableResult
    public func sendMail() -> (sent: Int, failed: Int) {
        mail?.sendDue() ?? (0, 0)
    }

    /// Why another party's answer could not be used.
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Key sets

    private func refresh(_ uri: String) {
        let store = AuthAgentStore()
        do {
            let response = try client.send("GET", uri, headers: [("Accept", "application/json")])
            guard response.status == 200 else { throw Refused(description: "the key set at \(uri.prefix(200)) answered \(response.status)") }
            guard case .object(let set)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)), case .array? = set["keys"] else {
                throw Refused(description: "\(uri.prefix(200)) is not a JSON Web Key Set")
            }
            let stored = try database.withConnection { try store.store(keySet: String(decoding: response.body, as: UTF8.self), at: uri, $0) }
            if stored == 0 { Self.log("auth-agent: the key set at \(uri.prefix(200)) holds no RSA signing key") }
        } catch {
            if let failure = error as? ClientError { Self.log("auth-agent: \(failure.detail)") }
            try? database.withConnection { try store.keySetFailed(uri, problem: "\(error)", $0) }
        }
    }

    // MARK: Single sign-on

    /// Exchanges one code and keeps what came back (the token or why there is none).
    private func answer(_ exchange: AuthAgentStore.Exchange) {
        let store = AuthAgentStore()
        var idToken: String?, problem: String?
        do {
            idToken = try token(for: exchange)
        } catch {
            if let failure = error as? ClientError { Self.log("auth-agent: \(failure.detail)") }
            problem = "\(error)"
        }
        do {
            try database.withConnection { try store.answer(exchange, idToken: idToken, problem: problem, $0) }
        } catch {
            Self.log("auth-agent: an exchange's answer could not be kept: \(error)")
        }
    }

    /// The id_token the provider's token endpoint gives for the code.
    private func token(for exchange: AuthAgentStore.Exchange) throws -> String {
        guard let credentials = try database.withConnection({ try AuthAgentStore().credentials(providerID: exchange.providerID, $0) }) else {
            throw Refused(description: "the identity provider is no longer registered")
        }
        var fields = [
            ("grant_type", "authorization_code"), ("code", exchange.code), ("redirect_uri", exchange.redirectURI), ("client_id", credentials.clientID),
            ("code_verifier", exchange.verifier),
        ]
        if let secret = credentials.clientSecret {
            fields.append(("client_secret", secret))
        } else {
            // private_key_jwt (RFC 7523): the tool's own key says who the portal is.
            let signing = try database.withConnection { try LTIKeys.signingKey($0) }
            let now = clock().timeIntervalSince1970.rounded(.down)
            let assertion = try WebToken.sign([
                "iss": .string(credentials.clientID), "sub": .string(credentials.clientID), "aud": .string(credentials.tokenEndpoint),
                "iat": .number(now), "exp": .number(now + 300), "jti": .string(Base64URL.encode(Crypto.randomBytes(16))),
            ], key: signing.key, kid: signing.kid)
            fields += [("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"), ("client_assertion", assertion)]
        }
        let response = try client.send(
            "POST", credentials.tokenEndpoint, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Array(FormFields(fields: fields.map { (name: $0.0, value: $0.1) }).urlEncoded.utf8))
        guard case .object(let answer)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)) else {
            throw Refused(description: "the token endpoint answered \(response.status) without JSON")
        }
        guard response.status == 200, case .string(let idToken)? = answer["id_token"], !idToken.isEmpty else {
            var reason = "the token endpoint answered \(response.status)"
            if case .string(let error)? = answer["error"] { reason += ": " + String(error.prefix(200)) }
            throw Refused(description: reason)
        }
        return idToken
    }

    static func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
