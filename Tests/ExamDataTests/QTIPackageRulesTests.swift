import ContentPackage
import ExamData
import Foundation
import FoundationXML
import Interop
import TestSupport
import Testing

/// The packages the portal writes hold to the rules of IMS QTI 3.0 and IMS Content Packaging
/// (written down here from the specifications, as the XSDs are not shipped): what is
/// referenced exists, identifiers are unique, an item's parts come in the order the schema
/// gives, and a correct response names the item's own choices.
@Suite("QTI packages keep to the specification", .onTestThreads)
struct QTIPackageRulesTests {
    /// A parsed element: name, attributes, children in order.
    final class Node {
        let name: String, attributes: [String: String]
        var children: [Node] = []
        var text = ""
        init(_ name: String, _ attributes: [String: String]) { self.name = name; self.attributes = attributes }
        func all(_ name: String) -> [Node] { children.flatMap { ($0.name == name ? [$0] : []) + $0.all(name) } }
    }

    final class Builder: NSObject, XMLParserDelegate {
        var stack: [Node] = [], root: Node?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            let node = Node(name, attributes)
            stack.last?.children.append(node)
            if stack.isEmpty { root = node }
            stack.append(node)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { _ = stack.popLast() }
        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
    }

    static func parse(_ bytes: [UInt8]) throws -> Node {
        let parser = XMLParser(data: Data(bytes)), builder = Builder()
        parser.delegate = builder
        #expect(parser.parse() && parser.parserError == nil && builder.stack.isEmpty, "well-formed")
        return try #require(builder.root)
    }

    static let document = """
        {"format": 1, "regions": [{"code": "r", "name": "Region", "exams": [{"slug": "net", "title": "Networks", "language": "en",
         "passMark": 60, "timeLimitSeconds": 600, "questionCount": 3, "domains": [
          {"slug": "ports", "title": "Ports", "weight": 70, "questions": [
            {"key": "p/1", "type": "single-choice", "stem": "HTTPS port?", "difficulty": 1, "explanation": "IANA.",
             "options": [{"id": "a", "text": "443", "explanation": "Yes."}, {"id": "b", "text": "80"}], "correct": [0]},
            {"key": "p/2", "type": "multi-choice", "stem": "UDP services?", "difficulty": 2,
             "options": [{"id": "a", "text": "DNS"}, {"id": "b", "text": "SSH"}, {"id": "c", "text": "DHCP"}], "correct": [0, 2]},
            {"key": "p/3", "type": "code-snippet", "stem": "What does it print?", "code": "print(1 + 1)", "codeLanguage": "python", "difficulty": 3,
             "options": [{"id": "a", "text": "2"}, {"id": "b", "text": "11"}], "correct": [0]}]},
          {"slug": "tcp", "title": "TCP", "weight": 30, "questions": [
            {"key": "t/1", "type": "ordering", "stem": "Handshake order", "difficulty": 2,
             "options": [{"id": "a", "text": "ACK"}, {"id": "b", "text": "SYN"}, {"id": "c", "text": "SYN-ACK"}], "correct": [1, 2, 0]},
            {"key": "t/2", "type": "matching", "stem": "Match each flag.", "difficulty": 2,
             "options": [{"id": "a", "text": "SYN"}, {"id": "b", "text": "FIN"}],
             "targets": [{"id": "t1", "text": "opens"}, {"id": "t2", "text": "closes"}, {"id": "t3", "text": "resets"}], "correct": [0, 1]},
            {"key": "t/3", "type": "fill-in", "stem": "How many steps has the handshake?", "difficulty": 1,
             "options": [], "accepted": ["3"], "match": "numeric", "tolerance": 0},
            {"key": "t/4", "type": "hotspot", "stem": "Click the server.", "difficulty": 1, "imageUrl": "IMAGE",
             "options": [{"id": "a", "text": "Left", "region": {"shape": "rect", "coords": [0, 0, 1, 1]}},
                         {"id": "b", "text": "Right", "region": {"shape": "polygon", "coords": [1, 0, 2, 0, 2, 1]}}], "correct": [1]}]}]}]}]}
        """

    @Test("a QTI 3.0 or 2.1 package: manifest, test and items as the specifications require", arguments: [true, false])
    func rules(version3: Bool) throws {
        // One option shows a stored picture, which the package must carry as webcontent.
        let picture = try ContentImage(bytes: TestPictures.png)
        var content = try ContentDocument.decode(Data(Self.document.replacingOccurrences(of: "IMAGE", with: picture.path).utf8))
        content.images = [picture]
        guard case .array(var options) = content.regions[0].exams[0].domains[0].questions[0].options, case .object(var first) = options[0] else {
            Issue.record("the document's first question has options")
            return
        }
        first["imageUrl"] = .string(picture.path)
        options[0] = .object(first)
        content.regions[0].exams[0].domains[0].questions[0].options = .array(options)
        let entries = try Zip.entries(QTIPackage.archive(content, version3: version3))
        let files = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0.bytes) })
        let item = version3 ? "qti-" : "", camel = !version3
        func name(_ kebab: String) -> String {
            guard camel else { return item + kebab }
            let words = kebab.split(separator: "-")
            return String(words[0]) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }

        // The manifest: unique identifiers, every href present, dependencies resolvable.
        let manifest = try Self.parse(try #require(files["imsmanifest.xml"]))
        #expect(manifest.name == "manifest")
        let resources = manifest.all("resource")
        let identifiers = resources.compactMap { $0.attributes["identifier"] }
        #expect(Set(identifiers).count == identifiers.count && identifiers.count == 9)
        for resource in resources {
            #expect(files[resource.attributes["href"] ?? ""] != nil)
            for file in resource.all("file") { #expect(files[file.attributes["href"] ?? ""] != nil) }
            for dependency in resource.all("dependency") { #expect(identifiers.contains(dependency.attributes["identifierref"] ?? "")) }
        }
        #expect(Set(resources.compactMap { $0.attributes["type"] }) == (version3 ? ["imsqti_test_xmlv3p0", "imsqti_item_xmlv3p0", "webcontent"] : ["imsqti_test_xmlv2p1", "imsqti_item_xmlv2p1", "webcontent"]))
        // The picture: a webcontent resource, and the item showing it depends on it.
        let image = try #require(resources.first { $0.attributes["type"] == "webcontent" })
        #expect(files[image.attributes["href"] ?? ""] == TestPictures.png)
        let showing = resources.filter { $0.all("dependency").contains { $0.attributes["identifierref"] == image.attributes["identifier"] } }
        #expect(showing.map { $0.attributes["href"] } == ["items/Q1.xml", "items/Q7.xml"], "the choice with the picture and the hotspot over it")

        // The test: a section per domain, selections within their items and summing to the exam's count.
        let test = try Self.parse(try #require(files["test.xml"]))
        #expect(test.name == name("assessment-test") && test.all(name("test-part")).count == 1)
        let sections = test.all(name("assessment-section"))
        #expect(sections.map { $0.attributes["title"] ?? "" } == ["Ports", "TCP"])
        var selected = 0
        for section in sections {
            let refs = section.all(name("assessment-item-ref"))
            let select = Int(section.all(name("selection")).first?.attributes["select"] ?? "") ?? -1
            #expect((1...refs.count).contains(select))
            selected += select
            for ref in refs { #expect(files[ref.attributes["href"] ?? ""] != nil) }
        }
        #expect(selected == 3)
        var seenKinds = Set<String>()

        // Each item: its parts in the schema's order, unique choices, a correct response naming them.
        let order = ["response-declaration", "outcome-declaration", "item-body", "response-processing", "modal-feedback"].map(name)
        for (path, bytes) in files where path.hasPrefix("items/") {
            let root = try Self.parse(bytes)
            #expect(root.name == name("assessment-item"), "\(path)")
            for attribute in ["identifier", "title", "adaptive", camel ? "timeDependent" : "time-dependent"] { #expect(root.attributes[attribute] != nil, "\(path) \(attribute)") }
            let positions = root.children.map { order.firstIndex(of: $0.name) ?? -1 }
            #expect(!positions.contains(-1) && positions == positions.sorted(), "\(path): \(root.children.map(\.name))")
            let declaration = try #require(root.all(name("response-declaration")).first)
            let values = declaration.all(name("value")).map { $0.text }
            let cardinality = declaration.attributes["cardinality"], baseType = declaration.attributes[camel ? "baseType" : "base-type"]
            #expect(!values.isEmpty, "\(path)")
            if cardinality == "single" { #expect(values.count == 1) }
            // Every picture an item shows is in the package, at its address relative to the item.
            for img in root.all("img") {
                let source = img.attributes["src"] ?? ""
                let target = URL(fileURLWithPath: "/" + path).deletingLastPathComponent().appendingPathComponent(source).standardized.path.dropFirst()
                #expect(files[String(target)] != nil, "\(path): \(source)")
                #expect(img.attributes["alt"] != nil)
            }
            let kinds = ["choice-interaction", "order-interaction", "match-interaction", "text-entry-interaction", "hotspot-interaction"]
            let interactions = kinds.flatMap { kind in root.all(name(kind)).map { (kind, $0) } }
            #expect(interactions.count == 1, "\(path)")
            guard let (kind, interaction) = interactions.first else { continue }
            #expect(interaction.attributes[camel ? "responseIdentifier" : "response-identifier"] == declaration.attributes["identifier"])
            seenKinds.insert(kind)
            switch kind {
            case "match-interaction":
                // Directed pairs from the first set's choices to the second's, each item once.
                let sets = interaction.all(name("simple-match-set")).map { $0.all(name("simple-associable-choice")).compactMap { $0.attributes["identifier"] } }
                #expect(sets.count == 2 && baseType == "directedPair" && cardinality == "multiple")
                let pairs = values.map { $0.split(separator: " ").map(String.init) }
                #expect(sets.count == 2 && pairs.allSatisfy { $0.count == 2 && sets[0].contains($0[0]) && sets[1].contains($0[1]) }, "\(path)")
                #expect(Set(pairs.map(\.first)).count == pairs.count)
            case "text-entry-interaction":
                #expect(baseType == "string" || baseType == "float")
            case "hotspot-interaction":
                // Each hotspot a shape QTI knows, with coordinates that fit it; the key among them.
                let hotspots = interaction.all(name("hotspot-choice"))
                #expect(values.allSatisfy { value in hotspots.contains { $0.attributes["identifier"] == value } })
                for hotspot in hotspots {
                    let coords = (hotspot.attributes["coords"] ?? "").split(separator: ",").compactMap { Double($0) }
                    let counts = ["rect": [4], "circle": [3], "poly": Array(stride(from: 6, through: 100, by: 2))][hotspot.attributes["shape"] ?? ""] ?? []
                    #expect(counts.contains(coords.count), "\(path)")
                }
                let source = interaction.all("img").first?.attributes["src"] ?? interaction.all("object").first?.attributes["data"] ?? ""
                let target = URL(fileURLWithPath: "/" + path).deletingLastPathComponent().appendingPathComponent(source).standardized.path.dropFirst()
                #expect(files[String(target)] != nil, "the hotspot's picture is in the package")
            default:
                let choices = root.all(name("simple-choice")).compactMap { $0.attributes["identifier"] }
                #expect(Set(choices).count == choices.count && choices.count >= 2)
                #expect(values.allSatisfy(choices.contains), "\(path)")
                if cardinality == "ordered" { #expect(Set(values) == Set(choices)) }
                for entry in declaration.all(name("map-entry")) { #expect(choices.contains(entry.attributes[camel ? "mapKey" : "map-key"] ?? "")) }
            }
        }
        #expect(seenKinds.count == 5, "every interaction the portal writes: \(seenKinds)")
    }
}
