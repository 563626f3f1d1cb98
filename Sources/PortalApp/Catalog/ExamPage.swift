import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import TemplateEngine

/// `GET /exams/{region}/{exam}`: domains, weights, counts by difficulty and the start form.
struct ExamPage: Encodable {
    struct Exam: Encodable {
        var regionCode: String
        var regionName: String
        var slug: String
        var title: String
        var description: String
        var language: String
        var passMark: Int
        var minutes: Int
        var questionCount: Int
        var bankSize: Int
        var updatedAgo: String
        /// "100 to 1000, 700 to pass": the scaled score its mock exams report, if any.
        var scaledScore: String?
    }

    struct Level: Encodable {
        var level: Int
        var label: String
        var selected: Bool
        var shown: Bool
        var isFrom: Bool
        var isTo: Bool
    }

    struct Domain: Encodable {
        var slug: String
        var title: String
        var weight: Int
        var counts: [Int]
        var total: Int
    }

    struct Filter: Encodable {
        var label: String
        var total: Int
    }

    struct ClassOption: Encodable {
        var id: String
        var name: String
        /// The class the form is for (a new assignment from the class's own page).
        var selected = false
    }

    /// A mock exam's length the student may choose: the whole exam, half, or 20 or 10
    /// questions, each with the time it is given (the exam's time in proportion).
    struct MockChoice: Encodable {
        var value: String
        var label: String
        var checked: Bool
    }

    var exam: Exam
    var levels: [Level]
    var domains: [Domain]
    var filter: Filter?
    var mockLengths: [MockChoice]
    /// A practice the student builds: which questions (all, or those of their own history) and
    /// which kinds (offered when the exam has more than one).
    var pools: [MockChoice]
    var kinds: [MockChoice]
    var hasKinds: Bool

    /// What the page adds for its reader around the shared `{{%exam}}` fragments: for a
    /// teacher, the share form with the classes a link may be for.
    struct Personal: Encodable {
        var share: SharePanel?
        /// A student's extra time, said beside the mock exam's mode.
        var accommodation: String?
        /// A student's exam date and the form to set it.
        var examDate: ExamDateForm.Section?
        /// Their unfinished mock exam and practice of this exam, to resume rather than start over.
        var running: [RunningOffer] = []

        init() {}

        /// A student's part from their own read (accommodation, exam dates, running sessions).
        init(
            student user: SessionUser, _ exam: ExamAddress, own: [QueryResult], refusal: ExamDateForm.Refusal?, detail: () throws -> ExamDetail,
            pages: PageRenderer, locale: String
        ) throws {
            let (region, slug) = (exam.region, exam.slug)
            running = RunningOffer.offers(try RunningSessions.decode(own[2]), zone: user.timeZone, pages: pages, locale: locale)
            let date = try ExamDateStore.dates(own[1]).values.first { $0.region == region && $0.slug == slug }
            examDate = ExamDateForm.section(
                region: region, slug: slug, date: date, today: ExamDateForm.today(at: pages.clock(), for: user), refusal: refusal, pages: pages, locale: locale)
            if let accommodation = try SchoolStore.ownAccommodation(own[0]), accommodation.multiplier != 1 || accommodation.extraMinutes > 0 {
                let minutes = accommodation.seconds(for: try detail().timeLimitSeconds) / 60
                self.accommodation = pages.message("exam.accommodation", locale: locale, [
                    "what": accommodation.describe(pages: pages, locale: locale),
                    "minutes": pages.message("exam.minutes", locale: locale, ["count": String(minutes)], count: Double(minutes)),
                ])
            }
        }
    }

    /// An unfinished session offered again at the top of the start section.
    struct RunningOffer: Encodable {
        var text: String
        var href: String
        var label: String

        /// The newest running mock exam and the newest other session, mock first.
        static func offers(_ sessions: [RunningSession], zone: String, pages: PageRenderer, locale: String) -> [RunningOffer] {
            let mock = sessions.first { $0.mode == .mock }, other = sessions.first { $0.mode != .mock }
            return [mock, other].compactMap { $0 }.map { session in
                let counts = ["answered": String(session.answered), "total": String(session.total)]
                let text = session.mode == .mock
                    ? pages.message("exam.running_mock", locale: locale, counts.merging(["time": session.deadline.map { QuestionPage.clockTime($0, zone: zone) } ?? ""]) { $1 })
                    : pages.message("exam.running_practice", locale: locale, counts.merging([
                        "when": LocalDates.dateTime(session.startedAt, locale: locale, zone: TimeZone(identifier: zone) ?? .gmt)]) { $1 })
                return RunningOffer(
                    text: text, href: "/sessions/\(session.id.lowercasedText)",
                    label: pages.message(session.mode == .mock ? "exam.resume" : "exam.continue", locale: locale))
            }
        }
    }

    struct SharePanel: Encodable {
        var exam: Exam
        var levels: [Level]
        var domains: [Domain]
        var classes: [ClassOption]
    }

    /// Reads `?difficulty=`: absent or empty for all, else a whole number 1–5.
    static func difficulty(from request: PortalRequest, pages: PageRenderer, locale: String) throws -> Int? {
        guard let level = level(request.query) else {
            let text = request.query["difficulty"] ?? ""
            throw PageRefusal(.badRequest, "error.bad_difficulty", ["value": String(text.prefix(20))])
        }
        return level
    }

    /// `?difficulty=` read: `.some(nil)` for all (absent or empty), `.some(n)` for 1–5, nil for
    /// anything else (the page refuses it).
    private static func level(_ query: FormFields) -> Int?? {
        guard let text = query["difficulty"], !text.isEmpty else { return .some(nil) }
        guard let level = Int(text), (1...5).contains(level) else { return nil }
        return level
    }

    /// How the page is kept: by the exam's content, a copy per language for visitors; a
    /// student's copy also by their data version (their extra time and exam date are on it). A
    /// teacher's page lists their classes, read each time; so does a guest's (with a cookie) its
    /// running sessions, which no visitor's copy shows. Nil for a difficulty the page refuses.
    static func cached(_ query: FormFields, _ exam: ExamAddress, reader: SessionUser?, guest: Bool) -> CachedPage? {
        guard let level = level(query) else { return nil }
        var page = CachedPage(
            name: "exam|\(exam.region)|\(exam.slug)|\(level ?? 0)", dependsOn: [.exam(exam), .readerData],
            readers: reader?.role.teaches == true ? .builtEachTime : .kept)
        if reader == nil && guest { page.visitors = .builtEachTime }
        return page
    }

    /// The exam's content is one fragment, kept by the exam's content version: while that is
    /// current nobody's request reads the database for it — a visitor's whole page is kept,
    /// a signed-in reader's page is the fragment around their own header and form token.
    static func handler(pages: PageRenderer, keeper: PageKeeper) -> @Sendable (PortalRequest, ExamAddress, ExamDateForm.Refusal?) throws -> Response {
        { request, exam, refusal in
            let locale = pages.locale(for: request)
            let difficulty = try difficulty(from: request, pages: pages, locale: locale)
            let region = exam.region, slug = exam.slug
            let catalog = ExamCatalog()
            let notFound = { PageRefusal.noExam(region: region, slug: slug) }
            let detail = {
                guard let detail = try request.database.run({ try catalog.exam(region: region, slug: slug, $0) }) else { throw notFound() }
                return detail
            }
            let guest = request.user == nil && request.database.guestToken != nil
            guard var cached = cached(request.query, exam, reader: request.user, guest: guest) else { throw notFound() }
            // A refused date is shown once, beside its field: that page is not kept.
            if refusal != nil { cached.readers = .builtEachTime }
            // A student's own part of the page, read in the same flight as their data version
            // when that is not remembered.
            let own: [SQL] = request.user.map { $0.role.teaches } == false ? [
                SchoolStore.ownAccommodationStatement, ExamDateStore.datesStatement,
                RunningSessions.statement(region: region, slug: slug, at: pages.clock()),
            ] : []
            var response = try keeper.respond(request, cached, alongside: own) { versions, viewer, fresh in
                guard let version = versions.exam else { throw notFound() }
                let shared = Fragment(key: "\(cached.name)|\(version.timeIntervalSince1970)") {
                    ExamPage(try detail(), difficulty: difficulty, pages: pages, locale: locale)
                }
                var personal = Personal()
                if guest {
                    // A guest's running mock exam or practice, by their cookie: offered as a student's is.
                    let running = try request.database.run { try RunningSessions.read(region: region, slug: slug, at: pages.clock(), $0) }
                    personal.running = RunningOffer.offers(running, zone: "UTC", pages: pages, locale: locale)
                } else if let user = request.user, user.role.teaches {
                    // A teacher's page also lists their classes to share the exam with.
                    let page = ExamPage(try detail(), difficulty: difficulty, pages: pages, locale: locale)
                    let classes = try SchoolStore.taughtClasses(request.database.read([SchoolStore.taughtClassesStatement])[0])
                    personal.share = SharePanel(
                        exam: page.exam, levels: page.levels, domains: page.domains,
                        classes: classes.map { ClassOption(id: $0.id.lowercasedText, name: $0.name) })
                    let running = try request.database.run { try RunningSessions.read(region: region, slug: slug, at: pages.clock(), $0) }
                    personal.running = RunningOffer.offers(running, zone: user.timeZone, pages: pages, locale: locale)
                } else if let user = request.user {
                    personal = try Personal(
                        student: user, exam, own: fresh ?? request.database.read(own), refusal: refusal, detail: detail, pages: pages, locale: locale)
                }
                return try pages.render("exams/show", personal, locale: locale, viewer: viewer, fragments: ["exam": shared])
            }
            if refusal != nil { response.status = .unprocessableContent }
            return response
        }
    }

    init(_ detail: ExamDetail, difficulty: Int?, pages: PageRenderer, locale: String) {
        exam = Exam(
            regionCode: detail.regionCode, regionName: detail.regionName, slug: detail.slug, title: detail.title,
            description: detail.description, language: detail.language, passMark: detail.passMark,
            minutes: detail.timeLimitSeconds / 60, questionCount: detail.questionCount,
            bankSize: detail.domains.reduce(0) { $0 + $1.total }, updatedAgo: pages.ago(detail.contentUpdatedAt, locale: locale),
            scaledScore: detail.scaledScore.map {
                pages.message("exam.scaled_value", locale: locale, ["min": String($0.min), "max": String($0.max), "pass": String($0.pass)])
            })
        levels = (1...5).map { level in
            Level(
                level: level, label: pages.message("difficulty.\(level)", locale: locale), selected: level == difficulty,
                shown: difficulty == nil || difficulty == level, isFrom: level == (difficulty ?? 1), isTo: level == (difficulty ?? 5))
        }
        domains = detail.domains.map { domain in
            let counts = difficulty.map { [domain.countsByDifficulty[$0 - 1]] } ?? domain.countsByDifficulty
            return Domain(slug: domain.slug, title: domain.title, weight: domain.weight, counts: counts, total: counts.reduce(0, +))
        }
        mockLengths = Self.mockChoices(questions: detail.questionCount, seconds: detail.timeLimitSeconds, pages: pages, locale: locale)
        pools = PracticePool.allCases.map { MockChoice(value: $0.rawValue, label: pages.message("exam.pool_\($0.rawValue)", locale: locale), checked: $0 == .all) }
        kinds = detail.kinds.map { MockChoice(value: $0, label: pages.message("admin.kind.\($0)", locale: locale), checked: true) }
        hasKinds = kinds.count > 1
        filter = difficulty.map { level in
            Filter(label: "\(level) · " + pages.message("difficulty.\(level)", locale: locale), total: domains.reduce(0) { $0 + $1.total })
        }
    }

    /// The lengths worth offering for an exam of `questions` in `seconds`: the whole exam first,
    /// then each shorter one that differs, with its minutes as the database will allow them.
    static func mockChoices(questions: Int, seconds: Int, pages: PageRenderer, locale: String) -> [MockChoice] {
        var seen: Set<Int> = []
        let lengths = [("full", MockLength.full), ("half", .half)] + MockLength.shortCounts.map { (String($0), MockLength.questions($0)) }
        return lengths.compactMap { value, length -> MockChoice? in
            let count = length.questions(of: questions)
            guard length == .full || count < questions, seen.insert(count).inserted else { return nil }
            let minutes = (MockLength.seconds(of: seconds, questions: count, outOf: questions) + 59) / 60
            let arguments = [
                "questions": pages.message("exam.questions_count", locale: locale, ["count": String(count)], count: Double(count)),
                "minutes": pages.message("exam.minutes", locale: locale, ["count": String(minutes)], count: Double(minutes)),
            ]
            return MockChoice(
                value: value, label: pages.message(length == .full ? "exam.mock_length_full" : "exam.mock_length_short", locale: locale, arguments),
                checked: length == .full)
        }
    }
}
