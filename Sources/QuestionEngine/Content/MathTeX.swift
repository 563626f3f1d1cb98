/// A formula's MathML written as TeX that `TeXMath` reads back: what a formula imported as
/// MathML (a QTI item's) keeps as its TeX, so it can be edited and exported as markdown like
/// any other. Letters and symbols stay as their characters (the converter takes them), large
/// operators and functions become their commands, and each structure its TeX spelling
/// (`\frac`, `\sqrt[n]`, scripts, `\overset`, `\begin{matrix}`…). A node's depth is bounded by
/// the tree's rules (64), so the writer may recurse.
public enum MathTeX {
    public static func write(_ node: MathNode) -> String {
        var tex = ""
        write(node, into: &tex)
        return tex.trimmingCharacters(in: .whitespaces)
    }

    private static let largeOperators: [String: String] = Dictionary(
        TeXMath.largeOperators.filter { $0.key != "intop" }.map { ($0.value, $0.key) }, uniquingKeysWith: { min($0, $1) })
    private static let accents: [String: String] = Dictionary(
        TeXMath.accents.map { ($0.value.mark + ($0.value.stretchy ? "*" : ""), $0.key) }, uniquingKeysWith: { min($0, $1) })

    private static func write(_ node: MathNode, into tex: inout String) {
        guard case .element(let name, let attributes, let children) = node else {
            if case .text(let text) = node { tex += symbols(text) }
            return
        }
        let arguments = children.filter { if case .element = $0 { true } else { false } }
        func argument(_ index: Int) -> String { index < arguments.count ? "{" + write(arguments[index]) + "}" : "{}" }
        switch name {
        case "mi":
            let text = Self.text(children)
            if text.count == 1 {
                tex += symbols(text)
            } else if TeXMath.functions.contains(text) || TeXMath.limitFunctions.contains(text) {
                tex += "\\" + text + " "
            } else {
                tex += "\\operatorname{" + textEscaped(text) + "}"
            }
        case "mn": tex += symbols(Self.text(children))
        case "mo":
            let text = Self.text(children)
            if let command = largeOperators[text] {
                tex += "\\" + command + " "
            } else if TeXMath.limitFunctions.contains(text) {
                tex += "\\" + text + " "
            } else if text.count == 1 {
                tex += symbols(text) + " "
            } else {
                tex += "\\operatorname{" + textEscaped(text) + "}"
            }
        case "mtext": tex += "\\text{" + textEscaped(Self.text(children, trimmed: false)) + "}"
        case "mspace":
            let width = attributes["width"].flatMap { MathNode.isLength($0) ? $0 : nil } ?? "0.167em"
            tex += "\\hspace{" + width + "}"
        case "msup": tex += argument(0) + "^" + argument(1)
        case "msub": tex += argument(0) + "_" + argument(1)
        case "msubsup": tex += argument(0) + "_" + argument(1) + "^" + argument(2)
        case "mfrac": tex += "\\frac" + argument(0) + argument(1)
        case "msqrt": tex += "\\sqrt{" + children.map(write).joined(separator: " ") + "}"
        case "mroot": tex += "\\sqrt[" + (arguments.count > 1 ? write(arguments[1]) : "") + "]" + argument(0)
        case "mover", "munder":
            let mark = arguments.count > 1 ? markText(arguments[1]) : nil
            if name == "mover", let mark, let command = accents[mark] {
                tex += "\\" + command + argument(0)
            } else if let mark, mark.hasPrefix(name == "mover" ? "⏞" : "⏟") {
                tex += (name == "mover" ? "\\overbrace" : "\\underbrace") + argument(0)
            } else if name == "munder", mark?.hasPrefix("_") == true {
                tex += "\\underline" + argument(0)
            } else if isLimitsBase(arguments.first) {
                tex += argument(0) + (name == "mover" ? "^" : "_") + argument(1)
            } else {
                tex += (name == "mover" ? "\\overset" : "\\underset") + argument(1) + argument(0)
            }
        case "munderover":
            if isLimitsBase(arguments.first) {
                tex += argument(0) + "_" + argument(1) + "^" + argument(2)
            } else {
                tex += "\\underset" + argument(1) + "{\\overset" + argument(2) + argument(0) + "}"
            }
        case "mtable":
            let rows = arguments.map { row -> String in
                guard case .element(_, _, let cells) = row else { return "" }
                return cells.map(write).joined(separator: " & ")
            }
            tex += "\\begin{matrix}" + rows.joined(separator: " \\\\ ") + "\\end{matrix}"
        default:
            // mrow, mstyle, and a cell outside its table: their children in order.
            for child in children {
                if !tex.isEmpty, !tex.hasSuffix(" ") { tex += " " }
                write(child, into: &tex)
            }
        }
    }

    /// A token's text; blanks around it are not its text, except in `mtext` (words and their spaces).
    private static func text(_ children: [MathNode], trimmed: Bool = true) -> String {
        let text = children.map { if case .text(let text) = $0 { text } else { "" } }.joined()
        return trimmed ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text
    }

    /// An accent's or brace's mark (`^`, `→*` when it stretches).
    private static func markText(_ node: MathNode) -> String? {
        guard case .element("mo", let attributes, let children) = node else { return nil }
        return text(children) + (attributes["stretchy"] == "true" ? "*" : "")
    }

    /// A large operator or a function with limits (`\sum`, `\lim`): its scripts are written as
    /// scripts, and the converter puts them under and over it.
    private static func isLimitsBase(_ node: MathNode?) -> Bool {
        guard case .element("mo", _, let children)? = node else { return false }
        let text = text(children)
        return largeOperators[text] != nil || TeXMath.limitFunctions.contains(text)
    }

    /// Characters in math: TeX's own marks escaped, the rest as themselves.
    private static func symbols(_ text: String) -> String {
        var tex = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "{", "}", "%", "$", "#", "&", "_": tex += "\\" + String(scalar)
            case "\\": tex += "∖"
            case "^": tex += "\\hat{}"
            case "~": tex += "\\sim "
            case "'": tex += "′"
            case " ": tex += "\\ "
            default: if scalar.value >= 0x20 { tex.unicodeScalars.append(scalar) }
            }
        }
        return tex
    }

    /// Text inside `\text{…}` or `\operatorname{…}`: braces, backslashes and TeX's marks escaped.
    private static func textEscaped(_ text: String) -> String {
        var tex = ""
        for scalar in text.unicodeScalars {
            if "{}\\$%&#_".unicodeScalars.contains(scalar) { tex += "\\" }
            if scalar.value >= 0x20 { tex.unicodeScalars.append(scalar) }
        }
        return tex
    }
}
