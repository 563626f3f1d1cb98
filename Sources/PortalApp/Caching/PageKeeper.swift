import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// Keeps the pages declared as kept (`CachedPage`) and answers from their copies: visitors'
/// copies (one per language, rendered for nobody), readers' copies (one per sign-in, whole or
/// with holes each showing fills in), their gzip, and the versions that name them. Handlers
/// build pages; this is the one place that names, finds and keeps their copies.
///
/// A request is answered two ways. On the event loop (`loopAnswer`), when the reader (if any)
/// and every version the page depends on are remembered and the copy is kept: no worker, no
/// database. Otherwise on a worker (`respond`): the versions are read when not remembered, the
/// copy is found or built and kept.
struct PageKeeper: Sendable {
    let pages: PageRenderer
    /// Visitors' copies.
    let visitorPages: PageCache
    let viewers: ViewerCache
    let versions: SharedVersions
    let readers: ReaderVersions
    let classes: ClassVersions
    let sessionCookie: String
    /// A guest's cookie: their running sessions are on pages a visitor's copy cannot show.
    let guestCookie: String
    let clock: @Sendable () -> Date
    /// Development: say "no database" as the gate would (`X-Database-Round-Trips`).
    let countsRoundTrips: Bool
    /// Readers' pages with holes for what changes with each showing (`keptWithHoles`).
    private let pagesWithHoles: KeptValues<SplicedDocument>

    init(
        pages: PageRenderer, visitorPages: PageCache, viewers: ViewerCache, versions: SharedVersions, readers: ReaderVersions, classes: ClassVersions,
        sessionCookie: String, guestCookie: String, clock: @escaping @Sendable () -> Date, countsRoundTrips: Bool
    ) {
        (self.pages, self.visitorPages, self.viewers, self.versions, self.readers, self.classes) = (pages, visitorPages, viewers, versions, readers, classes)
        (self.sessionCookie, self.guestCookie, self.clock, self.countsRoundTrips) = (sessionCookie, guestCookie, clock, countsRoundTrips)
        pagesWithHoles = KeptValues(budget: 16 << 20, maximumAge: 60, patience: 5, clock: clock, size: \.size)
    }

    // MARK: On the event loop

    /// The kept copy of the page `declare` declares for the request's reader (nil for a visitor),
    /// or nil for the gate and a worker to answer: a reader not remembered, a version not
    /// remembered, a copy not kept, a request the page does not keep (`declare` says nil).
    func loopAnswer(_ request: Request, _ declare: (SessionUser?) -> CachedPage?) -> Response? {
        let gzip = Gzip.isAccepted(by: request.headers["Accept-Encoding"])
        guard request.cookie(sessionCookie) != nil else {
            let locale = LocaleNegotiation.choose(userSetting: nil, headers: request.headers, available: pages.templates.locales)
            guard let page = declare(nil), page.visitors == .kept, let found = remembered(page, for: nil),
                  let kept = visitorPages.current(key: Self.visitorKey(page, locale: locale), version: found.shared, now: clock(), gzipped: gzip)
            else { return nil }
            var response = Response.html(kept.bytes)
            // The copy is the one for the reader's language (their cookie, else Accept-Language).
            response.headers.add("Vary", "Accept-Encoding, Accept-Language, Cookie")
            if kept.isGzip { response.headers.add("Content-Encoding", "gzip") }
            return response
        }
        return readerAnswer(request) { user, locale in
            guard let page = declare(user), page.readers == .kept, let found = remembered(page, for: user) else { return nil }
            return keptCopy(user, locale: locale, key: page.key(found), gzip: gzip)?.response
        }
    }

    /// A signed-in reader's answer made on the event loop by `answer` from what is kept for them
    /// (in their language), or nil: for a page that is more than a kept copy (one with holes).
    func readerAnswer(_ request: Request, _ answer: (SessionUser, _ locale: String) -> Response?) -> Response? {
        guard let token = request.cookie(sessionCookie), let user = viewers.user(token: token, now: clock()) else { return nil }
        let locale = LocaleNegotiation.choose(userSetting: user.locale, headers: request.headers, available: pages.templates.locales)
        guard var response = answer(user, locale) else { return nil }
        if countsRoundTrips { response.headers.set("X-Database-Round-Trips", "0") }
        return response
    }

    /// The versions of `page`'s dependencies for `user` (nil: a visitor) if every one is
    /// remembered now and exists; nothing is read.
    func remembered(_ page: CachedPage, for user: SessionUser?) -> PageVersions? {
        var found = PageVersions()
        for dependency in page.dependencies(forReader: user != nil) {
            switch dependency {
            case .catalogue, .exam, .leaderboardRefresh:
                guard let key = dependency.sharedKey, let version = versions.remembered([key]) else { return nil }
                found.set(dependency, version)
            case .readerData:
                guard let user, let version = readers.remembered(user.userID) else { return nil }
                found.readerData = version
            case .schoolClass(let id):
                guard let version = classes.remembered(id), !version.isEmpty else { return nil }
                found.schoolClass = version
            }
        }
        return found
    }

    // MARK: On a worker

    /// The page for this request: its kept copy, or `build`'s page, kept when the declaration
    /// says so and everything it depends on exists. `build` is given the versions the page is
    /// built from and the viewer to render it for: `Viewer.anonymous` for a copy every visitor
    /// shares (no name, no token), else the request's. A visitor whose page cannot be read now
    /// (the database out of reach) gets its last copy.
    func respond(_ request: PortalRequest, _ page: CachedPage, build: (PageVersions, Viewer) throws -> [UInt8]) throws -> Response {
        try respond(request, page, alongside: []) { versions, viewer, _ in try build(versions, viewer) }
    }

    /// `respond`, with a reader's `statements` read in the same flight as the first version that
    /// must be read (`versions(_:_:alongside:)`): `build` is given their results then (nil
    /// otherwise, and for a visitor).
    func respond(
        _ request: PortalRequest, _ page: CachedPage, alongside statements: [SQL], build: (PageVersions, Viewer, [QueryResult]?) throws -> [UInt8]
    ) throws -> Response {
        guard let user = request.user else {
            let key = page.visitors == .kept ? Self.visitorKey(page, locale: pages.locale(for: request)) : nil
            return try visitorPages.freshOrStale(key: key) {
                let found = try versions(request, page).versions
                guard let key, found.isComplete else { return KeptPage(bytes: try build(found, request.viewer, nil), isGzip: false) }
                return KeptPage(bytes: try visitorPages.page(key: key, version: found.shared, now: clock()) { try build(found, .anonymous, nil) }, isGzip: false)
            }.html
        }
        let (found, results) = try versions(request, page, alongside: statements)
        return try readerPage(request, user, page, found) { try build(found, request.viewer, results) }
    }

    /// A reader's page whose versions the handler already has (read with its own statements,
    /// `versions(_:_:alongside:)`): the kept copy, or `render`'s, kept when the declaration says so.
    func readerPage(_ request: PortalRequest, _ user: SessionUser, _ page: CachedPage, _ found: PageVersions, render: () throws -> [UInt8]) throws -> Response {
        guard page.readers == .kept, found.isComplete else { return KeptPage(bytes: try render(), isGzip: false).response }
        let plainKey = Self.readerKey(user, locale: pages.locale(for: request), key: page.key(found))
        let plain = try pages.fragments.fragment(plainKey, render: render)
        guard Gzip.isAccepted(by: request.headers["Accept-Encoding"]) else { return KeptPage(bytes: plain, isGzip: false).response }
        // Compressing each time would cost more than the page: the gzipped copy is kept beside it.
        let zipped = try pages.fragments.fragment(plainKey + "|gzip") { Gzip.compress(plain, level: Gzip.keptLevel) ?? [] }
        return Self.smaller(plain, zipped).response
    }

    /// The versions of `page`'s dependencies for the request's reader: remembered, or read now.
    /// `statements` are read in the same flight as the first version that must be read (the
    /// reader's data version, a class's): their results are returned then; else nil, and the
    /// caller reads them if it needs.
    func versions(_ request: PortalRequest, _ page: CachedPage, alongside statements: [SQL] = []) throws -> (versions: PageVersions, results: [QueryResult]?) {
        var found = PageVersions(), results: [QueryResult]?
        let catalog = ExamCatalog()
        for dependency in page.dependencies(forReader: request.user != nil) {
            switch dependency {
            case .catalogue:
                found.catalogue = try versions.catalogue { try request.database.shared { try catalog.catalogVersion($0) } }
            case .exam(let exam):
                found.exam = try versions.exam(exam) { try request.database.shared { try catalog.examVersion(region: exam.region, slug: exam.slug, $0) } }
                if found.exam == nil { found.isComplete = false }
            case .leaderboardRefresh:
                // Never refreshed is a version too (the first refresh's notice replaces it).
                found.leaderboardRefresh = try versions.leaderboard {
                    try request.database.shared { try LeaderboardStore().refreshedAt($0) } ?? .distantPast
                }
            case .readerData:
                guard let user = request.user else { continue }
                found.readerData = try readers.version(user.userID) {
                    let read = try request.database.read([AccountStore.dataVersionStatement] + (results == nil ? statements : []))
                    if results == nil && !statements.isEmpty { results = Array(read.dropFirst()) }
                    return try AccountStore.dataVersion(read[0])
                }
            case .schoolClass(let id):
                found.schoolClass = try classes.version(id) {
                    let read = try request.database.read([SchoolStore.classVersionMembersStatement(classID: id)] + (results == nil ? statements : []))
                    if results == nil && !statements.isEmpty { results = Array(read.dropFirst()) }
                    return try SchoolStore.classVersionMembers(read[0])
                }
                if found.schoolClass?.isEmpty ?? true { found.isComplete = false }
            }
        }
        return (found, results)
    }

    // MARK: Pages with holes

    /// A reader's page kept with holes where each showing puts its own values (a form's
    /// one-time answer id, the signed moment it was shown): `render` makes it with `markers` in
    /// their places, and `showing` fills them in without rendering or compressing it again.
    func keptWithHoles(
        _ request: PortalRequest, _ user: SessionUser, _ page: CachedPage, _ found: PageVersions, markers: [String], render: () throws -> [UInt8]
    ) throws -> SplicedDocument {
        try pagesWithHoles.value(Self.readerKey(user, locale: pages.locale(for: request), key: page.key(found))) {
            SplicedDocument(try render(), markers: markers.map { Array($0.utf8) })
        }
    }

    /// The reader's page with holes if it is kept now (nothing is rendered), for the event loop.
    func keptWithHoles(_ user: SessionUser, locale: String, _ page: CachedPage, _ found: PageVersions) -> SplicedDocument? {
        pagesWithHoles.kept(Self.readerKey(user, locale: locale, key: page.key(found)))
    }

    /// One showing of a page with holes, `values` in them, gzipped for a browser that takes it.
    static func showing(_ document: SplicedDocument, _ values: [[UInt8]], _ headers: HTTPHeaders) -> Response {
        let gzip = Gzip.isAccepted(by: headers["Accept-Encoding"])
        return KeptPage(bytes: gzip ? document.gzip(values) : document.plain(values), isGzip: gzip).response
    }

    // MARK: Names of copies

    /// The reader's kept page under `key` if it is kept now (nothing is rendered).
    private func keptCopy(_ user: SessionUser, locale: String, key: String, gzip: Bool) -> KeptPage? {
        let plainKey = Self.readerKey(user, locale: locale, key: key)
        guard let plain = pages.fragments.kept(plainKey) else { return nil }
        guard gzip else { return KeptPage(bytes: plain, isGzip: false) }
        // No gzipped copy yet: a worker makes one.
        guard let zipped = pages.fragments.kept(plainKey + "|gzip") else { return nil }
        return Self.smaller(plain, zipped)
    }

    /// The gzipped copy unless it came out empty or no smaller.
    private static func smaller(_ plain: [UInt8], _ zipped: [UInt8]) -> KeptPage {
        zipped.isEmpty || zipped.count >= plain.count ? KeptPage(bytes: plain, isGzip: false) : KeptPage(bytes: zipped, isGzip: true)
    }

    /// Where a visitor's copy is kept: the page's name and the language (its version is kept
    /// with it, so the last copy can stand in while the database is out of reach).
    private static func visitorKey(_ page: CachedPage, locale: String) -> String { "\(page.name)|\(locale)" }

    /// Where a reader's copy is kept: their sign-in, role, name, zone and language (the page's
    /// header and forms carry them) and the copy's own name.
    private static func readerKey(_ user: SessionUser, locale: String, key: String) -> String {
        // Everything of the reader's the layout shows: a kept page is theirs as it looks now.
        "page|\(user.sessionID.lowercasedText)|\(user.role.rawValue)|\(user.displayName)|\(user.timeZone)|\(locale)|\(user.colorScheme.rawValue)|"
            + "\(user.hidesReadings)|\(user.readsAloud)|" + key
    }
}

extension PageVersions {
    /// Sets a shared dependency's version.
    fileprivate mutating func set(_ dependency: PageDependency, _ version: Date) {
        switch dependency {
        case .catalogue: catalogue = version
        case .exam: exam = version
        case .leaderboardRefresh: leaderboardRefresh = version
        case .readerData, .schoolClass: break
        }
    }
}
