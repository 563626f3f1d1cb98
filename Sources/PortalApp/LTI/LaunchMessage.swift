import Foundation
import QuestionEngine

/// An LTI 1.3 launch's id_token read into what the portal acts on: the message's kind and what
/// it opens, the course, the services. The claims every message must carry (version, message
/// type, deployment, user) are looked at here only to refuse early with a clear page; who
/// signed it, for whom, when and for which login is the database's to decide (`lti_sign_in`),
/// from the same token, before anyone is signed in.
struct LaunchMessage: Sendable {
    enum Kind: Sendable, Equatable {
        case resourceLink(id: String, title: String?, targetLinkURI: String)
        /// `data`: the platform's `data` claim as JSON text, whatever value it is, to be returned as it came.
        case deepLinking(returnURL: String, data: String?, acceptsLineItem: Bool)
    }

    /// Nil for a message the portal does not offer (which the database refuses).
    var kind: Kind?
    var deploymentID: String
    var subject: String
    var name: String
    var isTeacher: Bool
    var context: (id: String, title: String?)?
    /// Assignment and Grade Services: the resource link's own line item, when it is graded and
    /// the platform lets the tool post scores.
    var lineItemURL: String?
    /// Names and Role Provisioning Services: where the course's roster is.
    var membershipsURL: String?
    /// The resource link's title, when the platform gives one.
    var resourceTitle: String? {
        if case .resourceLink(_, let title, _) = kind { return title }
        return nil
    }

    static let lti = "https://purl.imsglobal.org/spec/lti/claim/"
    static let gradeServices = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
    static let scoreScope = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
    static let rosterService = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
    static let deepLinkingSettings = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
    /// Roles (the part after `#`) that make a teacher here; an LMS administrator is one too,
    /// never an admin of the portal.
    static let teacherRoles: Set<String> = ["Instructor", "TeachingAssistant", "ContentDeveloper", "Administrator"]

    /// Whether LTI roles (full URIs or short names) make a teacher here.
    static func isTeacher(roles: [String]) -> Bool {
        roles.contains { role in teacherRoles.contains(String(role.split(separator: "#").last ?? Substring(role))) }
    }

    /// A refusal: the message key (under `lti.`) and its arguments.
    struct Refusal: Error, Equatable {
        var key: String
        var arguments: [String: String] = [:]
    }

    /// Reads a launch's claims (as the token carries them); refuses only what must be refused
    /// before anyone is signed in and that the database does not judge: a resource link without
    /// its link or target, a deep-linking request without its settings.
    init(claims: [String: JSONValue]) throws(Refusal) {
        func text(_ value: JSONValue?) -> String? {
            if case .string(let text)? = value, !text.isEmpty { return text }
            return nil
        }
        func object(_ name: String) -> [String: JSONValue]? {
            if case .object(let object)? = claims[name] { return object }
            return nil
        }
        // The version, the deployment, the user and the message's type are the database's to
        // refuse (with the signature first); here they are only read.
        deploymentID = text(claims[Self.lti + "deployment_id"]) ?? ""
        subject = text(claims["sub"]) ?? ""
        let given = [text(claims["given_name"]), text(claims["family_name"])].compactMap { $0 }.joined(separator: " ")
        name = String((text(claims["name"]) ?? given).trimmingCharacters(in: .whitespacesAndNewlines).prefix(80))
        var roles: [String] = []
        if case .array(let list)? = claims[Self.lti + "roles"] { roles = list.compactMap { text($0) } }
        isTeacher = Self.isTeacher(roles: roles)
        if let context = object(Self.lti + "context"), let id = text(context["id"]), id.utf8.count <= 255 {
            self.context = (id, text(context["title"]) ?? text(context["label"]))
        }
        if let roster = object(Self.rosterService), let url = text(roster["context_memberships_url"]) { membershipsURL = url }
        switch text(claims[Self.lti + "message_type"]) {
        case "LtiResourceLinkRequest":
            guard let link = object(Self.lti + "resource_link"), let id = text(link["id"]), id.utf8.count <= 255 else {
                throw Refusal(key: "missing_claim", arguments: ["claim": "resource_link"])
            }
            guard let target = text(claims[Self.lti + "target_link_uri"]) else { throw Refusal(key: "missing_claim", arguments: ["claim": "target_link_uri"]) }
            kind = .resourceLink(id: id, title: text(link["title"]), targetLinkURI: target)
            if let grades = object(Self.gradeServices), let item = text(grades["lineitem"]),
               case .array(let scopes)? = grades["scope"], scopes.contains(.string(Self.scoreScope)) {
                lineItemURL = item
            }
        case "LtiDeepLinkingRequest":
            guard let settings = object(Self.deepLinkingSettings), let returnURL = text(settings["deep_link_return_url"]) else {
                throw Refusal(key: "missing_claim", arguments: ["claim": "deep_linking_settings"])
            }
            if case .array(let types)? = settings["accept_types"], !types.contains(.string("ltiResourceLink")) { throw Refusal(key: "deep_link_types") }
            var acceptsLineItem = true
            if case .bool(let accepts)? = settings["accept_lineitem"] { acceptsLineItem = accepts }
            let data = settings["data"].flatMap { value in (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } }
            guard (data?.utf8.count ?? 0) <= 4000 else { throw Refusal(key: "missing_claim", arguments: ["claim": "deep_linking_settings.data (at most 4,000 bytes)"]) }
            kind = .deepLinking(returnURL: returnURL, data: data, acceptsLineItem: acceptsLineItem)
        default:
            kind = nil
        }
    }
}
