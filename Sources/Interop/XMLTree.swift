/// The element tree `XMLReader` reads, with the line each element starts on. Every walk over
/// it keeps its own stack, so a deep tree costs memory, never the thread's stack.
enum XMLTree {
    final class Element {
        let name: String
        let attributes: [String: String]
        let line: Int
        private(set) var children: [Element] = []
        /// The element's own text (its direct text and CDATA, without its children's).
        private(set) var text = ""
        /// Text and child elements in document order (for mixed content: "Which <b>port</b>?").
        private(set) var pieces: [Piece] = []

        enum Piece {
            case text(String)
            case element(Element)
        }

        init(name: String, attributes: [String: String], line: Int) {
            self.name = name
            self.attributes = attributes
            self.line = line
        }

        func append(child: Element) {
            children.append(child)
            pieces.append(.element(child))
        }

        func append(text more: String) {
            text += more
            if case .text(let previous)? = pieces.last {
                pieces[pieces.count - 1] = .text(previous + more)
            } else {
                pieces.append(.text(more))
            }
        }

        /// All the text inside, in order, leaving out the elements `skipping` names (each
        /// becomes a blank). Line breaks and blocks of HTML end their line.
        func innerText(skipping: Set<String> = []) -> String { innerText { skipping.contains($0.name) } }

        /// All the text inside, leaving out the elements `skipped` says (each becomes a blank)
        /// and putting the text `standIn` gives in place of an element it names.
        func innerText(skipped: (Element) -> Bool, standIn: (Element) -> String? = { _ in nil }) -> String {
            var result = "", gap = false
            var stack: [(element: Element, next: Int)] = [(self, 0)]
            while let (element, next) = stack.popLast() {
                guard next < element.pieces.count else {
                    if element !== self, ["p", "div", "li"].contains(element.name) { result += "\n" }
                    continue
                }
                stack.append((element, next + 1))
                switch element.pieces[next] {
                case .text(let text):
                    // The blank a left-out element stands for absorbs the blanks around it.
                    result += gap ? String(text.drop { $0 == " " }) : text
                    gap = false
                case .element(let child):
                    if let text = standIn(child) {
                        result += text
                    } else if skipped(child) {
                        if !result.hasSuffix(" ") { result += " " }
                        gap = true
                    } else if child.name == "br" {
                        result += "\n"
                    } else {
                        stack.append((child, 0))
                    }
                }
            }
            return result
        }

        /// The element's content as the tokens of HTML (`HTMLRichText` reads them as it reads
        /// Moodle's text), leaving out the children `skipping` says; text and attribute values
        /// are escaped again, since the reader decodes what it reads. An element `standIn` names
        /// becomes the text it gives.
        func markupTokens(skipping: (Element) -> Bool = { _ in false }, standIn: (Element) -> String? = { _ in nil }) -> [HTMLScanner.Token] {
            func escaped(_ text: String) -> String { text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") }
            var tokens: [HTMLScanner.Token] = []
            var stack: [(element: Element, next: Int)] = [(self, 0)]
            while let (element, next) = stack.popLast() {
                guard next < element.pieces.count else {
                    if element !== self, !["br", "img", "hr"].contains(element.name) { tokens.append(.end(name: element.name.lowercased())) }
                    continue
                }
                stack.append((element, next + 1))
                switch element.pieces[next] {
                case .text(let text): tokens.append(.text(escaped(text)))
                case .element(let child):
                    if let text = standIn(child) {
                        tokens.append(.text(escaped(text)))
                        continue
                    }
                    guard !skipping(child) else { continue }
                    let attributes = child.attributes.sorted { $0.key < $1.key }.map { (name: $0.key.lowercased(), value: escaped($0.value)) }
                    let isVoid = ["br", "img", "hr"].contains(child.name)
                    tokens.append(.start(name: child.name.lowercased(), attributes: attributes, selfClosing: isVoid))
                    stack.append((child, 0))
                }
            }
            return tokens
        }

        /// Every element below with `name`, in document order.
        func descendants(_ name: String) -> [Element] { descendants { $0.name == name } }

        /// Every element below that `matches`, in document order.
        func descendants(where matches: (Element) -> Bool) -> [Element] {
            var found: [Element] = []
            var stack = Array(children.reversed())
            while let element = stack.popLast() {
                if matches(element) { found.append(element) }
                stack += element.children.reversed()
            }
            return found
        }

        /// The first child named `name`.
        func child(_ name: String) -> Element? { children.first { $0.name == name } }
        /// Every child named `name`.
        func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
        /// The text of the child `name`'s `<text>` (Moodle's shape), or its own text.
        func textOf(_ name: String) -> String? {
            guard let element = child(name) else { return nil }
            return (element.child("text")?.text ?? element.text)
        }
    }

    /// The document's root, or why it cannot be read (with its line).
    static func parse(_ data: [UInt8]) throws(FormatError) -> Element { try XMLReader.parse(data) }
}
