import HTTPServer

/// Picks the interface language for a request: the signed-in user's own setting, then the
/// language switcher's cookie (a visitor's choice), then `Accept-Language` by its q-values, then
/// English. A tag matches a catalogue by its language (`ja-JP` → `ja`); every Chinese tag
/// (`zh-CN`, `zh-Hans`, `zh-TW`) takes the Simplified Chinese one, the only Chinese there is; a
/// language without a catalogue (`pt`) gives way to the next one the reader accepts.
enum LocaleNegotiation {
    /// The switcher's cookie.
    static let cookieName = "portal_lang"

    /// The languages the portal speaks, each named in itself, in the switcher's order.
    static let names: [(code: String, name: String)] = [
        ("en", "English"), ("de", "Deutsch"), ("es", "Español"), ("it", "Italiano"), ("ja", "日本語"), ("th", "ไทย"), ("zh", "简体中文"),
    ]

    /// The language for a request's headers (its cookie and `Accept-Language`) and the user's setting.
    static func choose(userSetting: String?, headers: HTTPHeaders, available: [String]) -> String {
        choose(
            userSetting: userSetting, cookie: Cookies.value(cookieName, in: headers.values("Cookie")),
            acceptLanguage: headers["Accept-Language"], available: available)
    }

    static func choose(userSetting: String?, cookie: String? = nil, acceptLanguage: String?, available: [String]) -> String {
        if let userSetting, available.contains(userSetting) { return userSetting }
        if let cookie, available.contains(cookie) { return cookie }
        var best: (locale: String, quality: Double)?
        for item in (acceptLanguage ?? "").split(separator: ",").prefix(32) {
            let parts = item.split(separator: ";")
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)), (0...1).contains(value) { quality = value }
            }
            // The first of equal qualities wins: browsers list the preferred one first.
            guard quality > 0, let match = catalogue(for: tag, available: available), best.map({ quality > $0.quality }) ?? true else { continue }
            best = (match, quality)
        }
        return best?.locale ?? "en"
    }

    /// The catalogue a language tag reads best in, if any.
    static func catalogue(for tag: String, available: [String]) -> String? {
        if available.contains(tag) { return tag }
        let language = String(tag.split(separator: "-").first ?? "")
        return available.contains(language) ? language : nil
    }

    /// The `lang` attribute of a page in `locale`: Chinese is written in Simplified characters.
    static func htmlLanguage(_ locale: String) -> String { locale == "zh" ? "zh-Hans" : locale }
}
