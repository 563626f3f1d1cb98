import ExamData
import Foundation
import HTTPServer

/// The share form at the foot of an exam page (`POST /teach/links`): a link's title, mode,
/// preset (domains, difficulty, question count), its class, due day, expiry, attempts and a mock's
/// own time limit.
struct ShareLinkForm: PostedForm {
    /// The fields as sent: the same send again is known by them (`SentOnce.sendByContent`).
    let fields: FormFields
    let title: String
    let mode: StudyMode
    let region: String
    let slug: String
    let domains: [String]
    let difficulty: ClosedRange<Int>
    let count: Int
    /// At most this many attempts each; nil for no limit.
    let attempts: Int?
    /// A mock assignment's own time limit in minutes; nil for the exam's.
    let timeLimitMinutes: Int?
    /// The class it is for, if any, and whether opening it joins the class.
    let classID: UUID?
    let joinsClass: Bool
    /// The due day as typed (`YYYY-MM-DD`), nil when none: read in the teacher's time zone.
    let due: String?
    /// Days until the link stops working, nil for never.
    let expiresDays: Int?
    /// The quiz it assigns (its questions, in its order), if any: then it is for a class.
    let quizID: UUID?

    init(_ form: FormReader) throws(PageRefusal) {
        fields = form.fields
        title = form.trimmed("title")
        guard (1...120).contains(title.count) else { throw PageRefusal(.badRequest, "school.bad_link_title") }
        guard let mode = StudyMode(rawValue: form.text("mode")), mode == .practice || mode == .mock else {
            throw PageRefusal(.badRequest, "sessions.bad_mode", ["value": form.quoted("mode")])
        }
        self.mode = mode
        guard let difficulty = form.levels("difficulty_from", "difficulty_to") else { throw PageRefusal(.badRequest, "sessions.bad_range") }
        self.difficulty = difficulty
        guard let count = form.int("count", absent: 20), (1...100).contains(count) else {
            throw PageRefusal(.badRequest, "sessions.bad_count", ["max": "100"])
        }
        self.count = count
        if form.trimmed("attempts").isEmpty {
            attempts = nil
        } else {
            guard let limit = form.int("attempts"), (1...20).contains(limit) else { throw PageRefusal(.badRequest, "school.bad_attempts") }
            attempts = limit
        }
        if form.trimmed("time_limit").isEmpty {
            timeLimitMinutes = nil
        } else {
            guard let minutes = form.int("time_limit"), (1...600).contains(minutes) else { throw PageRefusal(.badRequest, "school.bad_time_limit") }
            guard mode == .mock else { throw PageRefusal(.unprocessableContent, "school.time_limit_mock_only") }
            timeLimitMinutes = minutes
        }
        if form.text("class").isEmpty {
            classID = nil
        } else {
            guard let id = form.uuid("class") else { throw PageRefusal(.badRequest, "school.not_found") }
            classID = id
        }
        joinsClass = classID != nil && form.isOn("joins_class")
        due = form.text("due").isEmpty ? nil : form.text("due")
        if form.text("expires_days").isEmpty {
            expiresDays = nil
        } else {
            guard let days = form.int("expires_days"), (1...365).contains(days) else { throw PageRefusal(.badRequest, "school.bad_expiry") }
            expiresDays = days
        }
        (region, slug, domains) = (form.text("region"), form.text("exam"), form.values("domain"))
        if form.text("quiz").isEmpty {
            quizID = nil
        } else {
            guard let id = form.uuid("quiz") else { throw PageRefusal(.badRequest, "school.quiz_unknown") }
            guard classID != nil else { throw PageRefusal(.unprocessableContent, "school.quiz_needs_class") }
            quizID = id
        }
    }
}
