import ExamData
import Foundation
import HTTPServer
import Identifiers

/// `/teach/classes/{id}/members/{user}`: one pupil within a class, for its teacher — who they
/// are and how they are doing, what they did in each assignment (each attempt's score and the
/// answers that counted), their accuracy by domain, and what a teacher does for one pupil:
/// a password code, extra time and attempts, removing them from the class.
struct ClassMemberPage: Encodable {
    struct Attempt: Encodable {
        var started: String
        var finished: Bool
        var percent: String?
        var passed: Bool
        var minutes: String?
        var answers: [Answer]
        var hasAnswers: Bool
    }

    struct Answer: Encodable {
        var stem: String
        var correct: Bool
    }

    struct Assignment: Encodable {
        var link: LinkRow
        var attempts: [Attempt]
        var hasAttempts: Bool
    }

    var classID: String
    var className: String
    var classHref: String
    var userID: String
    var name: String
    var username: String
    var joined: String
    var lastActive: String
    var accuracy: String
    var done: String
    var assignments: [Assignment]
    var hasAssignments: Bool
    var progress: [ClassPage.Progress]
    var hasProgress: Bool
    var accommodation: AccommodationForm
    var csrfToken: String
    /// Just saved: the extra time.
    var saved: Bool

    init(_ reading: ClassMemberReading, csrfToken: String, saved: Bool, pages: PageRenderer, locale: String, zone: TimeZone) {
        let entry = reading.entry, member = reading.entry.member
        classID = reading.summary.id.lowercasedText
        className = reading.summary.name
        classHref = "/teach/classes/" + classID
        userID = member.userID.lowercasedText
        name = member.displayName
        username = member.username
        joined = LocalDates.dateTime(member.joinedAt, locale: locale, zone: zone)
        lastActive = entry.lastActive.map { pages.ago($0, locale: locale) } ?? pages.message("school.never_active", locale: locale)
        accuracy = entry.answered == 0 ? "—" : Percentages.format(Double(entry.correct) / Double(entry.answered), locale: locale)
        done = pages.message("school.done_of", locale: locale, ["done": String(entry.assignmentsDone), "total": String(reading.links.count)])
        assignments = reading.links.map { link in
            let attempts = reading.attempts.filter { $0.linkID == link.id }.map { attempt in
                Attempt(
                    started: LocalDates.dateTime(attempt.startedAt, locale: locale, zone: zone), finished: attempt.finishedAt != nil,
                    percent: attempt.scorePercent.map { Percentages.format($0 / 100, locale: locale) }, passed: attempt.passed ?? false,
                    minutes: attempt.secondsUsed.map { String(format: "%.1f", Double($0) / 60) },
                    answers: attempt.answers.map { Answer(stem: String($0.stem.prefix(200)), correct: $0.correct) }, hasAnswers: !attempt.answers.isEmpty)
            }
            return Assignment(link: LinkRow(link, pages: pages, locale: locale), attempts: attempts, hasAttempts: !attempts.isEmpty)
        }
        hasAssignments = !assignments.isEmpty
        progress = reading.progress.map {
            ClassPage.Progress(name: $0.displayName, exam: $0.examTitle, language: $0.language, domain: $0.domainTitle, answered: $0.answered,
                               percent: $0.answered == 0 ? 0 : Int((Double($0.correct) * 100 / Double($0.answered)).rounded()))
        }
        hasProgress = !progress.isEmpty
        accommodation = AccommodationForm(member.accommodation, pages: pages, locale: locale)
        self.csrfToken = csrfToken
        self.saved = saved
    }
}

extension SchoolPages {
    /// `GET /teach/classes/{id}/members/{user}`, read in one flight.
    func memberPage(_ request: PortalRequest, _ user: SessionUser, class id: UUID, student: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let results = try request.database.read(ClassMemberReading.statements(classID: id, student: student, collation: .of(locale: locale)))
        guard !results[0].rows.isEmpty else { throw PageRefusal(.notFound, "school.not_found") }
        guard let reading = try ClassMemberReading(results) else { throw PageRefusal(.notFound, "school.not_a_member") }
        let page = ClassMemberPage(
            reading, csrfToken: user.csrfToken, saved: request.query["saved"] != nil, pages: pages, locale: locale,
            zone: TimeZone(identifier: user.timeZone) ?? .gmt)
        return try pages.privatePage("teach/member", page, request)
    }
}
