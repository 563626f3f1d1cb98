import ExamData
import Foundation
import HTTPServer
import Identifiers

/// Asked before a second mock exam of an exam starts over a running one: resume it, or end it
/// now (scored as it stands, set aside from the questions' statistics) and start the one asked
/// for — the same form sent again with `end_running`. Nothing starts until the student chooses.
struct RunningMockPage: Encodable {
    struct Field: Encodable {
        var name: String
        var value: String
    }

    var examTitle: String
    var answered: Int
    var total: Int
    var minutesLeft: Int
    var endsAt: String
    var resumeHref: String
    var action: String
    var fields: [Field]
    var runningID: String

    /// The form field that names the running attempt the student chose to end.
    static let endField = "end_running"

    /// The page for `running`, whose confirming form posts `form` to `action` again.
    static func respond(
        _ running: RunningSession, examTitle: String, action: String, form: FormFields, now: Date, pages: PageRenderer, _ request: PortalRequest
    ) throws -> Response {
        let kept = form.filter { $0.name != "csrf_token" && $0.name != endField }.map { Field(name: $0.name, value: $0.value) }
        let left = max(0, Int(((running.deadline ?? now).timeIntervalSince(now) / 60).rounded(.up)))
        let page = RunningMockPage(
            examTitle: examTitle, answered: running.answered, total: running.total, minutesLeft: left,
            endsAt: running.deadline.map { QuestionPage.clockTime($0, zone: request.user?.timeZone ?? "UTC") } ?? "",
            resumeHref: "/sessions/\(running.id.lowercasedText)", action: action, fields: kept, runningID: running.id.lowercasedText)
        return try pages.privatePage("sessions/running", page, request, status: .conflict)
    }
}
