import PostgresClient

/// How names sort for a reader: PostgreSQL's ICU collation for their interface language, so a
/// Japanese class list follows Japanese order, a German one puts Ä with A, a Thai one ignores
/// leading vowels as Thai dictionaries do. Only the collations listed here can be named: the
/// clause is fixed text, never input.
public struct Collation: Sendable, Equatable {
    /// The `COLLATE …` clause, fixed text from the list.
    let clause: String

    /// The collation of an interface language (the root ICU order for one not listed).
    public static func of(locale: String) -> Collation {
        let name = switch locale {
        case "de": "de-x-icu"
        case "es": "es-x-icu"
        case "it": "it-x-icu"
        case "ja": "ja-x-icu"
        case "th": "th-x-icu"
        case "zh": "zh-Hans-x-icu"
        case "en": "en-x-icu"
        default: "und-x-icu"
        }
        return Collation(clause: "COLLATE \"\(name)\"")
    }

    /// `COLLATE "…"`, to follow a sort key in a statement.
    var sql: SQL { SQL(stringLiteral: clause) }
}
