import Foundation
import HTTPClient
import QuestionEngine
import Synchronization

/// Other parties' public keys (an LMS's or an identity provider's JSON Web Key Set), fetched
/// over HTTPS and kept per address. A token naming a key the set lacks makes the set be fetched
/// again — the party may have rotated — but not more than once in ten seconds, so a stream of
/// made-up key ids cannot turn the portal into a flood of requests. A set is fetched afresh at
/// least hourly.
final class KeySetCache: Sendable {
    private struct Entry {
        var keys: [String: RSAKey]
        var fetchedAt: Date
    }

    private let client: HTTPClient
    private let entries = Mutex<[String: Entry]>([:])
    private let clock: @Sendable () -> Date
    static let refetchPause: TimeInterval = 10
    static let maximumAge: TimeInterval = 3600

    init(client: HTTPClient, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.clock = clock
    }

    /// The keys at one address as a token's check needs them: `key(kid)` fetches when the kid is
    /// unknown (within the limit above); `problem` says why a fetch failed, if one did.
    final class Lookup: @unchecked Sendable {  // one request's thread
        fileprivate let cache: KeySetCache
        fileprivate let address: String
        private(set) var problem: String?

        fileprivate init(cache: KeySetCache, address: String) {
            self.cache = cache
            self.address = address
        }

        func key(_ kid: String) -> RSAKey? {
            do {
                return try cache.key(kid, at: address)
            } catch {
                problem = "\(error)"
                return nil
            }
        }
    }

    func lookup(_ address: String) -> Lookup { Lookup(cache: self, address: address) }

    /// Why a key set could not be used.
    struct FetchError: Error, CustomStringConvertible {
        var description: String
    }

    private func key(_ kid: String, at address: String) throws -> RSAKey? {
        let now = clock()
        let cached = entries.withLock { $0[address] }
        if let cached, now.timeIntervalSince(cached.fetchedAt) < Self.maximumAge {
            if let key = cached.keys[kid] { return key }
            if now.timeIntervalSince(cached.fetchedAt) < Self.refetchPause { return nil }
        }
        let keys = try fetch(address)
        entries.withLock { $0[address] = Entry(keys: keys, fetchedAt: now) }
        return keys[kid]
    }

    /// The RSA signing keys of the set at `address`, by kid (others are left out).
    private func fetch(_ address: String) throws -> [String: RSAKey] {
        let response: HTTPClient.Response
        do {
            response = try client.send("GET", address, headers: [("Accept", "application/json")])
        } catch {
            throw FetchError(description: "the key set at \(address.prefix(200)) could not be fetched: \(error)")
        }
        guard response.status == 200 else { throw FetchError(description: "the key set at \(address.prefix(200)) answered \(response.status)") }
        guard case .object(let set)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)), case .array(let list)? = set["keys"] else {
            throw FetchError(description: "the key set at \(address.prefix(200)) is not a JSON Web Key Set")
        }
        var keys: [String: RSAKey] = [:]
        for case .object(let jwk) in list {
            guard case .string("RSA")? = jwk["kty"], case .string(let kid)? = jwk["kid"], case .string(let n)? = jwk["n"], case .string(let e)? = jwk["e"] else { continue }
            if case .string(let use)? = jwk["use"], use != "sig" { continue }
            if let key = try? RSAKey.publicKey(modulus: n, exponent: e) { keys[kid] = key }
        }
        return keys
    }
}
