import ExamData
import Foundation
import HTTPServer

/// The form that starts a study session (`POST /sessions`, an exam page's; a share link's
/// start sends only its token and the running mock exam to end): the exam, the mode, the
/// preset (domains, kinds, difficulty, count, the pool, a mock exam's length) or an earlier
/// session's missed questions. What is left out takes the exam page's defaults.
struct StartForm: PostedForm {
    /// The fields as sent: the same start again is known by them (`SentOnce`), and the page that
    /// asks before ending a running mock exam sends them again.
    let fields: FormFields
    let region: String
    let slug: String
    let mode: StudyMode
    /// "Practise the ones I missed": exactly those questions of this earlier session.
    let missedOf: UUID?
    let domains: Set<String>
    let kinds: Set<String>
    let difficulty: ClosedRange<Int>
    let count: Int
    let mockLength: MockLength
    let pool: PracticePool
    /// The running mock exam the student chose to end for this one.
    let endRunning: UUID?

    init(_ form: FormReader) throws(PageRefusal) {
        fields = form.fields
        (region, slug) = (form.text("region"), form.text("exam"))
        guard let mode = StudyMode(rawValue: form.optional("mode") ?? StudyMode.practice.rawValue) else {
            throw PageRefusal(.badRequest, "sessions.bad_mode", ["value": form.quoted("mode")])
        }
        self.mode = mode
        missedOf = form.optional("missed_of").flatMap(UUID.init(text:))
        if form.has("missed_of") && (missedOf == nil || mode != .practice) { throw PageRefusal(.badRequest, "sessions.bad_mode", ["value": "missed_of"]) }
        guard let difficulty = form.levels("difficulty_from", "difficulty_to") else { throw PageRefusal(.badRequest, "sessions.bad_range") }
        self.difficulty = difficulty
        guard let count = form.int("count", absent: 20), (1...SessionStart.maximumCount).contains(count) else {
            throw PageRefusal(.badRequest, "sessions.bad_count", ["max": String(SessionStart.maximumCount)])
        }
        self.count = count
        guard let mockLength = MockLength(form.optional("mock_length")) else { throw PageRefusal(.badRequest, "sessions.bad_mock_length") }
        self.mockLength = mockLength
        guard let pool = PracticePool(rawValue: form.optional("pool") ?? PracticePool.all.rawValue) else {
            throw PageRefusal(.badRequest, "sessions.bad_mode", ["value": form.quoted("pool")])
        }
        self.pool = pool
        (domains, kinds) = (Set(form.values("domain")), Set(form.values("kind")))
        endRunning = form.optional(RunningMockPage.endField).flatMap(UUID.init(text:))
    }
}
