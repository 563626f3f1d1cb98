import ExamData
import Foundation
import HTTPServer
import PostgresClient
import TemplateEngine

/// `GET /exams/{region}/{exam}/leaderboard?window=week|all&page=N`: a page of the board, when
/// it was computed, and the signed-in student's own place with their neighbours.
///
/// The board is a fragment (`Board`) kept by the last refresh and the exam's content version,
/// the same for every reader; the page around it (`LeaderboardPage`) is the reader's own: their
/// week in their time zone, their place and neighbours — one pipelined read — and, when they
/// are on the page of the board being shown, that page with their row marked.
struct LeaderboardPage: Encodable {
    struct Tab: Encodable {
        var label: String
        var href: String
        var current: Bool
    }

    struct Row: Encodable {
        var rank: Int
        var name: String
        var points: Int
        var sessions: Int
        var accuracy: Int
        var isViewer: Bool

        init(_ entry: LeaderboardEntry) {
            rank = entry.rank
            name = entry.displayName
            points = entry.points
            sessions = entry.sessions
            accuracy = entry.accuracy
            isViewer = entry.isViewer
        }
    }

    /// The board as everyone sees it.
    struct Board: Encodable {
        var examTitle: String
        var language: String
        var examHref: String
        var tabs: [Tab]
        var updated: String?
        var rows: [Row]
        var hasRows: Bool
        var total: Int
        var page: Int
        var pages: Int
        var previousHref: String?
        var nextHref: String?
        var beyondEnd: Bool
    }

    var examHref: String
    var isWeek: Bool
    var weekStarts: String
    var timeZone: String
    var signedIn: Bool
    var hidden: Bool
    var neighbours: [Row]
    var showNeighbours: Bool
    var viewerRank: Int?
    /// The board's page with the reader's row marked, when they are on it.
    var personalBoard: Board?

    static let pageSize = 25
    static let radius = 2

    /// The week's start as readers see it, kept per week, language and time zone: a
    /// `DateFormatter` costs more to make than the rest of the page.
    private static let weekStartTexts = KeptValues<String>(budget: 1_000, maximumAge: 86_400, patience: 0, clock: Date.init, size: { _ in 1 })

    static func weekStartText(_ weekStart: Date, locale: String, zone: TimeZone) -> String {
        let make = {
            let formatter = LocalDates.formatter(locale: locale, zone: zone)
            formatter.dateStyle = .full
            formatter.timeStyle = .short
            return formatter.string(from: weekStart)
        }
        // Making the text cannot fail: `value` throws only what `make` throws.
        return (try? weekStartTexts.value("\(weekStart.timeIntervalSince1970)|\(locale)|\(zone.identifier)", make: make)) ?? make()
    }

    /// How the page is kept: by the board's last refresh and the exam's content, a copy per
    /// language for visitors (all see the same page until the next refresh); a reader's copy
    /// also by their data version (their choice to appear). Nil for a window or page the page
    /// refuses.
    static func cached(_ query: FormFields, _ exam: ExamAddress) -> CachedPage? {
        guard let period = period(query), let page = pageNumber(query) else { return nil }
        return CachedPage(
            name: "board|\(exam.region)|\(exam.slug)|\(period.rawValue)|\(page)", dependsOn: [.leaderboardRefresh, .exam(exam), .readerData])
    }

    /// `?window=`: the week when absent; nil for one the page refuses.
    private static func period(_ query: FormFields) -> LeaderboardPeriod? { LeaderboardPeriod(rawValue: query["window"] ?? "week") }

    /// `?page=`: the first when absent; nil for one the page refuses.
    private static func pageNumber(_ query: FormFields) -> Int? { Int(query["page"] ?? "1").flatMap { (1...100_000).contains($0) ? $0 : nil } }

    static func handler(pages: PageRenderer, keeper: PageKeeper) -> @Sendable (PortalRequest, ExamAddress) throws -> Response {
        { request, exam in
            let locale = pages.locale(for: request)
            let region = exam.region, slug = exam.slug
            let query = request.query
            guard let period = period(query) else {
                throw PageRefusal(.badRequest, "leaderboard.bad_window", ["value": String((query["window"] ?? "").prefix(20))])
            }
            guard let page = pageNumber(query), let cached = cached(query, exam) else {
                throw PageRefusal(.badRequest, "leaderboard.bad_page", ["value": String((query["page"] ?? "").prefix(20))])
            }
            let user = request.user
            let store = LeaderboardStore(), catalog = ExamCatalog()
            let notFound = PageRefusal.noExam(region: region, slug: slug)
            // The reader's place and choice to appear, read in the same flight as their data
            // version when that is not remembered.
            let own: [SQL] = user == nil ? [] : [
                LeaderboardStore.aroundViewerStatement(region: region, slug: slug, period: period, radius: radius), AccountStore.settingsStatement,
            ]
            return try keeper.respond(request, cached, alongside: own) { versions, viewer, fresh in
                guard versions.exam != nil else { throw notFound }
                let refreshedAt = versions.leaderboardRefresh.flatMap { $0 == .distantPast ? nil : $0 }
                let board = { () throws -> Board in
                    try request.database.run { connection in
                        guard let exam = try catalog.examHeading(region: region, slug: slug, connection) else { throw notFound }
                        let total = try store.size(examID: exam.id, period: period, connection)
                        let entries = try store.page(examID: exam.id, period: period, offset: (page - 1) * pageSize, limit: pageSize, connection)
                        return Board(
                            exam: exam, region: region, slug: slug, period: period, page: page, total: total, entries: entries,
                            refreshedAt: refreshedAt, pages: pages, locale: locale)
                    }
                }
                // The shared board marks nobody's row, whoever's request read it.
                let shared = Fragment(key: "\(cached.name)|\(versions.shared.timeIntervalSince1970)") { () -> Board in
                    var value = try board()
                    for index in value.rows.indices { value.rows[index].isViewer = false }
                    return value
                }
                var personal = LeaderboardPage(region: region, slug: slug, period: period, user: user, pages: pages, locale: locale)
                if user != nil {
                    let results = try fresh ?? request.database.read(own)
                    let around = try LeaderboardStore.entries(results[0])
                    personal.hidden = !(try AccountStore.settings(results[1])?.showOnLeaderboard ?? false)
                    personal.neighbours = around.map(Row.init)
                    personal.viewerRank = around.first { $0.isViewer }?.rank
                    let place = around.first { $0.isViewer }?.place
                    if let place, ((page - 1) * pageSize + 1...page * pageSize).contains(place) {
                        personal.personalBoard = try board()
                    } else {
                        personal.showNeighbours = !around.isEmpty
                    }
                }
                return try pages.render("exams/leaderboard", personal, locale: locale, viewer: viewer, fragments: ["board": shared])
            }
        }
    }

    init(region: String, slug: String, period: LeaderboardPeriod, user: SessionUser?, pages: PageRenderer, locale: String) {
        examHref = "/exams/\(region)/\(slug)"
        isWeek = period == .week
        let zone = TimeZone(identifier: user?.timeZone ?? "UTC") ?? .gmt
        timeZone = zone.identifier
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = .gmt
        let weekStart = calendar.dateInterval(of: .weekOfYear, for: pages.clock())?.start ?? pages.clock()
        weekStarts = Self.weekStartText(weekStart, locale: locale, zone: zone)
        signedIn = user != nil
        hidden = false
        neighbours = []
        showNeighbours = false
    }
}

extension LeaderboardPage.Board {
    init(
        exam: (id: Int, title: String, language: String), region: String, slug: String, period: LeaderboardPeriod, page: Int, total: Int,
        entries: [LeaderboardEntry], refreshedAt: Date?, pages: PageRenderer, locale: String
    ) {
        let base = "/exams/\(region)/\(slug)/leaderboard"
        examTitle = exam.title
        language = exam.language
        examHref = "/exams/\(region)/\(slug)"
        tabs = LeaderboardPeriod.allCases.map { tab in
            LeaderboardPage.Tab(label: pages.message("leaderboard.period.\(tab.rawValue)", locale: locale), href: "\(base)?window=\(tab.rawValue)", current: tab == period)
        }
        updated = refreshedAt.map { pages.ago($0, locale: locale) }
        rows = entries.map(LeaderboardPage.Row.init)
        hasRows = !rows.isEmpty
        self.total = total
        self.page = page
        self.pages = max(1, (total + LeaderboardPage.pageSize - 1) / LeaderboardPage.pageSize)
        previousHref = page > 1 ? "\(base)?window=\(period.rawValue)&page=\(min(page - 1, self.pages))" : nil
        nextHref = page < self.pages ? "\(base)?window=\(period.rawValue)&page=\(page + 1)" : nil
        beyondEnd = entries.isEmpty && total > 0
    }
}
