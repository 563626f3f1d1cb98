import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small element tree read from XML, with the line each element starts on. A document
/// type declaration is refused before parsing: no entity is ever declared, let alone expanded
/// or fetched (no XXE, no billion laughs), and external entities are not resolved either way.
final class XMLTree: NSObject, XMLParserDelegate {
    final class Element {
        let name: String
        let attributes: [String: String]
        let line: Int
        var children: [Element] = []
        /// The element's own text (its direct text and CDATA, without its children's).
        var text = ""
        /// Text and child elements in document order (for mixed content: "Which <b>port</b>?").
        var pieces: [Piece] = []

        enum Piece {
            case text(String)
            case element(Element)
        }

        /// All the text inside, in order, leaving out the elements `skipping` names.
        func innerText(skipping: Set<String> = []) -> String {
            pieces.map { piece in
                switch piece {
                case .text(let text): text
                case .element(let element):
                    // Line breaks and blocks of HTML end their line.
                    skipping.contains(element.name) ? " "
                        : element.name == "br" ? "\n"
                        : ["p", "div", "li"].contains(element.name) ? element.innerText(skipping: skipping) + "\n"
                        : element.innerText(skipping: skipping)
                }
            }.joined()
        }

        /// Every element below with `name`, depth first.
        func descendants(_ name: String) -> [Element] {
            children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(name) }
        }

        init(name: String, attributes: [String: String], line: Int) {
            self.name = name
            self.attributes = attributes
            self.line = line
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

    private var stack: [Element] = []
    private var root: Element?
    private var parser: XMLParser?

    /// The document's root, or why it cannot be read (with its line).
    static func parse(_ data: Data) throws(FormatError) -> Element {
        let head = String(decoding: data.prefix(65_536), as: UTF8.self)
        if head.range(of: "<!DOCTYPE", options: .caseInsensitive) != nil || head.range(of: "<!ENTITY", options: .caseInsensitive) != nil {
            throw FormatError(position: "the file", problem: "declares a document type or entities, which are refused (no external content is ever read)")
        }
        let tree = XMLTree()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = tree
        tree.parser = parser
        // On Linux `parse()` can answer true for a document that ends inside an element: the
        // error, and any element left open, say it did not end well.
        let finished = parser.parse()
        guard finished, parser.parserError == nil, tree.stack.isEmpty, let root = tree.root else {
            let line = parser.lineNumber
            throw FormatError(position: "line \(line)", problem: "is not well-formed XML (\(parser.parserError.map { "\($0.localizedDescription)" } ?? "it ends too soon"))")
        }
        return root
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let element = Element(name: name, attributes: attributes, line: parser.lineNumber)
        stack.last?.children.append(element)
        stack.last?.pieces.append(.element(element))
        if stack.isEmpty { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
        stack.last?.pieces.append(.text(string))
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        let string = String(decoding: block, as: UTF8.self)
        stack.last?.text += string
        stack.last?.pieces.append(.text(string))
    }
}
