import Foundation

/// The names a teacher pastes to make a class's accounts: one a line, or rows copied from a
/// spreadsheet or a CSV file, whose first two columns (split at tabs, semicolons or commas)
/// make the name ("Rossi;Pia" → "Rossi Pia"). Blank lines and a header row ("name", "first
/// name", …) are left out.
struct NameList: Equatable {
    /// The names, trimmed, in the order given.
    let names: [String]

    init(_ text: String) {
        var names: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == ";" || $0 == "," })
                .map { $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\""))) }
                .filter { !$0.isEmpty }
            guard !fields.isEmpty else { continue }
            let name = fields.prefix(2).joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if names.isEmpty && Self.isHeader(fields) { continue }
            names.append(name)
        }
        self.names = names
    }

    private static func isHeader(_ fields: [String]) -> Bool {
        let headings: Set<String> = ["name", "names", "first name", "last name", "surname", "given name", "family name", "student", "nome", "cognome",
                                     "nombre", "apellido", "apellidos", "vorname", "nachname", "名前", "氏名", "姓名", "ชื่อ"]
        return fields.allSatisfy { headings.contains($0.lowercased()) }
    }

    /// A username to suggest for `name`: in Latin letters without accents, lower case, words
    /// joined by dots ("Pia Rossi" → "pia.rossi", "José Núñez" → "jose.nunez", "やまだ はなこ" →
    /// "yamada.hanako"); "student" for a name with no letters at all. The database adds a number
    /// where it is taken.
    static func username(for name: String) -> String {
        // Any script into Latin letters first (ICU's transliterator): a class of Japanese or Thai
        // names gets usernames that say whose they are, not "student", "student2", …
        let latin = name.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false) ?? name
        let folded = latin.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en")).lowercased()
        var words: [String] = []
        for word in folded.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) where !word.isEmpty {
            words.append(String(word))
        }
        let joined = String(words.joined(separator: ".").prefix(30)).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return joined.count >= 2 ? joined : "student"
    }
}
