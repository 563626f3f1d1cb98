import ExamData
import Foundation
import HTTPServer
import Identifiers

/// One address the portal answers, declared in its feature's folder beside its handler (each
/// folder's `…Routes`): a name, the method and pattern as one string
/// (`"POST /sessions/:id(uuid)/answers"`: `:name` is a segment, `:name(uuid)` one that must be
/// a UUID, matched before any handler runs), the group whose rule the gate applies (who may
/// enter), and the handler. `PortalRouter` registers every feature's routes; the route-rule
/// and forms-sent-twice tests visit each one by its declaration.
struct PortalRoute: Sendable {
    /// What the tests and the route table call it (unique: the route-rule test holds it so).
    let name: String
    let method: HTTPMethod
    /// The router's pattern.
    let pattern: String
    let group: RouteGroup
    /// A request body limit above the server's default: the group's rule is checked from the
    /// head alone before such a body is read.
    let bodyLimit: Int?
    /// The handler, after the gate admitted the request under the group's rule.
    let handle: @Sendable (PortalRequest, RouteParameters) throws -> Response
    /// For a page kept in memory: its kept copy, answered on the event loop when what it was
    /// kept by is known current (nil: the handler runs on a worker).
    let keptAnswer: (@Sendable (Request, RouteParameters) -> Response?)?
    /// For the infrastructure routes: answered without the gate (no cookies, no session).
    let ungated: (@Sendable (Request) throws -> Response)?

    /// A route behind the gate. `address`: the method, one space and the pattern.
    init(
        _ name: String, _ address: String, _ group: RouteGroup, bodyLimit: Int? = nil,
        kept: (@Sendable (Request, RouteParameters) -> Response?)? = nil,
        _ handle: @escaping @Sendable (PortalRequest, RouteParameters) throws -> Response
    ) {
        self.name = name
        (method, pattern) = Self.parse(name, address)
        precondition(group.isGated, "\(name): an ungated group takes an ungated handler")
        (self.group, self.bodyLimit, self.handle, keptAnswer, ungated) = (group, bodyLimit, handle, kept, nil)
    }

    /// An infrastructure route, answered without the gate.
    init(_ name: String, _ address: String, ungated group: RouteGroup, _ answer: @escaping @Sendable (Request) throws -> Response) {
        self.name = name
        (method, pattern) = Self.parse(name, address)
        precondition(!group.isGated, "\(name): a gated group takes a handler of a portal request")
        (self.group, bodyLimit, keptAnswer, ungated) = (group, nil, nil, answer)
        handle = { _, _ in throw HTTPError(.notFound, "There is nothing at this address.") }
    }

    private static func parse(_ name: String, _ address: String) -> (HTTPMethod, String) {
        let parts = address.split(separator: " ", maxSplits: 1).map(String.init)
        // A declaration's own text: wrong only in the source, so it stops start-up at once.
        guard parts.count == 2, let method = HTTPMethod(rawValue: parts[0]), parts[1].hasPrefix("/") else {
            preconditionFailure("route \(name): \"\(address)\" is not \"METHOD /pattern\"")
        }
        return (method, parts[1])
    }
}

/// A matched pattern's parameters, percent-decoded, read by the name the pattern gives them.
struct RouteParameters: Sendable {
    let values: [String: String]

    /// A text parameter the pattern names (the router matched only non-empty ones).
    subscript(name: String) -> String { values[name] ?? "" }

    /// A `:name(uuid)` parameter. The router matched only UUIDs there, so the 404 is for a
    /// pattern declared without its type.
    func uuid(_ name: String) throws -> UUID {
        guard let id = values[name].flatMap(UUID.init(text:)) else { throw HTTPError(.notFound, "There is nothing at this address.") }
        return id
    }

    /// `:region/:exam`.
    var exam: ExamAddress { ExamAddress(region: self["region"], slug: self["exam"]) }
}

/// An exam's address in the catalogue: `/exams/{region}/{slug}`.
struct ExamAddress: Sendable, Hashable {
    var region: String
    var slug: String
}

extension PortalRequest {
    /// The signed-in account the route's group admitted (members, the device API, teachers,
    /// admins).
    func member() throws -> SessionUser {
        // The gate admits only signed-in viewers to these routes; this fails only if it was bypassed.
        guard let user else { throw HTTPError(.internalServerError, "A signed-in route ran without a user.") }
        return user
    }
}
