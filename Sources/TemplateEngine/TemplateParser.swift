/// Parses template text into nodes. Syntax (Mustache-like):
///
///     {{ exam.title }}            escaped variable (HTML text and quoted attributes)
///     {{raw trustedHTML}}          unescaped: the one greppable way to print markup
///     {{#items}}…{{/items}}        section: each item of a list, or once when present/true
///     {{^items}}…{{/items}}        inverted section: when empty, false or missing
///     {{> partials/nav}}           partial
///     {{< layout}}{{$main}}…{{/main}}{{/layout}}   layout inheritance with named blocks
///     {{t "exam.questions" count=exam.questionCount}}   a message from the catalogue
///     {{ago exam.updatedAt}}  {{number exam.questionCount}}   locale formatting
///     {{%board}}…{{/board}}        a fragment: rendered from the value the caller names
///                                  `board` alone (and `locale`), kept by its key
///     {{! a comment }}
enum TemplateParser {
    static func parse(_ source: String, name: String) throws(TemplateError) -> [TemplateNode] {
        var parser = Cursor(bytes: Array(source.utf8), name: name)
        let nodes = try parser.parseNodes(until: nil)
        return nodes
    }

    private struct Cursor {
        let bytes: [UInt8]
        let name: String
        var index = 0
        var line = 1
        var column = 1

        init(bytes: [UInt8], name: String) {
            self.bytes = bytes
            self.name = name
        }

        func error(_ message: String, at position: SourcePosition) -> TemplateError {
            TemplateError(template: name, line: position.line, column: position.column, message: message)
        }

        mutating func advance(_ count: Int) {
            for _ in 0..<count where index < bytes.count {
                if bytes[index] == 10 {
                    line += 1
                    column = 1
                } else if bytes[index] & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
        }

        func startsWith(_ text: String, at offset: Int) -> Bool {
            let pattern = Array(text.utf8)
            guard offset + pattern.count <= bytes.count else { return false }
            return bytes[offset..<offset + pattern.count].elementsEqual(pattern)
        }

        /// Parses until `{{/closing}}` (or the end when `closing` is nil).
        mutating func parseNodes(until closing: (name: String, position: SourcePosition)?) throws(TemplateError) -> [TemplateNode] {
            var nodes: [TemplateNode] = []
            var text: [UInt8] = []
            func flush() {
                if !text.isEmpty { nodes.append(.text(text)); text = [] }
            }
            while index < bytes.count {
                guard startsWith("{{", at: index) else {
                    text.append(bytes[index])
                    advance(1)
                    continue
                }
                let position = SourcePosition(line: line, column: column)
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "}") && bytes[end + 1] == UInt8(ascii: "}")) {
                    if bytes[end] == 10 { throw error("a tag is not closed on its line", at: position) }
                    end += 1
                }
                guard end + 1 < bytes.count else { throw error("a tag is not closed with }}", at: position) }
                let content = String(decoding: bytes[(index + 2)..<end], as: UTF8.self).trimmingWhitespace
                advance(end + 2 - index)
                guard let sigil = content.first else { throw error("an empty tag", at: position) }
                let rest = String(content.dropFirst()).trimmingWhitespace
                switch sigil {
                case "!":
                    continue
                case "#", "^":
                    flush()
                    let path = try parsePath(rest, position)
                    let children = try parseNodes(until: (rest, position))
                    nodes.append(.section(path, inverted: sigil == "^", children, position))
                case "/":
                    guard let closing else { throw error("{{/\(rest)}} closes nothing", at: position) }
                    guard rest == closing.name else {
                        throw error("{{/\(rest)}} does not close {{\(closing.name)}} opened at \(closing.position.line):\(closing.position.column)", at: position)
                    }
                    flush()
                    return nodes
                case ">":
                    flush()
                    guard Self.isName(rest) else { throw error("a partial needs a name", at: position) }
                    nodes.append(.partial(rest, position))
                case "<":
                    flush()
                    guard Self.isName(rest) else { throw error("a layout needs a name", at: position) }
                    let children = try parseNodes(until: (rest, position))
                    var blocks: [String: [TemplateNode]] = [:]
                    for child in children {
                        switch child {
                        case .block(let blockName, let content): blocks[blockName] = content
                        case .text(let bytes) where bytes.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 9 || $0 == 13 }): break
                        default: throw error("inside {{<\(rest)}} only {{$block}} sections may stand", at: position)
                        }
                    }
                    nodes.append(.parent(rest, blocks: blocks, position))
                case "%":
                    flush()
                    guard Self.isIdentifier(rest) else { throw error("a fragment needs a name", at: position) }
                    nodes.append(.fragment(rest, try parseNodes(until: (rest, position)), position))
                case "$":
                    flush()
                    guard Self.isIdentifier(rest) else { throw error("a block needs a name", at: position) }
                    nodes.append(.block(rest, try parseNodes(until: (rest, position))))
                default:
                    flush()
                    nodes.append(try parseTag(content, position))
                }
            }
            if let closing {
                throw error("{{\(closing.name)}} is never closed", at: closing.position)
            }
            flush()
            return nodes
        }

        func parseTag(_ content: String, _ position: SourcePosition) throws(TemplateError) -> TemplateNode {
            let words = content.split(separator: " ", maxSplits: 1).map(String.init)
            switch words[0] {
            case "raw":
                guard words.count == 2 else { throw error("{{raw}} needs a path", at: position) }
                return .variable(try parsePath(words[1], position), escaped: false, position)
            case "ago":
                guard words.count == 2 else { throw error("{{ago}} needs a path", at: position) }
                return .relativeTime(try parsePath(words[1], position), position)
            case "number":
                guard words.count == 2 else { throw error("{{number}} needs a path", at: position) }
                return .number(try parsePath(words[1], position), position)
            case "t":
                guard words.count == 2 else { throw error("{{t}} needs a message key", at: position) }
                return try parseMessage(words[1], position)
            default:
                guard words.count == 1 else { throw error("unknown tag \(words[0])", at: position) }
                return .variable(try parsePath(content, position), escaped: true, position)
            }
        }

        /// `"key" name=path other="literal"`
        func parseMessage(_ text: String, _ position: SourcePosition) throws(TemplateError) -> TemplateNode {
            var tokens = Substring(text)
            guard let key = takeQuoted(&tokens), !key.isEmpty else {
                throw error("{{t}} needs a quoted message key", at: position)
            }
            var arguments: [(String, MessageArgument)] = []
            while true {
                tokens = tokens.drop { $0 == " " }
                if tokens.isEmpty { break }
                guard let equals = tokens.firstIndex(of: "=") else { throw error("a {{t}} argument needs name=value", at: position) }
                let name = String(tokens[..<equals])
                guard Self.isIdentifier(name) else { throw error("bad {{t}} argument name \(name)", at: position) }
                tokens = tokens[tokens.index(after: equals)...]
                if tokens.first == "\"" {
                    guard let literal = takeQuoted(&tokens) else { throw error("an unterminated string", at: position) }
                    arguments.append((name, .literal(literal)))
                } else {
                    let end = tokens.firstIndex(of: " ") ?? tokens.endIndex
                    arguments.append((name, .path(try parsePath(String(tokens[..<end]), position))))
                    tokens = tokens[end...]
                }
            }
            return .message(key, arguments: arguments, position)
        }

        func takeQuoted(_ tokens: inout Substring) -> String? {
            guard tokens.first == "\"" else { return nil }
            let body = tokens.dropFirst()
            guard let close = body.firstIndex(of: "\"") else { return nil }
            tokens = body[body.index(after: close)...]
            return String(body[..<close])
        }

        func parsePath(_ text: String, _ position: SourcePosition) throws(TemplateError) -> [String] {
            if text == "." { return ["."] }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !parts.isEmpty, parts.allSatisfy(Self.isIdentifier) else {
                throw error("\"\(text)\" is not a path (letters, digits, _ and dots)", at: position)
            }
            return parts
        }

        /// Path segments, block and argument names: letters, digits and underscores.
        static func isIdentifier(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.allSatisfy { byte in
                (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "_")
            }
        }

        /// Template names may also hold `/` and `-`: `partials/exam-card`.
        static func isName(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.allSatisfy { byte in
                (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
            }
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}
