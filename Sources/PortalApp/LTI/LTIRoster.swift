import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import QuestionEngine

/// `GET /teach/classes/:id/roster`: the roster of the LMS course behind a class (Names and Role
/// Provisioning Services), read from the platform with a client-credentials token, each person
/// marked as in the class already (they have launched) or not yet.
struct LTIRoster: Sendable {
    let pages: PageRenderer
    let tokens: PlatformTokens
    let client: HTTPClient

    static let scope = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
    /// Pages of a roster followed at most (a course of thousands is still read whole).
    static let maximumPages = 20

    struct Member {
        var subject: String
        var name: String
        var isTeacher: Bool
        var active: Bool
    }

    struct Page: Encodable {
        struct Row: Encodable {
            var name: String
            var role: String
            var state: String
        }
        var classID: String
        var rows: [Row]
        var hasRows: Bool
        var problem: String?
    }

    func roster(_ request: PortalRequest, _ user: SessionUser, class classID: UUID) throws -> Response {
        let store = LTILaunchStore()
        guard let course = try request.database.transaction({ connection in
            try SchoolStore().taughtClass(id: classID, connection) == nil ? nil : try store.courseRoster(classID: classID, connection)
        }) else {
            throw PageRefusal(.notFound, "lti.roster_none")
        }
        var members: [Member] = [], problem: String?
        do {
            members = try fetch(course.membershipsURL, tokenURL: course.tokenURL, clientID: course.clientID)
        } catch {
            problem = pages.message("lti.roster_unreachable", for: request, ["reason": "\(error)"])
        }
        let joined = try request.database.transaction { try store.joinedSubjects(classID: classID, subjects: members.map(\.subject), $0) }
        let rows = members.sorted { ($0.isTeacher ? 0 : 1, $0.name) < ($1.isTeacher ? 0 : 1, $1.name) }.map {
            Page.Row(
                name: $0.name, role: pages.message($0.isTeacher ? "lti.roster_teacher" : "lti.roster_learner", for: request),
                state: pages.message(!$0.active ? "lti.roster_inactive" : joined.contains($0.subject) ? "lti.roster_joined" : "lti.roster_not_yet", for: request))
        }
        return try pages.privatePage("teach/roster", Page(classID: classID.lowercasedText, rows: rows, hasRows: !rows.isEmpty, problem: problem), request)
    }

    /// Why the platform's roster could not be read.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    private func fetch(_ address: String, tokenURL: String, clientID: String) throws -> [Member] {
        var members: [Member] = [], next: String? = address, pagesRead = 0
        while let page = next, pagesRead < Self.maximumPages {
            let token = try tokens.token(tokenURL: tokenURL, clientID: clientID, scopes: [Self.scope])
            let response = try client.send(
                "GET", page, headers: [("Authorization", "Bearer " + token), ("Accept", "application/vnd.ims.lti-nrps.v2.membershipcontainer+json")])
            if response.status == 401 { tokens.forget(tokenURL: tokenURL, clientID: clientID, scopes: [Self.scope]) }
            guard response.status == 200, case .object(let container)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)),
                  case .array(let list)? = container["members"] else {
                throw Unreadable(description: "the platform answered \(response.status) without a membership container")
            }
            for case .object(let entry) in list {
                guard case .string(let subject)? = entry["user_id"] else { continue }
                var name = subject
                if case .string(let given)? = entry["name"], !given.isEmpty { name = given }
                var roles: [String] = []
                if case .array(let values)? = entry["roles"] { roles = values.compactMap { if case .string(let role) = $0 { role } else { nil } } }
                let isTeacher = LaunchMessage.isTeacher(roles: roles)
                var active = true
                if case .string(let status)? = entry["status"] { active = status == "Active" }
                members.append(Member(subject: subject, name: name, isTeacher: isTeacher, active: active))
            }
            pagesRead += 1
            next = Self.nextPage(response.header("Link"))
        }
        return members
    }

    /// The `rel="next"` address of a `Link` header.
    static func nextPage(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ",") where part.contains("rel=\"next\"") {
            guard let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">"), open < close else { continue }
            return String(part[part.index(after: open)..<close])
        }
        return nil
    }
}
