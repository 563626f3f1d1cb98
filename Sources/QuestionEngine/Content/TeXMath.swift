/// Turns the LaTeX math that exam questions use into MathML Core, once, when content is saved:
/// fractions, roots with an index, sub- and superscripts, Greek and symbols, operators with
/// limits, `\left…\right`, matrices, `cases`, `aligned`, `array`, accents, `\text`,
/// `\mathbb`/`\mathbf`/`\mathrm`, `\operatorname`, spacing, `\binom`, `\overline`,
/// `\underbrace`. A command it does not know is refused with its name, never shown as TeX.
public struct TeXMath {
    /// What is wrong with a formula.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) { self.message = message }
    }

    public static let maximumLength = 4_096
    static let maximumDepth = 48

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    /// Converts `tex`; the result is the formula's `mrow`.
    public static func convert(_ tex: String) throws(Problem) -> MathNode {
        guard tex.utf8.count <= maximumLength else { throw Problem(message: "a formula is longer than \(maximumLength / 1024) KB") }
        var parser = TeXMath(scalars: Array(tex.unicodeScalars))
        let items = try parser.sequence(until: [])
        if let stray = parser.current { throw Problem(message: stray == "&" ? "& stands outside a table (\\begin{aligned} … \\end{aligned})" : "a } closes nothing") }
        return .element("mrow", attributes: [:], children: items)
    }

    private init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    // MARK: Reading

    private var atEnd: Bool { index >= scalars.count }
    private var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    private mutating func skipBlanks() {
        while let scalar = current, scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" { index += 1 }
    }

    /// A command's name after its backslash: letters, or one other character.
    private mutating func commandName() throws(Problem) -> String {
        guard let first = current else { throw Problem(message: "a formula cannot end with \\") }
        index += 1
        guard Self.isLetter(first) else { return String(first) }
        var name = String(first)
        while let scalar = current, Self.isLetter(scalar) { name.unicodeScalars.append(scalar); index += 1 }
        return name
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func element(_ name: String, _ children: [MathNode], _ attributes: [String: String] = [:]) -> MathNode {
        .element(name, attributes: attributes, children: children)
    }
    private static func leaf(_ name: String, _ text: String, _ attributes: [String: String] = [:]) -> MathNode {
        .element(name, attributes: attributes, children: [.text(text)])
    }
    private static func row(_ items: [MathNode]) -> MathNode { items.count == 1 ? items[0] : element("mrow", items) }

    /// Items up to the end, a `}`, or a command in `stops` (left unread, like the `}`).
    private mutating func sequence(until stops: Set<String>) throws(Problem) -> [MathNode] {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw Problem(message: "a formula nests more than \(Self.maximumDepth) deep") }
        var items: [MathNode] = []
        while true {
            skipBlanks()
            guard let scalar = current, scalar != "}", scalar != "&" else { return items }
            if scalar == "\\" {
                let mark = index
                index += 1
                let name = try commandName()
                if stops.contains(name) { index = mark; return items }
                index = mark
            }
            guard let atom = try atom() else { continue }
            items.append(try scripts(on: atom))
        }
    }

    /// The argument of a command or script: a group, or one token.
    private mutating func argument(of what: String) throws(Problem) -> MathNode {
        // Arguments nest without braces too (`\frac\frac\frac…`): they count as depth.
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw Problem(message: "a formula nests more than \(Self.maximumDepth) deep") }
        skipBlanks()
        guard let scalar = current, scalar != "}", scalar != "&" else { throw Problem(message: "\(what) needs an argument") }
        if scalar == "{" { return try group() }
        guard let atom = try atom() else { throw Problem(message: "\(what) needs an argument") }
        return atom
    }

    private mutating func group() throws(Problem) -> MathNode {
        index += 1
        let items = try sequence(until: [])
        guard current == "}" else { throw Problem(message: "a { is never closed") }
        index += 1
        return Self.element("mrow", items)
    }

    /// A group's text as written (for `\text`, environment names and `\operatorname`).
    private mutating func rawGroup(of what: String) throws(Problem) -> String {
        skipBlanks()
        guard current == "{" else { throw Problem(message: "\(what) needs its text in { }") }
        index += 1
        var text = String.UnicodeScalarView(), level = 0
        while let scalar = current {
            index += 1
            if scalar == "\\", let next = current, "{}\\$%&#_ ".unicodeScalars.contains(next) { text.append(next); index += 1; continue }
            if scalar == "{" { level += 1 } else if scalar == "}" { if level == 0 { return String(text) }; level -= 1 }
            text.append(scalar)
        }
        throw Problem(message: "a { is never closed")
    }

    /// Sub- and superscripts (and primes) after `base`; under and over for operators with limits.
    private mutating func scripts(on base: MathNode) throws(Problem) -> MathNode {
        var sub: MathNode?, sup: MathNode?, primes = ""
        while true {
            skipBlanks()
            if current == "'" { primes += "′"; index += 1; continue }
            if current == "^", sup == nil { index += 1; sup = try argument(of: "^"); continue }
            if current == "_", sub == nil { index += 1; sub = try argument(of: "_"); continue }
            if let mark = current, mark == "^" || mark == "_" { throw Problem(message: "a double \(mark) script: use braces") }
            break
        }
        if !primes.isEmpty { sup = sup.map { Self.row([Self.leaf("mo", primes), $0]) } ?? Self.leaf("mo", primes) }
        let limits = Self.takesLimits(base)
        switch (sub, sup) {
        case (nil, nil): return base
        case (let sub?, nil): return Self.element(limits ? "munder" : "msub", [base, sub])
        case (nil, let sup?): return Self.element(limits ? "mover" : "msup", [base, sup])
        case (let sub?, let sup?): return Self.element(limits ? "munderover" : "msubsup", [base, sub, sup])
        }
    }

    private static func takesLimits(_ node: MathNode) -> Bool {
        if case .element(let name, let attributes, _) = node {
            return attributes["movablelimits"] == "true" || (name == "munder" || name == "mover") && attributes["accent"] == nil && attributes["accentunder"] == nil
                && node.isBrace
        }
        return false
    }

    // MARK: Atoms

    private mutating func atom() throws(Problem) -> MathNode? {
        guard let scalar = current else { return nil }
        if scalar == "{" { return try group() }
        if scalar == "\\" {
            index += 1
            return try command(try commandName())
        }
        index += 1
        if Self.isLetter(scalar) { return Self.leaf("mi", String(scalar)) }
        if Self.isDigit(scalar) {
            var number = String(scalar)
            while let next = current, Self.isDigit(next) || (next == "." && index + 1 < scalars.count && Self.isDigit(scalars[index + 1])) {
                number.unicodeScalars.append(next); index += 1
            }
            return Self.leaf("mn", number)
        }
        switch scalar {
        case "-": return Self.leaf("mo", "−")
        case "~": return Self.element("mspace", [], ["width": "0.333em"])
        case "^", "_":
            // A script with nothing before it (`{}^{14}C`, `^2`) stands on an empty base.
            index -= 1
            return Self.element("mrow", [])
        case "$", "#", "%": throw Problem(message: "\(scalar) is not allowed in a formula: write \\\(scalar)")
        default:
            if scalar.properties.isAlphabetic { return Self.leaf("mi", String(scalar)) }
            if scalar.value < 0x20 { return nil }
            return Self.leaf("mo", String(scalar))
        }
    }

    private mutating func command(_ name: String) throws(Problem) -> MathNode? {
        if let symbol = Self.identifiers[name] {
            // Upper-case Greek is upright in mathematics; the rest is italic, MathML's default.
            let upright = name.count > 1 && name.first?.isUppercase == true
            return Self.leaf("mi", symbol, upright ? ["mathvariant": "normal"] : [:])
        }
        if let symbol = Self.operators[name] { return Self.leaf("mo", symbol) }
        if let symbol = Self.largeOperators[name] {
            let limits = !["int", "iint", "iiint", "oint", "oiint", "oiiint", "intop"].contains(name)
            return Self.leaf("mo", symbol, ["largeop": "true", "movablelimits": limits ? "true" : "false"])
        }
        if Self.functions.contains(name) { return Self.leaf("mi", name) }
        if Self.limitFunctions.contains(name) { return Self.leaf("mo", name == "liminf" ? "lim inf" : name == "limsup" ? "lim sup" : name, ["movablelimits": "true"]) }
        if let width = Self.spaces[name] { return Self.element("mspace", [], ["width": width]) }
        if let accent = Self.accents[name] {
            let base = try argument(of: "\\" + name)
            return Self.element("mover", [base, Self.leaf("mo", accent.mark, accent.stretchy ? ["stretchy": "true"] : [:])], ["accent": "true"])
        }
        switch name {
        case "frac", "dfrac", "tfrac", "cfrac":
            return Self.element("mfrac", [try argument(of: "\\" + name), try argument(of: "\\" + name)])
        case "binom", "dbinom", "tbinom":
            let top = try argument(of: "\\" + name), bottom = try argument(of: "\\" + name)
            return Self.element("mrow", [Self.leaf("mo", "("), Self.element("mfrac", [top, bottom], ["linethickness": "0"]), Self.leaf("mo", ")")])
        case "sqrt":
            skipBlanks()
            if current == "[" {
                index += 1
                var degree: [MathNode] = []
                while true {
                    skipBlanks()
                    guard let scalar = current, scalar != "}", scalar != "&" else { throw Problem(message: "\\sqrt[ has no ]") }
                    if scalar == "]" { index += 1; break }
                    if let atom = try atom() { degree.append(try scripts(on: atom)) }
                }
                return Self.element("mroot", [try argument(of: "\\sqrt"), Self.row(degree)])
            }
            return Self.element("msqrt", [try argument(of: "\\sqrt")])
        case "mathop", "mathord", "mathrel", "mathbin": return try argument(of: "\\" + name)
        case "middle": return Self.leaf("mo", try delimiter(after: name), ["stretchy": "true"])
        case "underline", "underbar": return Self.element("munder", [try argument(of: "\\underline"), Self.leaf("mo", "_", ["stretchy": "true"])], ["accentunder": "true"])
        case "underbrace": return Self.element("munder", [try argument(of: "\\underbrace"), Self.leaf("mo", "⏟", ["stretchy": "true"])])
        case "overbrace": return Self.element("mover", [try argument(of: "\\overbrace"), Self.leaf("mo", "⏞", ["stretchy": "true"])])
        case "overbracket": return Self.element("mover", [try argument(of: "\\overbracket"), Self.leaf("mo", "⎴", ["stretchy": "true"])])
        case "underbracket": return Self.element("munder", [try argument(of: "\\underbracket"), Self.leaf("mo", "⎵", ["stretchy": "true"])])
        case "underleftarrow", "underrightarrow", "underleftrightarrow":
            let arrow = name == "underleftarrow" ? "←" : name == "underrightarrow" ? "→" : "↔"
            return Self.element("munder", [try argument(of: "\\" + name), Self.leaf("mo", arrow, ["stretchy": "true"])], ["accentunder": "true"])
        case "xrightarrow", "xleftarrow", "xleftrightarrow", "xRightarrow", "xLeftarrow":
            // An arrow that stretches under the words over it.
            let arrows = ["xrightarrow": "→", "xleftarrow": "←", "xleftrightarrow": "↔", "xRightarrow": "⇒", "xLeftarrow": "⇐"]
            return Self.element("mover", [Self.leaf("mo", arrows[name] ?? "→", ["stretchy": "true"]), try argument(of: "\\" + name)])
        case "mathnormal": return try argument(of: "\\mathnormal")
        // Overlaps and phantoms of width change the spacing, not what a formula says.
        case "smash", "mathrlap", "mathllap", "mathclap", "rlap", "llap": return try argument(of: "\\" + name)
        case "nobreak", "allowbreak", "relax": return nil
        case "text", "textrm", "textnormal", "mbox", "textit", "textbf", "textsf", "texttt", "textup":
            return Self.leaf("mtext", try rawGroup(of: "\\" + name))
        case "operatorname":
            return Self.leaf("mi", try rawGroup(of: "\\operatorname"), ["mathvariant": "normal"])
        case "mathrm", "mathbf", "mathbb", "mathit", "mathcal", "mathscr", "mathsf", "mathtt", "boldsymbol", "bm", "pmb", "mathfrak":
            return try styled(name)
        case "left": return try fenced()
        case "right": throw Problem(message: "\\right closes no \\left")
        case "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr", "bigm", "Bigm":
            return Self.leaf("mo", try delimiter(after: name), ["stretchy": "false"])
        case "begin": return try environment()
        case "end": throw Problem(message: "\\end closes no \\begin")
        // Sizes and styles change how big a formula is drawn, not what it says.
        case "displaystyle", "textstyle", "limits", "nolimits", "scriptstyle", "scriptscriptstyle", "tiny", "scriptsize", "footnotesize", "small",
             "normalsize", "large", "Large", "LARGE", "huge", "Huge":
            return nil
        case "overset", "stackrel":
            let over = try argument(of: "\\" + name)
            return Self.element("mover", [try argument(of: "\\" + name), over])
        case "underset":
            let under = try argument(of: "\\underset")
            return Self.element("munder", [try argument(of: "\\underset"), under])
        case "kern", "mkern", "hspace", "mskip", "hskip":
            return Self.element("mspace", [], ["width": try length(after: name)])
        case "not":
            skipBlanks()
            guard let text = try atom()?.operatorText else { throw Problem(message: "\\not needs a relation after it") }
            return Self.leaf("mo", text + "\u{338}")
        default:
            throw Problem(message: "unknown command \\\(name)")
        }
    }

    /// `\mathbb{R}` and the like: MathML Core draws only normal and italic letters, so bold,
    /// double-struck and script letters are the Unicode mathematical alphanumerics.
    private mutating func styled(_ name: String) throws(Problem) -> MathNode {
        skipBlanks()
        let mark = index
        let text: String
        if current == "{" {
            text = try rawGroup(of: "\\" + name).filter { $0 != " " }
        } else if let scalar = current, Self.isLetter(scalar) || Self.isDigit(scalar) {
            text = String(scalar); index += 1
        } else {
            text = ""
        }
        // Anything but letters and digits (`\mathbf{\alpha + 1}`) is read as math, unstyled.
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) }) else {
            index = mark
            return try argument(of: "\\" + name)
        }
        switch name {
        case "mathrm", "mathsf", "mathtt": return Self.leaf("mi", text, ["mathvariant": "normal"])
        case "mathit": return Self.leaf("mi", text)
        default:
            let mapped = String(String.UnicodeScalarView(text.unicodeScalars.map { Self.alphanumeric($0, style: name) }))
            return Self.leaf("mi", mapped, mapped.unicodeScalars.count > 1 ? [:] : ["mathvariant": "normal"])
        }
    }

    private static func alphanumeric(_ scalar: Unicode.Scalar, style: String) -> Unicode.Scalar {
        let upper = scalar.value >= 65 && scalar.value <= 90, lower = scalar.value >= 97 && scalar.value <= 122, digit = isDigit(scalar)
        let offset = upper ? scalar.value - 65 : lower ? scalar.value - 97 + 26 : scalar.value - 48
        switch style {
        case "mathbb":
            let exceptions: [Unicode.Scalar: Unicode.Scalar] = ["C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"]
            if let special = exceptions[scalar] { return special }
            return Unicode.Scalar(digit ? 0x1D7D8 + offset : 0x1D538 + offset) ?? scalar
        case "mathcal", "mathscr":
            let exceptions: [Unicode.Scalar: Unicode.Scalar] = ["B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ", "e": "ℯ", "g": "ℊ", "o": "ℴ"]
            if let special = exceptions[scalar] { return special }
            return digit ? scalar : Unicode.Scalar(0x1D49C + offset) ?? scalar
        case "mathfrak":
            let exceptions: [Unicode.Scalar: Unicode.Scalar] = ["C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"]
            if let special = exceptions[scalar] { return special }
            return digit ? scalar : Unicode.Scalar(0x1D504 + offset) ?? scalar
        default:
            return Unicode.Scalar(digit ? 0x1D7CE + offset : 0x1D400 + offset) ?? scalar
        }
    }

    /// A width after `\kern` and the like, in em (`mu` is an eighteenth of one).
    private mutating func length(after name: String) throws(Problem) -> String {
        skipBlanks()
        var text = ""
        let braced = current == "{"
        if braced { index += 1 }
        while let scalar = current, Self.isDigit(scalar) || scalar == "." || scalar == "-" || Self.isLetter(scalar) || scalar == " " {
            if !braced && scalar == " " { break }
            text.unicodeScalars.append(scalar); index += 1
            if !braced && ["em", "mu", "pt", "ex"].contains(where: { text.hasSuffix($0) }) { break }
        }
        if braced { guard current == "}" else { throw Problem(message: "\\\(name) needs a width such as 1em") }; index += 1 }
        text = text.filter { $0 != " " }
        if text.hasSuffix("mu"), let value = Double(text.dropLast(2)) { return Self.em(value / 18) }
        if text.hasSuffix("em"), let value = Double(text.dropLast(2)) { return Self.em(value) }
        // TeX's points and x-heights at its ten-point size: a tenth of an em, and 0.43 em.
        if text.hasSuffix("pt"), let value = Double(text.dropLast(2)) { return Self.em(value / 10) }
        if text.hasSuffix("ex"), let value = Double(text.dropLast(2)) { return Self.em(value * 0.43) }
        throw Problem(message: "\\\(name) needs a width in em, mu, pt or ex, such as 1em")
    }

    private static func em(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return (rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)) + "em"
    }

    /// The delimiter after `\left`, `\right` or `\big`: a character or a command naming one; `.` is none.
    private mutating func delimiter(after what: String) throws(Problem) -> String {
        skipBlanks()
        guard let scalar = current else { throw Problem(message: "\\\(what) needs a delimiter") }
        index += 1
        if scalar == "\\" {
            let name = try commandName()
            if let symbol = Self.delimiters[name] { return symbol }
            throw Problem(message: "\\\(name) is not a delimiter for \\\(what)")
        }
        guard "()[]|./<>".unicodeScalars.contains(scalar) else { throw Problem(message: "\(scalar) is not a delimiter for \\\(what)") }
        return scalar == "." ? "" : scalar == "<" ? "⟨" : scalar == ">" ? "⟩" : String(scalar)
    }

    private mutating func fenced() throws(Problem) -> MathNode {
        let open = try delimiter(after: "left")
        let inner = try sequence(until: ["right"])
        guard current == "\\" else { throw Problem(message: "\\left has no \\right") }
        index += 1
        _ = try commandName()
        let close = try delimiter(after: "right")
        var items: [MathNode] = []
        if !open.isEmpty { items.append(Self.leaf("mo", open, ["fence": "true", "stretchy": "true"])) }
        items.append(Self.element("mrow", inner))
        if !close.isEmpty { items.append(Self.leaf("mo", close, ["fence": "true", "stretchy": "true"])) }
        return Self.element("mrow", items)
    }

    /// `\begin{…}` … `\end{…}`: a table of rows (`\\`) and cells (`&`), fenced as the
    /// environment says.
    private mutating func environment() throws(Problem) -> MathNode {
        let name = try rawGroup(of: "\\begin")
        guard let fences = Self.environments[name] else { throw Problem(message: "unknown environment \(name.prefix(30))") }
        if name == "array" || name == "alignedat" || name == "subarray" { _ = try rawGroup(of: "\\begin{\(name)}") }
        skipBlanks()
        if name.hasSuffix("*") && name.hasPrefix("matrix") || name.hasSuffix("matrix*"), current == "[" { while let scalar = current, scalar != "]" { index += 1 }; index += 1 }
        var rows: [MathNode] = [], cells: [MathNode] = []
        while true {
            let items = try sequence(until: ["\\", "end", "hline", "cr"])
            cells.append(Self.element("mtd", [Self.element("mrow", items)]))
            if current == "&" { index += 1; continue }
            guard current == "\\" else { throw Problem(message: "\\begin{\(name)} is never ended") }
            index += 1
            let command = try commandName()
            switch command {
            case "\\", "cr":
                rows.append(Self.element("mtr", cells)); cells = []
                skipBlanks()
                if current == "[" { while let scalar = current, scalar != "]" { index += 1 }; index += 1 }
            case "hline":
                if cells.count == 1, cells[0].isEmptyCell { cells = [] }
            default:
                let ending = try rawGroup(of: "\\end")
                guard ending == name else { throw Problem(message: "\\end{\(ending.prefix(30))} does not end \\begin{\(name)}") }
                let lastIsEmpty = cells.count == 1 && cells[0].isEmptyCell
                if !cells.isEmpty && !(lastIsEmpty && !rows.isEmpty) { rows.append(Self.element("mtr", cells)) }
                let table = Self.element("mtable", rows)
                guard fences.open != nil || fences.close != nil else { return table }
                var items: [MathNode] = []
                if let open = fences.open { items.append(Self.leaf("mo", open, ["fence": "true", "stretchy": "true"])) }
                items.append(table)
                if let close = fences.close { items.append(Self.leaf("mo", close, ["fence": "true", "stretchy": "true"])) }
                return Self.element("mrow", items)
            }
        }
    }
}

extension MathNode {
    /// An under- or over-brace (`\underbrace{…}`), whose script goes under or over it.
    var isBrace: Bool {
        if case .element(_, _, let children) = self, children.count == 2, let mark = children[1].operatorText { return mark == "⏟" || mark == "⏞" }
        return false
    }

    /// An `mo`'s text.
    var operatorText: String? {
        if case .element("mo", _, let children) = self, children.count == 1, case .text(let text) = children[0] { return text }
        return nil
    }

    /// A table cell with nothing in it.
    var isEmptyCell: Bool {
        if case .element("mtd", _, let children) = self, children.count == 1, case .element("mrow", _, let inner) = children[0] { return inner.isEmpty }
        return false
    }
}
