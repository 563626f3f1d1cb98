import Foundation

/// What a kept page is built from. Each has a version; a kept copy is named by the versions of
/// everything its page depends on, so a change to any of them makes a new copy and the old one
/// is simply no longer asked for. A page declares its dependencies once (`CachedPage`);
/// `PageKeeper` finds their versions — remembered, or read from the database.
enum PageDependency: Sendable, Hashable {
    /// The catalogue: regions, exams and their counts.
    case catalogue
    /// One exam's content: its description, domains and questions.
    case exam(ExamAddress)
    /// The leaderboard's last refresh.
    case leaderboardRefresh
    /// The signed-in reader's own data (answers, settings, exam dates, accommodation): their
    /// data version. A visitor has none, so a visitor's copy never depends on it.
    case readerData
    /// A class the reader teaches: its members' data and its own.
    case schoolClass(UUID)

    /// Whether the dependency is the same for every reader (a visitor's copy may depend on it).
    var isShared: Bool { sharedKey != nil }

    /// The name of a shared version in `SharedVersions`.
    var sharedKey: String? {
        switch self {
        case .catalogue: SharedVersions.catalogueKey
        case .exam(let exam): SharedVersions.examKey(exam)
        case .leaderboardRefresh: SharedVersions.leaderboardKey
        case .readerData, .schoolClass: nil
        }
    }
}

/// The versions of a page's dependencies for one showing, as `PageKeeper` found them. A
/// dependency the page does not declare is nil.
struct PageVersions: Sendable {
    var catalogue: Date?
    /// Nil also when the exam does not exist (the page answers 404).
    var exam: Date?
    /// `distantPast` while the board was never refreshed (that is a version too).
    var leaderboardRefresh: Date?
    var readerData: Int64?
    /// Nil also when the reader may not see the class (the page refuses afresh, nothing kept).
    var schoolClass: String?
    /// Whether every declared dependency exists for this reader: only then is a copy kept.
    var isComplete = true

    /// The latest of the shared versions: what a part every reader shares is kept by.
    var shared: Date { max(catalogue ?? .distantPast, exam ?? .distantPast, leaderboardRefresh ?? .distantPast) }

    /// The part of a kept copy's name the versions make.
    var key: String { "\(shared.timeIntervalSince1970)|\(readerData ?? -1)|\(schoolClass ?? "")" }
}
