import ExamData
import Foundation

/// What a send of the settings form changes, named by its fields, and the confirmation that
/// names them ("Saved: display name, time zone.").
struct SettingsChanges {
    /// The fields whose value changed, in the page's order.
    let names: [String]

    /// The fields of the profile's one statement.
    static let profileFields = ["display_name", "time_zone", "show_on_leaderboard"]
    /// Every field, in the page's order, with its name in the confirmation (`account.changed_…`).
    static let labels: [(field: String, key: String)] = [
        "display_name", "time_zone", "show_on_leaderboard", "language", "color_scheme", "hides_readings", "reads_aloud", "desired_retention",
    ]
        .map { ($0, "account.changed_" + $0) }

    init(account: AccountSettings, user: SessionUser, typed: AccountPages.TypedSettings) {
        var changed: Set<String> = []
        if let name = typed.displayName, name != account.displayName { changed.insert("display_name") }
        if let zone = typed.timeZone, zone != account.timeZone { changed.insert("time_zone") }
        if let shown = typed.showOnLeaderboard, shown != account.showOnLeaderboard { changed.insert("show_on_leaderboard") }
        if let language = typed.language, language != (user.locale ?? "") { changed.insert("language") }
        if let scheme = typed.colorScheme, scheme != user.colorScheme { changed.insert("color_scheme") }
        if let hides = typed.hidesReadings, hides != user.hidesReadings { changed.insert("hides_readings") }
        if let reads = typed.readsAloud, reads != account.readsAloud { changed.insert("reads_aloud") }
        if let retention = typed.retention, abs(retention - account.desiredRetention) > 0.0001 { changed.insert("desired_retention") }
        names = Self.labels.map(\.field).filter(changed.contains)
    }

    /// Whether the profile's statement has anything to write.
    var profile: Bool { names.contains(where: Self.profileFields.contains) }

    /// The notice for `?saved=`: the changed fields named, "nothing changed", or the plain
    /// "saved" for anything else (an address from before).
    static func confirmation(_ saved: String, pages: PageRenderer, locale: String) -> String {
        if saved == "nothing" { return pages.message("account.saved_nothing", locale: locale) }
        let fields = Set(saved.split(separator: ",").map(String.init))
        let named = labels.filter { fields.contains($0.field) }.map { pages.message($0.key, locale: locale) }
        guard !named.isEmpty else { return pages.message("account.saved", locale: locale) }
        return pages.message("account.saved_changes", locale: locale, ["changes": named.joined(separator: pages.message("account.list_separator", locale: locale))])
    }
}
