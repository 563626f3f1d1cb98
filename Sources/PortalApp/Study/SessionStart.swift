import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine

/// `POST /sessions`: reads the exam page's start form, selects the questions and answers
/// `303` to the new session.
struct SessionStart: Sendable {
    let pages: PageRenderer
    let settings: SessionSettings
    let clock: @Sendable () -> Date
    /// Exams' content versions, for the selections kept by them.
    let versions: SharedVersions
    let selections: ExamSelection.Kept

    static let maximumCount = 100
    /// How long after a start the same form sent again is the same start (`SentOnce.sendByContent`).
    static let sameStartSeconds = 30.0
    /// New questions a review session may introduce per day (per student, across exams).
    static let newCardsPerDay = 20

    func start(_ request: PortalRequest) throws -> Response {
        let locale = pages.locale(for: request)
        let form = try request.form(StartForm.self)
        let region = form.region, slug = form.slug
        if form.mode.needsAccount && request.user == nil {
            return .redirect(to: LocalPath.signIn(returningTo: "/exams/\(region)/\(slug)"))
        }
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: true) else {
            throw PageRefusal(.badRequest, "sessions.bad_mode", ["value": ""])
        }
        let now = clock()
        var wanted = SessionRequest(
            region: region, slug: slug, mode: form.mode, domains: form.domains, difficulty: form.difficulty, count: form.count, shareLinkID: nil)
        wanted.mockLength = form.mockLength
        wanted.endRunning = form.endRunning
        wanted.missedOf = form.missedOf
        wanted.pool = form.pool
        wanted.kinds = form.kinds
        let location: String?
        do {
            // Started from kept pages (the exam page is one copy for many showings): a double
            // tap or a resent form within half a minute leads to the session the first made, as
            // long as nobody has answered in it (then the same form starts another).
            location = try SentOnce.sendByContent(request, form: form.fields, freshFor: Self.sameStartSeconds, stillStands: { location, connection in
                guard let id = UUID(text: String(location.dropFirst("/sessions/".count))) else { return false }
                return try StudyStore().isUntouched(sessionID: id, connection)
            }) { connection in
                "/sessions/" + (try create(wanted, actor: actor, now: now, locale: locale, connection)).lowercasedText
            }?.location
        } catch let running as MockRunning {
            return try askFirst(running, region: region, slug: slug, action: "/sessions", form: form.fields, now: now, request)
        }
        guard let location else { throw PageRefusal(.badRequest, "error.form_resent") }
        var response = Response.redirect(to: location)
        if let token = actor.newGuestToken { response.setCookie(settings.guestCookie(token)) }
        return response
    }

    /// A mock exam of this exam is running for the student (`RunningSessions`): nothing was started.
    struct MockRunning: Error {
        /// The running attempt, when it was read in the refused transaction (a start that lost a
        /// race to another tab learns of it from the database's refusal alone).
        var session: RunningSession?
    }

    /// The page that asks before a second mock exam starts over `running`; its form sends the
    /// same start again with the running attempt to end.
    func askFirst(
        _ running: MockRunning, region: String, slug: String, action: String, form: FormFields, now: Date, _ request: PortalRequest
    ) throws -> Response {
        let (session, exam) = try request.database.run { connection in
            (try running.session ?? RunningSessions.read(region: region, slug: slug, at: now, connection).first { $0.mode == .mock },
             try ExamCatalog().exam(region: region, slug: slug, connection))
        }
        guard let session, let exam else {
            throw PageRefusal(.conflict, "sessions.running_title")
        }
        return try RunningMockPage.respond(session, examTitle: exam.title, action: action, form: form, now: now, pages: pages, request)
    }

    /// The practice the student built: the exam's practice questions of the kinds chosen (none:
    /// all), from the part of their own history chosen. (Domains and difficulty are the
    /// selector's, as for any practice.)
    static func built(_ selection: ExamSelection, pool: PracticePool, kinds: Set<String>, _ connection: PostgresConnection) throws -> [Candidate] {
        var offered = selection.practice
        if !kinds.isEmpty { offered = offered.filter { kinds.contains($0.kind) } }
        if let restriction = try pool.restriction(examID: selection.exam.id, connection) { offered = offered.filter { restriction.admits($0.id) } }
        return offered
    }

    /// `GET /exams/{region}/{exam}/practice-count` with the start form's choices: how many
    /// questions the practice they describe would draw from, `{"count": N}`, for the exam
    /// page's script to say as the choices change. (Without the script the session says it: it
    /// holds what matches, and nothing matching is refused with what to change.)
    func count(_ request: PortalRequest, _ address: ExamAddress) throws -> Response {
        struct Count: Encodable { var count: Int }
        let query = request.query, locale = pages.locale(for: request)
        guard let pool = PracticePool(rawValue: query["pool"] ?? PracticePool.all.rawValue) else {
            return APIResponse.problem(pages.message("sessions.bad_mode", locale: locale, ["value": String((query["pool"] ?? "").prefix(20))]), status: .badRequest)
        }
        guard let levels = FormReader(fields: query).levels("difficulty_from", "difficulty_to") else {
            return APIResponse.problem(pages.message("sessions.bad_range", locale: locale), status: .badRequest)
        }
        let domains = Set(query.values("domain")), kinds = Set(query.values("kind"))
        let count = try request.database.run { connection -> Int? in
            guard let selection = try ExamSelection.current(region: address.region, slug: address.slug, versions: versions, kept: selections, connection) else {
                return nil
            }
            // All that the selector would choose from: a practice as long as there are questions.
            return QuestionSelector.practice(
                try Self.built(selection, pool: pool, kinds: kinds, connection), domains: domains, difficulty: levels, count: .max, seed: 0).count
        }
        guard let count else { return APIResponse.noExam(region: address.region, slug: address.slug, pages: pages, locale: locale) }
        return try APIResponse.json(Count(count: count), cache: "private, no-store")
    }

    /// What to start: an exam, a mode and the choices of the form (or of a share link).
    struct SessionRequest {
        var region: String
        var slug: String
        var mode: StudyMode
        var domains: Set<String>
        var difficulty: ClosedRange<Int>
        var count: Int
        var shareLinkID: UUID?
        /// How long a mock exam is: the whole exam unless the student chose a shorter one.
        var mockLength = MockLength.full
        /// The running mock exam the student chose to end for this one (asked first otherwise).
        var endRunning: UUID?
        /// A practice of exactly the questions missed in this earlier session of the student's.
        var missedOf: UUID?
        /// A practice the student built: from which of their questions, of which kinds (none: all).
        var pool = PracticePool.all
        var kinds: Set<String> = []
        /// Exactly these questions, in this order (a quiz's, as its assignment gives them).
        var fixedQuestions: [UUID]?

        /// What the session keeps of how it was made (`study_sessions.config`): its seed and
        /// preset, and a mock exam's length (only a whole mock counts in the questions'
        /// statistics, `item_responses`).
        func config(seed: UInt64, count: Int) -> [String: String] {
            var config = [
                "seed": String(seed), "domains": missedOf == nil ? domains.sorted().joined(separator: ",") : "",
                "difficulty": "\(difficulty.lowerBound)-\(difficulty.upperBound)", "count": String(count),
            ]
            // A quiz's mock is not the exam's whole mock: the questions' statistics leave it out.
            if mode == .mock { config["length"] = mockLength == .full && fixedQuestions == nil ? "full" : "short" }
            if fixedQuestions != nil { config["quiz"] = "1" }
            if let missedOf { config["missed_of"] = missedOf.lowercasedText }
            if mode == .practice && pool != .all { config["pool"] = pool.rawValue }
            if mode == .practice && !kinds.isEmpty { config["kinds"] = kinds.sorted().joined(separator: ",") }
            return config
        }
    }

    /// Selects the questions and stores the session; 4xx errors say what cannot be done.
    func create(_ wanted: SessionRequest, actor: StudyActor, now: Date, locale: String, _ connection: PostgresConnection) throws -> UUID {
        func refuse(_ key: String, _ arguments: [String: String] = [:], status: HTTPStatus = .badRequest) -> PageRefusal { PageRefusal(status, key, arguments) }
        guard let selection = try ExamSelection.current(region: wanted.region, slug: wanted.slug, versions: versions, kept: selections, connection) else {
            throw PageRefusal.noExam(region: wanted.region, slug: wanted.slug)
        }
        let exam = selection.exam
        let known = Set(exam.domains.map(\.slug))
        if let unknown = wanted.domains.subtracting(known).first {
            throw refuse("sessions.bad_domain", ["value": String(unknown.prefix(80))])
        }
        if let unknown = wanted.kinds.subtracting(exam.kinds).first {
            throw refuse("sessions.bad_domain", ["value": String(unknown.prefix(80))])
        }
        let mode = wanted.mode
        let seed = Crypto.randomBytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var count = mode == .mock ? wanted.mockLength.questions(of: exam.questionCount) : wanted.count
        let questionIDs: [UUID]
        if let fixed = wanted.fixedQuestions {
            // A quiz's questions as the database gave them (published, in the quiz's order).
            questionIDs = Array(fixed.prefix(Self.maximumCount))
            count = questionIDs.count
        } else if let earlier = wanted.missedOf {
            guard let missed = try StudyStore().missedQuestions(sessionID: earlier, connection), missed.examID == exam.id else {
                throw refuse("sessions.not_found", status: .notFound)
            }
            // Those still offered for practice (a question retired since, or kept for mock exams, is left out).
            let offered = Set(selection.practice.map(\.id))
            questionIDs = Array(missed.questions.filter { offered.contains($0) }.prefix(Self.maximumCount))
            count = questionIDs.count
        } else {
            if wanted.domains.isEmpty && (mode == .practice || mode == .weakSpots) { throw refuse("sessions.no_domains") }
            let offered = mode == .practice
                ? try Self.built(selection, pool: wanted.pool, kinds: wanted.kinds, connection) : selection.practice
            questionIDs = try select(
                mode: mode, selection: selection, practice: offered, domains: wanted.domains, difficulty: wanted.difficulty, count: count, seed: seed,
                now: now, connection)
        }
        guard !questionIDs.isEmpty else {
            if mode == .practice && wanted.pool != .all {
                throw refuse("sessions.nothing_in_pool", ["pool": pages.message("exam.pool_\(wanted.pool.rawValue)", locale: locale)], status: .unprocessableContent)
            }
            throw refuse(mode == .review ? "sessions.nothing_due" : "sessions.nothing_matches", status: .unprocessableContent)
        }
        var session = NewStudySession(
            userID: actor.user?.userID, examID: exam.id, mode: mode, config: wanted.config(seed: seed, count: count), questionIDs: questionIDs, startedAt: now)
        session.shareLinkID = wanted.shareLinkID
        if mode == .mock, let running = try RunningSessions.read(region: wanted.region, slug: wanted.slug, at: now, connection).first(where: { $0.mode == .mock }) {
            // One running mock exam per exam: ended only when the student chose so on the page
            // that asked (the database refuses a second all the same).
            guard wanted.endRunning == running.id, try StudyStore().setAside(sessionID: running.id, connection) else {
                throw MockRunning(session: running)
            }
        }
        do {
            return try StudyStore().create(session, connection)
        } catch let error as PostgresError where error.sqlState == "23505" && mode == .mock {
            throw MockRunning(session: nil)
        }
    }

    /// The session's questions (a practice's from `practice`, the candidates the student's
    /// choices leave). A mock exam follows the exam's blueprint — the whole exam, or
    /// the shorter length the student chose (`MockLength`), whatever else the form asked; its
    /// time limit scales with its length in the database. Review takes what is due (then new
    /// questions, up to the daily limit); weak spots favour the domains the student recalls least.
    private func select(
        mode: StudyMode, selection: ExamSelection, practice: [Candidate], domains: Set<String>, difficulty: ClosedRange<Int>, count: Int, seed: UInt64, now: Date,
        _ connection: PostgresConnection
    ) throws -> [UUID] {
        let exam = selection.exam, dashboard = DashboardStore()
        switch mode {
        case .practice:
            return QuestionSelector.practice(
                practice, domains: domains, difficulty: difficulty, count: count, seed: seed)
        case .mock:
            let blueprint = Dictionary(exam.domains.map { ($0.slug, $0.weight) }, uniquingKeysWith: +)
            return QuestionSelector.mockExam(selection.mock, blueprint: blueprint, count: count, seed: seed)
        case .review:
            // Due means what the dashboard counts as due today (by the end of the student's
            // day), so the number on its button is the number reviewed.
            let dayEnd = try dashboard.endOfDay(at: now, connection)
            // In the last days before the student's exam: what they have studied, by need.
            if ExamDayPlan.isFinalStretch(now: now, examDay: try ExamDateStore().examDay(examID: exam.id, connection)) {
                let recall = try dashboard.recallByDomain(examIDs: [exam.id], at: now, connection)[exam.id] ?? []
                let priority = Dictionary(recall.map { ($0.slug, ExamDayPlan.priority($0.recall)) }, uniquingKeysWith: max)
                let studied = try dashboard.studiedCards(examID: exam.id, at: now, connection)
                    .filter { domains.isEmpty || domains.contains($0.domain) }
                return QuestionSelector.finalStretch(studied, dueBy: dayEnd, priority: priority, count: count)
            }
            let queue = try dashboard.reviewQueue(examID: exam.id, dueBy: dayEnd, connection)
            let newToday = try dashboard.newCards(since: dashboard.startOfDay(at: now, connection), connection)
            let unseen = queue.unseen.filter { difficulty.contains($0.difficulty) && (domains.isEmpty || domains.contains($0.domain)) }
            return QuestionSelector.review(
                due: queue.due, dueBy: dayEnd, unseen: unseen, newLimit: max(0, Self.newCardsPerDay - newToday), count: count, seed: seed)
        case .weakSpots:
            let recall = try dashboard.recallByDomain(examIDs: [exam.id], at: now, connection)[exam.id] ?? []
            let byDomain = Dictionary(recall.map { ($0.slug, $0.recall.expectedScore()) }, uniquingKeysWith: min)
            let pool = selection.practice.filter { domains.contains($0.domain) && difficulty.contains($0.difficulty) }
            return QuestionSelector.weakSpots(pool, recallByDomain: byDomain, count: count, seed: seed)
        }
    }
}
