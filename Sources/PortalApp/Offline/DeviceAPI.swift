import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// What the offline scripts ask of the server besides bundles: who is signed in (so a device
/// uploads answers only into the account that made them, with a current CSRF token) and the
/// student's review schedule for an exam (so review sessions can run with no connection).
struct DeviceAPI: Sendable {
    let database: ConnectionPool
    let pages: PageRenderer

    func addRoutes(to router: inout Router) {
        router.get("/api/me") { request in try me(request) }
        router.get("/api/exams/:region/:exam/schedule") { request in try schedule(request) }
    }

    private func json(_ value: some Encodable, status: HTTPStatus = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        var response = Response.json(Array(try encoder.encode(value)), status: status)
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    private struct Problem: Encodable {
        var error: String
    }

    /// `GET /api/me`: the viewer as the scripts need it.
    func me(_ request: Request) throws -> Response {
        struct Me: Encodable {
            var signedIn: Bool
            var userId: String?
            var displayName: String?
            var csrfToken: String
        }
        let user = request.user
        return try json(Me(
            signedIn: user != nil, userId: user?.userID.uuidString.lowercased(), displayName: user?.displayName,
            csrfToken: request.viewer?.csrfToken ?? ""))
    }

    /// `GET /api/exams/{region}/{exam}/schedule`: every review card the student holds in the
    /// exam, with when it is due.
    func schedule(_ request: Request) throws -> Response {
        let locale = pages.locale(for: request)
        guard let user = request.user else {
            return try json(Problem(error: pages.message("offline.schedule_sign_in", locale: locale)), status: .unauthorized)
        }
        struct Card: Encodable {
            var question: String
            var due: Date
        }
        struct Schedule: Encodable {
            var region: String
            var exam: String
            var cards: [Card]
        }
        let region = request.parameter("region"), slug = request.parameter("exam")
        let cards = try StudyActor(user: user).transaction(database) { connection -> [Card]? in
            guard let exam = try ExamCatalog().examHeading(region: region, slug: slug, connection) else { return nil }
            return try DashboardStore().schedule(examID: exam.id, connection).map { Card(question: $0.id.uuidString.lowercased(), due: $0.due) }
        }
        guard let cards else {
            return try json(Problem(error: pages.message("error.no_exam", locale: locale, ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))])), status: .notFound)
        }
        return try json(Schedule(region: region, exam: slug, cards: cards))
    }
}
