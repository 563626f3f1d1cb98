import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// `GET /exams/{region}/{exam}/leaderboard?window=week|all&page=N`: a page of the board, when
/// it was computed, and the signed-in student's own place with their neighbours.
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

    var examTitle: String
    var language: String
    var examHref: String
    var tabs: [Tab]
    var isWeek: Bool
    var weekStarts: String
    var timeZone: String
    var updated: String?
    var rows: [Row]
    var hasRows: Bool
    var total: Int
    var page: Int
    var pages: Int
    var previousHref: String?
    var nextHref: String?
    var signedIn: Bool
    var hidden: Bool
    var neighbours: [Row]
    var showNeighbours: Bool
    var viewerRank: Int?
    var beyondEnd: Bool

    static let pageSize = 25
    static let radius = 2

    /// The week's start as readers see it, kept per week, language and time zone: a
    /// `DateFormatter` costs more to make than the rest of the page.
    private static let weekStartTexts = WeekStartTexts()

    private final class WeekStartTexts: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String: String] = [:]

        func text(_ key: String, make: () -> String) -> String {
            if let text = lock.withLock({ texts[key] }) { return text }
            let text = make()
            lock.withLock {
                if texts.count > 1_000 { texts.removeAll() }
                texts[key] = text
            }
            return text
        }
    }

    static func weekStartText(_ weekStart: Date, locale: String, zone: TimeZone) -> String {
        weekStartTexts.text("\(weekStart.timeIntervalSince1970)|\(locale)|\(zone.identifier)") {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = zone
            formatter.dateStyle = .full
            formatter.timeStyle = .short
            return formatter.string(from: weekStart)
        }
    }

    static func handler(pages: PageRenderer, cache: PageCache) -> @Sendable (PortalRequest) throws -> Response {
        { request in
            let locale = pages.locale(for: request)
            let region = request.parameter("region"), slug = request.parameter("exam")
            let query = request.query
            guard let period = LeaderboardPeriod(rawValue: query["window"] ?? "week") else {
                throw HTTPError(.badRequest, pages.message("leaderboard.bad_window", locale: locale, ["value": String((query["window"] ?? "").prefix(20))]))
            }
            guard let page = Int(query["page"] ?? "1"), (1...100_000).contains(page) else {
                throw HTTPError(.badRequest, pages.message("leaderboard.bad_page", locale: locale, ["value": String((query["page"] ?? "").prefix(20))]))
            }
            let user = request.user
            // Visitors all see the same page until the next refresh: cache it by that time.
            let key = user == nil ? "board|\(region)|\(slug)|\(period.rawValue)|\(page)|\(locale)" : nil
            let bytes = try cache.freshOrStale(key: key) { try request.database.run { connection -> [UInt8] in
                let store = LeaderboardStore()
                guard let exam = try ExamCatalog().examHeading(region: region, slug: slug, connection) else {
                    throw HTTPError(.notFound, pages.message("error.no_exam", locale: locale, ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))]))
                }
                let refreshedAt = try store.refreshedAt(connection)
                return try cache.page(key: key, version: refreshedAt ?? .distantPast, now: pages.clock()) {
                    let total = try store.size(examID: exam.id, period: period, connection)
                    let entries = try store.page(examID: exam.id, period: period, offset: (page - 1) * pageSize, limit: pageSize, connection)
                    let around = user == nil ? [] : try store.aroundViewer(examID: exam.id, period: period, radius: radius, connection)
                    let hidden = try user.map { _ in !(try AccountStore().settings(connection)?.showOnLeaderboard ?? false) } ?? false
                    let value = LeaderboardPage(
                        exam: exam, region: region, slug: slug, period: period, page: page, total: total, entries: entries, around: around,
                        refreshedAt: refreshedAt, user: user, hidden: hidden, pages: pages, locale: locale)
                    return try pages.render("exams/leaderboard", value, locale: locale, viewer: key == nil ? request.viewer : .anonymous)
                }
            } }
            return Response.html(bytes)
        }
    }

    init(
        exam: (id: Int, title: String, language: String), region: String, slug: String, period: LeaderboardPeriod, page: Int, total: Int,
        entries: [LeaderboardEntry], around: [LeaderboardEntry], refreshedAt: Date?, user: SessionUser?, hidden: Bool,
        pages: PageRenderer, locale: String
    ) {
        let base = "/exams/\(region)/\(slug)/leaderboard"
        examTitle = exam.title
        language = exam.language
        examHref = "/exams/\(region)/\(slug)"
        tabs = LeaderboardPeriod.allCases.map { tab in
            Tab(label: pages.message("leaderboard.period.\(tab.rawValue)", locale: locale), href: "\(base)?window=\(tab.rawValue)", current: tab == period)
        }
        isWeek = period == .week
        let zone = TimeZone(identifier: user?.timeZone ?? "UTC") ?? .gmt
        timeZone = zone.identifier
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = .gmt
        let weekStart = calendar.dateInterval(of: .weekOfYear, for: pages.clock())?.start ?? pages.clock()
        weekStarts = Self.weekStartText(weekStart, locale: locale, zone: zone)
        updated = refreshedAt.map { pages.ago($0, locale: locale) }
        rows = entries.map(Row.init)
        hasRows = !rows.isEmpty
        self.total = total
        self.page = page
        self.pages = max(1, (total + Self.pageSize - 1) / Self.pageSize)
        previousHref = page > 1 ? "\(base)?window=\(period.rawValue)&page=\(min(page - 1, self.pages))" : nil
        nextHref = page < self.pages ? "\(base)?window=\(period.rawValue)&page=\(page + 1)" : nil
        signedIn = user != nil
        self.hidden = hidden
        neighbours = around.map(Row.init)
        showNeighbours = !around.isEmpty && !entries.contains { $0.isViewer }
        viewerRank = around.first { $0.isViewer }?.rank
        beyondEnd = entries.isEmpty && total > 0
    }
}
