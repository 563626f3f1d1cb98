import Foundation

/// The time zones a student picks from in settings: the IANA zones of the machine's tz
/// database (`TimeZone.knownTimeZoneIdentifiers`), grouped by region for a `<select>`, and UTC.
/// The database stays the judge of what may be saved (`pg_timezone_names`); a city typed by
/// hand ("Tokyo") is read as the one zone named after it.
enum TimeZoneChoices {
    /// The regions the tz database names its zones by, in the order the list shows them.
    static let regions = ["Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"]

    struct Zone: Encodable, Sendable {
        var id: String
        var label: String
        var selected: Bool
    }

    struct Group: Encodable, Sendable {
        var region: String
        var zones: [Zone]
    }

    /// Every zone under a region, sorted by name, computed once.
    static let zones: [String] = TimeZone.knownTimeZoneIdentifiers.filter { name in
        guard let slash = name.firstIndex(of: "/") else { return false }
        return regions.contains(String(name[..<slash]))
    }.sorted()

    /// The groups for a `<select>`, with `selected` chosen (UTC first, on its own).
    static func groups(selected: String) -> [Group] {
        var groups = [Group(region: "UTC", zones: [Zone(id: "UTC", label: "UTC", selected: selected == "UTC")])]
        for region in regions {
            let prefix = region + "/"
            let members = zones.filter { $0.hasPrefix(prefix) }.map { name in
                Zone(id: name, label: name.dropFirst(prefix.count).replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "/", with: " / "),
                     selected: name == selected)
            }
            if !members.isEmpty { groups.append(Group(region: region, zones: members)) }
        }
        // A saved zone outside the list (an alias such as "US/Eastern") stays selectable.
        if selected != "UTC", !zones.contains(selected) {
            groups.insert(Group(region: selected, zones: [Zone(id: selected, label: selected, selected: true)]), at: 1)
        }
        return groups
    }

    /// The zone most readers of an interface language live in, chosen in a list before the
    /// browser's own is known (or when no script runs to tell it): English is read everywhere, so UTC.
    static func likeliest(for locale: String) -> String {
        ["de": "Europe/Berlin", "es": "Europe/Madrid", "it": "Europe/Rome", "ja": "Asia/Tokyo", "th": "Asia/Bangkok", "zh": "Asia/Shanghai"][locale] ?? "UTC"
    }

    /// The zone `typed` names: itself, or the one zone whose city it is ("tokyo", "New York").
    static func resolve(_ typed: String) -> String {
        let trimmed = typed.trimmingCharacters(in: .whitespaces)
        guard !trimmed.contains("/"), !trimmed.isEmpty, trimmed.uppercased() != "UTC" else { return trimmed }
        let city = trimmed.replacingOccurrences(of: " ", with: "_").lowercased()
        let matches = zones.filter { $0.split(separator: "/").last.map { $0.lowercased() == city } ?? false }
        return matches.count == 1 ? matches[0] : trimmed
    }
}
