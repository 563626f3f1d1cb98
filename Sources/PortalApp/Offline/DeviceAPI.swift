import ExamData
import Foundation
import HTTPServer
import Identifiers

/// What the offline scripts ask of the server besides bundles: who is signed in (so a device
/// uploads answers only into the account that made them, with a current CSRF token) and the
/// student's review schedule for an exam (so review sessions can run with no connection).
struct DeviceAPI: Sendable {
    let pages: PageRenderer

    /// `GET /api/me`: the viewer as the scripts need it.
    func me(_ request: PortalRequest) throws -> Response {
        struct Me: Encodable {
            var signedIn: Bool
            var userId: String?
            var displayName: String?
            var csrfToken: String
        }
        let user = request.user
        return try APIResponse.json(Me(
            signedIn: user != nil, userId: user?.userID.lowercasedText, displayName: user?.displayName,
            csrfToken: request.viewer.csrfToken), cache: "no-store")
    }

    /// `GET /api/exams/{region}/{exam}/schedule`: every review card the student holds in the
    /// exam, with when it is due.
    func schedule(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress) throws -> Response {
        let locale = pages.locale(for: request)
        struct Card: Encodable {
            var question: String
            var due: Date
        }
        struct Schedule: Encodable {
            var region: String
            var exam: String
            var cards: [Card]
        }
        let region = exam.region, slug = exam.slug
        let cards = try request.database.transaction { connection -> [Card]? in
            guard let exam = try ExamCatalog().examHeading(region: region, slug: slug, connection) else { return nil }
            return try DashboardStore().schedule(examID: exam.id, connection).map { Card(question: $0.id.lowercasedText, due: $0.due) }
        }
        guard let cards else {
            return APIResponse.noExam(region: region, slug: slug, pages: pages, locale: locale)
        }
        return try APIResponse.json(Schedule(region: region, exam: slug, cards: cards), cache: "no-store")
    }
}
