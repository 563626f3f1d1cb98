/// How one page is kept in memory, declared in one place beside the page: its name (the
/// address and whatever in the request changes the page), what it is built from, and who
/// shares a copy. Both ways a page is answered read the same declaration — the event loop's
/// (`PageKeeper.loopAnswer`, nothing read) and a worker's (`PageKeeper.respond`, versions read
/// when not remembered) — so a copy's name is written once.
///
/// What a copy must never carry across readers is the keeper's rule, not the page's: a visitor's
/// copy is rendered for nobody (no name, no token) and shared per language; a reader's copy is
/// kept for their own sign-in, role, name, zone and language (`PageRenderer.keptForReader`).
struct CachedPage: Sendable {
    /// Who a showing is for, and whether it is kept.
    enum Keeping: Sendable {
        /// Kept: one copy per language for visitors, one per sign-in for readers.
        case kept
        /// Built for each showing (a page that says something for this visit only, or that
        /// reads what no version names, such as a teacher's classes on an exam page).
        case builtEachTime
    }

    /// The page's own name among kept copies: its address and the request's parameters that
    /// change it (`exam|europe|network-fundamentals|0`).
    let name: String
    /// What the page is built from; a visitor's copy depends on the shared ones only.
    let dependsOn: [PageDependency]
    /// Visitors' copies (a page only readers see is never asked for by a visitor).
    var visitors: Keeping = .kept
    /// Signed-in readers' copies.
    var readers: Keeping = .kept

    /// A kept copy's full name (before the keeper adds the reader's sign-in or the language).
    func key(_ versions: PageVersions) -> String { "\(name)|\(versions.key)" }

    /// The dependencies a showing for a visitor (`forReader` false) or a reader depends on.
    func dependencies(forReader: Bool) -> [PageDependency] {
        forReader ? dependsOn : dependsOn.filter(\.isShared)
    }
}
