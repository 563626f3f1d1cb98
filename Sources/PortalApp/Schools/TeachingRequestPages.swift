import ExamData
import Foundation
import HTTPServer

/// `/me/teaching`: asking to teach. A student names their school and adds a note for the admins,
/// who approve or refuse it (`TeacherQueue`); the page says where the request stands and lets
/// them change it while it waits, or ask again after a refusal. Someone who teaches already is
/// sent to the teaching area.
struct TeachingRequestPages: Sendable {
    let pages: PageRenderer

    /// The longest school name and note the database keeps.
    static let schoolLength = 120
    static let noteLength = 1000

    struct RequestForm: PostedForm {
        let school: String
        let note: String

        init(_ form: FormReader) throws(PageRefusal) {
            school = form.trimmed("school")
            note = form.trimmed("note")
        }

        /// What the form cannot be filed with, beside its field.
        var problems: [FormProblem] {
            var problems: [FormProblem] = []
            if school.isEmpty { problems.append(FormProblem("school", "school.request_school_missing")) }
            if school.count > TeachingRequestPages.schoolLength {
                problems.append(FormProblem("school", "school.request_too_long", ["count": String(TeachingRequestPages.schoolLength)]))
            }
            if note.count > TeachingRequestPages.noteLength {
                problems.append(FormProblem("note", "school.request_too_long", ["count": String(TeachingRequestPages.noteLength)]))
            }
            return problems
        }
    }

    struct Page: Encodable {
        var school: String
        var note: String
        /// Where the latest request stands, in words, and when it was sent or decided.
        var standing: String?
        var pending = false
        var refused = false
        var notice: String?
        var fieldErrors: [String: String] = [:]
        var hasErrors = false
        var schoolLength = TeachingRequestPages.schoolLength
        var noteLength = TeachingRequestPages.noteLength
    }

    /// `GET /me/teaching`.
    func page(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        if user.role.teaches { return .redirect(to: "/teach") }
        let latest = try request.database.run { try TeacherRequestStore().latestOfMine($0) }
        let notice = request.query["sent"] != nil ? pages.message("school.request_sent", for: request)
            : request.query["invitation"] != nil ? pages.message("school.invitation_failed", for: request) : nil
        return try show(request, user, latest: latest, school: latest?.school ?? "", note: latest?.decision == nil ? latest?.note ?? "" : "", notice: notice)
    }

    /// `POST /me/teaching`: files the request (or changes the open one), then shows where it stands.
    func file(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        if user.role.teaches { return .redirect(to: "/teach") }
        let form = try request.form(RequestForm.self)
        let problems = form.problems
        if !problems.isEmpty {
            let latest = try request.database.run { try TeacherRequestStore().latestOfMine($0) }
            return try show(request, user, latest: latest, school: form.school, note: form.note, problems: problems)
        }
        let filing = try request.database.run { try TeacherRequestStore().file(school: form.school, note: form.note, $0) }
        return .redirect(to: filing == .teaches ? "/teach" : "/me/teaching?sent=1")
    }

    private func show(
        _ request: PortalRequest, _ user: SessionUser, latest: TeacherRequest?, school: String, note: String, notice: String? = nil,
        problems: [FormProblem] = []
    ) throws -> Response {
        let locale = pages.locale(for: request), zone = TimeZone(identifier: user.timeZone) ?? .gmt
        var page = Page(school: school, note: note, notice: notice)
        if let latest {
            switch latest.decision {
            case nil:
                page.pending = true
                page.standing = pages.message("school.request_pending", locale: locale, [
                    "school": latest.school, "when": LocalDates.dateTime(latest.createdAt, locale: locale, zone: zone),
                ])
            case .refused:
                page.refused = true
                page.standing = pages.message("school.request_refused", locale: locale, [
                    "when": LocalDates.dateTime(latest.decidedAt ?? latest.createdAt, locale: locale, zone: zone),
                ])
            case .approved:
                // Approved, but the account is a student's again (an admin changed it since).
                page.standing = nil
            }
        }
        page.fieldErrors = pages.fieldErrors(problems, locale: locale)
        page.hasErrors = !page.fieldErrors.isEmpty
        return try pages.privatePage("teach/request", page, request, status: problems.isEmpty ? .ok : .unprocessableContent)
    }
}
