import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine
import TemplateEngine

/// The pages of a study session: the current question (`SessionQuestionPage`), answering it
/// (`SessionAnswering`), flags and finishing (`SessionFinishing`) and the results
/// (`SessionResults`); here what they share. Each request runs in one transaction scoped to the
/// student (or guest), so another student's session is simply not there: 404.
struct SessionPages: Sendable {
    let pages: PageRenderer
    let settings: SessionSettings
    let clock: @Sendable () -> Date
    let formClock: FormClock
    let finisher: SessionFinisher
    /// Kept question and results pages, and the versions that key the readings kept.
    let keeper: PageKeeper
    /// Signed-in students' session readings (a question page's, a results page's), by reader,
    /// session, page and the versions they were read at: a page seen again — a reload, the way
    /// back from the results — reads nothing, and any write for the student or content edit
    /// simply stops its key being asked for. Counted in readings, not bytes: a student's next
    /// page is usually one they have not seen, so a few hundred are plenty.
    let readings: KeptValues<SessionReading>
    /// Told of each student who finishes a session: their history may now be long enough to fit.
    let fitter: WeightFitter?
    /// Woken when a session finishes: a graded one's score goes to its LMS now.
    let scores: ScoreSender?

    /// The longest time an answer is taken to have needed: a tab left open overnight is not a
    /// measure of effort.
    static let longestAnswer: TimeInterval = 30 * 60

    init(
        pages: PageRenderer, settings: SessionSettings, clock: @escaping @Sendable () -> Date, formClock: FormClock, keeper: PageKeeper,
        fitter: WeightFitter? = nil, scores: ScoreSender? = nil
    ) {
        self.fitter = fitter
        self.scores = scores
        self.pages = pages
        self.settings = settings
        self.clock = clock
        self.formClock = formClock
        readings = KeptValues(budget: 256, maximumAge: 600, patience: 0, clock: clock, size: { _ in 1 })
        self.keeper = keeper
        finisher = SessionFinisher()
    }

    // MARK: Loading

    func notFound(_ request: PortalRequest) -> PageRefusal {
        PageRefusal(.notFound, "sessions.not_found")
    }

    /// Runs `body` with the caller's session `:id` in one transaction; 404 when the id is not
    /// a session of theirs.
    func withSession<Value>(
        _ request: PortalRequest, _ id: UUID, locking: Bool = false, _ body: (StudyActor, StudySession, PostgresConnection) throws -> Value
    ) throws -> Value {
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: false) else { throw notFound(request) }
        return try request.database.transaction { connection in
            let store = StudyStore()
            if locking, try !store.lock(sessionID: id, connection) { throw notFound(request) }
            // Row-level security already hides others' sessions; an admin's wider view still
            // does not make another student's session theirs to take.
            guard let session = try store.session(id: id, connection), session.userID == actor.user?.userID else { throw notFound(request) }
            return try body(actor, session, connection)
        }
    }

    func base(_ session: StudySession) -> String { "/sessions/" + session.id.lowercasedText }

    /// A session's reading for `page` (`question|<number>` or `results`) and, for a signed-in
    /// student, the versions it is kept by (those a page made from it alone is kept by too):
    /// their data version and the catalogue's (the data version is read in the same flight as
    /// the reading when it is not remembered); a guest's is read every time.
    func keyedReading(
        _ request: PortalRequest, actor: StudyActor, sessionID: UUID, page: String, statements: [SQL]
    ) throws -> (reading: SessionReading, versions: PageVersions?) {
        guard let user = actor.user else { return (try SessionReading(request.database.read(statements)), nil) }
        let (versions, fresh) = try keeper.versions(request, Self.cachedReading(sessionID, page: page), alongside: statements)
        let key = Self.readingKey(user.userID, sessionID, page: page, versions)
        let read = try readings.value(key) { try SessionReading(fresh ?? request.database.read(statements)) }
        return (read, versions)
    }

    /// What a session's reading for `page` is kept by: the student's data version and the
    /// catalogue's.
    static func cachedReading(_ session: UUID, page: String) -> CachedPage {
        CachedPage(name: "reading|\(session.lowercasedText)|\(page)", dependsOn: [.catalogue, .readerData], visitors: .builtEachTime)
    }

    /// Where a reading is kept: by the student and the reading's versioned name.
    static func readingKey(_ user: UUID, _ session: UUID, page: String, _ versions: PageVersions) -> String {
        user.lowercasedText + "|" + cachedReading(session, page: page).key(versions)
    }
}
