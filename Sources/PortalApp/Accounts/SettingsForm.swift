import ExamData
import Foundation
import HTTPServer

/// The settings page's one form (`POST /me/settings`; also the former separate forms' addresses):
/// what it sent of each setting, typed, and a problem beside each field it cannot take. A
/// field left out stays as it is (nil). The time zone and the language are checked against
/// what the database and the site know by the handler.
struct SettingsForm: PostedForm {
    var typed = AccountPages.TypedSettings()
    /// The time zone chosen, resolved from its aliases; nil when not sent.
    let timeZone: String?
    /// The language chosen ("" for "as my browser prefers"); nil when not sent.
    let language: String?
    private(set) var problems: [FormProblem] = []
    /// The dashboard's question about the zone sent it: the answer goes back there.
    let returnsToDashboard: Bool

    init(_ form: FormReader) throws(PageRefusal) {
        if let text = form.optional("display_name") {
            let name = text.trimmingCharacters(in: .whitespaces)
            typed.displayName = String(name.prefix(200))
            if name.isEmpty || name.count > 80 { problems.append(FormProblem("display_name", "account.display_name_invalid")) }
        }
        timeZone = form.optional("time_zone").map(TimeZoneChoices.resolve)
        // A checkbox sends nothing when it is off: the profile's fields say the form was the page's.
        if form.has("display_name") || form.has("show_on_leaderboard") { typed.showOnLeaderboard = form.isOn("show_on_leaderboard") }
        language = form.optional("language")
        if let text = form.optional("color_scheme") {
            if let scheme = ColorScheme(rawValue: text) { typed.colorScheme = scheme } else { problems.append(FormProblem("color_scheme", "account.scheme_invalid")) }
            // The appearance's checkbox sends nothing when off: its section's radio says it was sent.
            typed.hidesReadings = form.isOn("hides_readings")
            typed.readsAloud = form.isOn("reads_aloud")
        }
        if let text = form.optional("desired_retention") {
            if let value = Double(text), let chosen = AccountStore.retentionChoices.first(where: { abs($0 - value) < 0.0001 }) {
                typed.retention = chosen
            } else {
                problems.append(FormProblem("desired_retention", "account.retention_invalid"))
            }
        }
        returnsToDashboard = form.text("return") == "dashboard"
    }

    /// Takes the time zone, or says it is not one the database knows.
    mutating func check(timeZone known: Bool) {
        guard let timeZone else { return }
        if known { typed.timeZone = timeZone } else { problems.append(FormProblem("time_zone", "account.time_zone_invalid")) }
    }

    /// Takes the language, or says it is not one the site speaks.
    mutating func check(languages: Set<String>) {
        guard let language else { return }
        if language.isEmpty || languages.contains(language) { typed.language = language } else { problems.append(FormProblem("language", "account.language_invalid")) }
    }
}

/// The password form of the settings page.
struct PasswordChangeForm: PostedForm {
    let current: String
    let new: String

    init(_ form: FormReader) throws(PageRefusal) {
        (current, new) = (form.text("current_password"), form.text("new_password"))
    }
}
