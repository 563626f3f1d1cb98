/// Splits a listing into the tokens a reader's eye looks for — keywords, strings, comments and
/// numbers — for the languages certification questions use, in one pass over its characters.
/// The offline page's `rich-text.js` has the same rules, held equal by the rendering fixture;
/// an unknown language is not highlighted at all.
public enum CodeHighlighter {
    /// What a token is; `plain` is everything else, written as it is.
    public enum Kind: String, Sendable, Equatable {
        case plain, keyword, string, comment, number
    }

    /// A language's rules.
    struct Language {
        var keywords: Set<String>
        var caseInsensitive = false
        /// Starts of comments that run to the end of the line (`#` only after a blank or at a
        /// line's start, as shells and YAML read it).
        var lineComments: [String]
        var blockComment: (open: String, close: String)?
        /// Quotes that open a string; a string ends at its own quote, or at the end of the line
        /// unless the quote may span lines.
        var quotes: Set<Unicode.Scalar> = ["\"", "'"]
        var spanningQuotes: Set<Unicode.Scalar> = []
        /// Whether a backslash escapes the next character inside a string.
        var backslashEscapes = true
    }

    static let cFamily = "break case char const continue default do double else enum extern float for goto if int long return short signed sizeof static struct switch typedef union unsigned void volatile while"
    static let languages: [String: Language] = {
        func words(_ text: String) -> Set<String> { Set(text.split(separator: " ").map(String.init)) }
        let python = Language(
            keywords: words("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield"),
            lineComments: ["#"])
        let javascript = Language(
            keywords: words("async await break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof let new null of return static super switch this throw true try typeof undefined var void while yield interface type enum implements private public protected readonly abstract declare namespace"),
            lineComments: ["//"], blockComment: ("/*", "*/"), quotes: ["\"", "'", "`"], spanningQuotes: ["`"])
        let java = Language(
            keywords: words("abstract boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long native new null package private protected public return short static super switch synchronized this throw throws transient true false try var void volatile while record"),
            lineComments: ["//"], blockComment: ("/*", "*/"))
        let c = Language(keywords: words(cFamily + " bool true false NULL inline restrict"), lineComments: ["//"], blockComment: ("/*", "*/"))
        let cpp = Language(
            keywords: words(cFamily + " auto bool catch class constexpr delete explicit false friend inline mutable namespace new noexcept nullptr operator override private protected public template this throw true try typename using virtual"),
            lineComments: ["//"], blockComment: ("/*", "*/"))
        let csharp = Language(
            keywords: words("abstract as async await base bool break byte case catch char class const continue decimal default delegate do double else enum event false finally float for foreach get if in int interface internal is lock long namespace new null object out override private protected public readonly ref return sealed set short static string struct switch this throw true try typeof using var virtual void while"),
            lineComments: ["//"], blockComment: ("/*", "*/"))
        let go = Language(
            keywords: words("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil"),
            lineComments: ["//"], blockComment: ("/*", "*/"), quotes: ["\"", "'", "`"], spanningQuotes: ["`"])
        let sql = Language(
            keywords: words("ADD ALL ALTER AND AS ASC BETWEEN BY CASE CREATE DELETE DESC DISTINCT DROP ELSE END EXISTS FALSE FROM FULL GRANT GROUP HAVING IN INDEX INNER INSERT INTO IS JOIN KEY LEFT LIKE LIMIT NOT NULL ON OR ORDER OUTER PRIMARY REFERENCES RIGHT SELECT SET TABLE THEN TRUE UNION UPDATE VALUES VIEW WHEN WHERE WITH COUNT SUM AVG MIN MAX"),
            caseInsensitive: true, lineComments: ["--"], blockComment: ("/*", "*/"), quotes: ["'", "\""], backslashEscapes: false)
        let shell = Language(
            keywords: words("if then else elif fi for while until do done case esac in function return export local readonly echo exit set unset"),
            lineComments: ["#"])
        let yaml = Language(keywords: words("true false null yes no on off"), lineComments: ["#"])
        let json = Language(keywords: words("true false null"), lineComments: [], quotes: ["\""])
        let hcl = Language(
            keywords: words("resource data variable output module provider locals terraform for in if true false null count each"),
            lineComments: ["#", "//"], blockComment: ("/*", "*/"), quotes: ["\""])
        let powershell = Language(
            keywords: words("begin break catch class continue data do dynamicparam else elseif end exit filter finally for foreach from function if in param process return switch throw trap try until using var while"),
            caseInsensitive: true, lineComments: ["#"], blockComment: ("<#", "#>"), backslashEscapes: false)
        return [
            "python": python, "py": python, "javascript": javascript, "js": javascript, "typescript": javascript, "ts": javascript,
            "java": java, "c": c, "cpp": cpp, "c++": cpp, "csharp": csharp, "c#": csharp, "cs": csharp, "go": go, "sql": sql,
            "shell": shell, "bash": shell, "sh": shell, "yaml": yaml, "yml": yaml, "json": json, "hcl": hcl, "terraform": hcl,
            "powershell": powershell, "ps1": powershell,
        ]
    }()

    /// Whether `language` is one the highlighter knows.
    public static func knows(_ language: String) -> Bool { languages[language] != nil }

    /// The listing as tokens, each a kind and its text; nil for a language it does not know.
    public static func tokens(_ code: String, language: String) -> [(kind: Kind, text: String)]? {
        guard let rules = languages[language] else { return nil }
        // Scalars, not characters: the offline script reads the same code points.
        let characters = Array(code.unicodeScalars)
        var tokens: [(kind: Kind, text: String)] = []
        var plain = String.UnicodeScalarView()
        func text(_ range: Range<Int>) -> String { var view = String.UnicodeScalarView(); view.append(contentsOf: characters[range]); return String(view) }
        func emit(_ kind: Kind, _ range: Range<Int>) {
            if !plain.isEmpty { tokens.append((.plain, String(plain))); plain = String.UnicodeScalarView() }
            tokens.append((kind, text(range)))
        }
        func starts(_ mark: String, at index: Int) -> Bool {
            var position = index
            for scalar in mark.unicodeScalars {
                guard position < characters.count, characters[position] == scalar else { return false }
                position += 1
            }
            return true
        }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func isIdentifier(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || (!first && isDigit(scalar))
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let previous: Unicode.Scalar? = index > 0 ? characters[index - 1] : nil
            let afterBlank = previous == nil || previous == " " || previous == "\t" || previous == "\n"
            if let block = rules.blockComment, starts(block.open, at: index) {
                var end = index + block.open.unicodeScalars.count
                while end < characters.count, !starts(block.close, at: end) { end += 1 }
                end = min(characters.count, end + block.close.unicodeScalars.count)
                emit(.comment, index..<end); index = end
            } else if let comment = rules.lineComments.first(where: { starts($0, at: index) && ($0 != "#" || afterBlank) }) {
                var end = index + comment.unicodeScalars.count
                while end < characters.count, characters[end] != "\n" { end += 1 }
                emit(.comment, index..<end); index = end
            } else if rules.quotes.contains(character) {
                var end = index + 1
                let spans = rules.spanningQuotes.contains(character)
                while end < characters.count, characters[end] != character, spans || characters[end] != "\n" {
                    end += rules.backslashEscapes && characters[end] == "\\" && end + 1 < characters.count && characters[end + 1] != "\n" ? 2 : 1
                }
                if end < characters.count, characters[end] == character { end += 1 }
                emit(.string, index..<end); index = end
            } else if isDigit(character) && !(previous.map { isIdentifier($0, first: false) } ?? false) {
                var end = index + 1
                while end < characters.count, characters[end] == "." || isIdentifier(characters[end], first: false) { end += 1 }
                emit(.number, index..<end); index = end
            } else if isIdentifier(character, first: true) && !(previous.map { isIdentifier($0, first: false) || $0 == "$" || $0 == "-" } ?? false) {
                var end = index + 1
                while end < characters.count, isIdentifier(characters[end], first: false) { end += 1 }
                let word = text(index..<end)
                // A word joined to a hyphen is a name (`ForEach-Object`, `-in`), never a keyword.
                let joined = end < characters.count && characters[end] == "-"
                let isKeyword = !joined && (rules.keywords.contains(rules.caseInsensitive ? word.uppercased() : word)
                    || (rules.caseInsensitive && rules.keywords.contains(word.lowercased())))
                if isKeyword { emit(.keyword, index..<end) } else { plain.append(contentsOf: word.unicodeScalars) }
                index = end
            } else {
                plain.append(character); index += 1
            }
        }
        if !plain.isEmpty { tokens.append((.plain, String(plain))) }
        return tokens
    }
}
