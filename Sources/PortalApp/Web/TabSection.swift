/// Which of the main destinations (the phone's tab bar, the header's links) a page belongs to,
/// so that the bar marks where the reader is (`aria-current`). Decided by the page's template:
/// one table, here, for every page.
enum TabSection: String, CaseIterable {
    case study, review, progress, classes, account

    /// The section of the page drawn from `template`, or nil for a page outside all of them
    /// (admin, a live event, signing in).
    static func of(template: String) -> TabSection? {
        switch template {
        case "home", "exams/show", "exams/leaderboard", "sessions/question", "sessions/finish", "sessions/results": .study
        case "me/review": .review
        case "me/dashboard", "me/rhythm": .progress
        case "teach/index", "teach/class", "teach/roster", "teach/accounts", "teach/cards", "teach/my-classes", "teach/join", "teach/enter-code",
             "teach/remove", "teach/revoke", "teach/share", "teach/link-created": .classes
        case "me/settings", "me/delete": .account
        default: nil
        }
    }
}
