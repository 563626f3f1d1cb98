import ExamData
import Foundation
import HTTPServer
import Identifiers
import QRCode
import TemplateEngine

/// Joining a class by its code (`/join/{code}`), a student's classes (`/me/classes`) and leaving one.
extension SchoolPages {
    private func codeLimit() -> CodeGuessLimit {
        CodeGuessLimit(bucket: "join-code", limit: Self.codeMissesPerTenMinutes, pages: pages)
    }

    /// The "I have a code" form; a code typed there goes to its class's page. A code that is
    /// not one comes back on the form, as typed, with the reason beside it.
    func enterCode(_ request: PortalRequest) throws -> Response {
        guard let typed = request.query["code"] else { return try codeForm(request) }
        let code = typed.trimmingCharacters(in: .whitespaces).uppercased()
        guard !code.isEmpty, code.count <= 12, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return try codeForm(request, typed: String(typed.prefix(40)), error: "school.code_format", status: .unprocessableContent)
        }
        return .redirect(to: "/join/\(code)")
    }

    private func codeForm(_ request: PortalRequest, typed: String = "", error: String? = nil, status: HTTPStatus = .ok) throws -> Response {
        struct Page: Encodable {
            var code: String
            var codeError: String?
        }
        return try pages.privatePage("teach/enter-code", Page(code: typed, codeError: error.map { pages.message($0, for: request) }), request, status: status)
    }

    func joinPage(_ request: PortalRequest, code: String) throws -> Response {
        let limit = codeLimit()
        try limit.check(request)
        let found = try request.database.run { try SchoolStore().classByCode(code, $0) }
        guard let found else {
            try limit.miss(request)
            return try codeForm(request, typed: String(code.prefix(40)), error: "school.no_class", status: .notFound)
        }
        let value = JoinPage(code: code.uppercased(), name: found.name, teacher: found.teacher, school: found.school, signedIn: request.user != nil)
        return try pages.privatePage("teach/join", value, request)
    }

    func join(_ request: PortalRequest, _ user: SessionUser, code: String) throws -> Response {
        let limit = codeLimit()
        try limit.check(request)
        guard try request.database.transaction({ try SchoolStore().join(code: code, $0) }) != nil else {
            try limit.miss(request)
            return try codeForm(request, typed: String(code.prefix(40)), error: "school.no_class", status: .notFound)
        }
        return .redirect(to: "/me/classes?joined=1")
    }

    /// `GET /me/classes`: the pupil's classes, each with its assignments (soonest due first), in
    /// one read.
    func myClasses(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let now = clock()
        let read = try request.database.read([SchoolStore.memberClassesStatement, SchoolStore.myAssignmentsStatement(now: now)])
        let classes = try SchoolStore.memberClasses(read[0]), assignments = try SchoolStore.myAssignments(read[1])
        struct Page: Encodable {
            struct Item: Encodable {
                var id: String
                var name: String
                var assignments: [PupilAssignmentRow]
                var hasAssignments: Bool
            }
            var classes: [Item]
            var hasClasses: Bool
            var joined: Bool
            var left: Bool
        }
        let query = request.query, locale = pages.locale(for: request), zone = TimeZone(identifier: user.timeZone) ?? .gmt
        return try pages.privatePage("teach/my-classes", Page(
            classes: classes.map { item in
                let rows = assignments.filter { $0.classID == item.id }.map { PupilAssignmentRow($0, now: now, zone: zone, pages: pages, locale: locale) }
                return Page.Item(id: item.id.lowercasedText, name: item.name, assignments: rows, hasAssignments: !rows.isEmpty)
            },
            hasClasses: !classes.isEmpty, joined: query["joined"] != nil, left: query["left"] != nil), request)
    }

    func leave(_ request: PortalRequest, _ user: SessionUser, class id: UUID) throws -> Response {
        _ = try request.database.transaction { try SchoolStore().leave(classID: id, userID: user.userID, at: clock(), $0) }
        return .redirect(to: "/me/classes?left=1")
    }
}
