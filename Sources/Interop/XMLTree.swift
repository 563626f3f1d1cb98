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
        func innerText(skipping: Set<String> = []) -> String {
            var result = ""
            var stack: [(element: Element, next: Int)] = [(self, 0)]
            while let (element, next) = stack.popLast() {
                guard next < element.pieces.count else {
                    if element !== self, ["p", "div", "li"].contains(element.name) { result += "\n" }
                    continue
                }
                stack.append((element, next + 1))
                switch element.pieces[next] {
                case .text(let text): result += text
                case .element(let child):
                    if skipping.contains(child.name) {
                        result += " "
                    } else if child.name == "br" {
                        result += "\n"
                    } else {
                        stack.append((child, 0))
                    }
                }
            }
            return result
        }

        /// Every element below with `name`, in document order.
        func descendants(_ name: String) -> [Element] {
            var found: [Element] = []
            var stack = Array(children.reversed())
            while let element = stack.popLast() {
                if element.name == name { found.append(element) }
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
