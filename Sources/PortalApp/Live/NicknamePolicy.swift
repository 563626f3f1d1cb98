/// What a live-event nickname may be: 2 to 24 characters of text (no control characters, no
/// links or addresses), and nothing from a short list of obvious abuse. A classroom projector
/// shows these names, so the filter errs on the side of refusing.
enum NicknamePolicy {
    static let blocked = [
        "fuck", "shit", "cunt", "nigg", "fag", "bitch", "whore", "slut", "nazi", "hitler", "porn", "penis", "pussy",
        "dick", "rape", "retard", "wank", "twat", "cock", "kys",
    ]

    /// The message-catalogue key of the problem, or nil for an acceptable nickname.
    static func problem(_ nickname: String) -> String? {
        guard (2...24).contains(nickname.count) else { return "live.nickname_length" }
        if nickname.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            return "live.nickname_characters"
        }
        // Letters only, with the usual digit-for-letter swaps undone ("sh1t" is "shit").
        let swaps: [Character: Character] = ["0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "$": "s", "@": "a", "!": "i"]
        let folded = String(nickname.lowercased().compactMap { character -> Character? in
            if let swapped = swaps[character] { return swapped }
            return character.isLetter ? character : nil
        })
        if nickname.lowercased().contains("http") || nickname.contains("@") || nickname.contains("://") || nickname.lowercased().contains("www.") {
            return "live.nickname_link"
        }
        if blocked.contains(where: { folded.contains($0) }) { return "live.nickname_blocked" }
        return nil
    }
}
