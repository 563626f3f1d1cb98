/// Picks the interface language for a request: the user's setting, then `Accept-Language`,
/// then English.
enum LocaleNegotiation {
    static func choose(userSetting: String?, acceptLanguage: String?, available: [String]) -> String {
        if let userSetting, available.contains(userSetting) { return userSetting }
        var best: (locale: String, quality: Double)?
        for item in (acceptLanguage ?? "").split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { quality = value }
            }
            let language = String(tag.split(separator: "-").first ?? "")
            guard quality > 0, let match = available.first(where: { $0 == tag || $0 == language }) else { continue }
            if best == nil || quality > best!.quality { best = (match, quality) }
        }
        return best?.locale ?? "en"
    }
}

import Foundation
