import ContentPackage
import Foundation
import QuestionEngine

/// IMS QTI 3.0 content packages: an exam's published questions as one item each
/// (`imsqti_item_xmlv3p0`), and an assessment test with a section per domain whose
/// `qti-selection` draws the blueprint's share of the exam's question count
/// (`imsqti_test_xmlv3p0`), and the pictures options and texts show (`webcontent`), listed in
/// `imsmanifest.xml`. Reading a package takes its items,
/// each section's title becoming the category of the items it refers to.
public enum QTIPackage {
    // MARK: Export

    /// The package of an exam's published questions, in QTI 3.0 or (`version3: false`) 2.1.
    public static func archive(_ content: ContentDocument, version3: Bool = true) -> [UInt8] {
        let n = QTIFormat.Names(version3: version3)
        let itemType = version3 ? "imsqti_item_xmlv3p0" : "imsqti_item_xmlv2p1", testType = version3 ? "imsqti_test_xmlv3p0" : "imsqti_test_xmlv2p1"
        guard let exam = content.regions.first?.exams.first else { return Zip.archive([]) }
        var entries: [Zip.Entry] = [], resources = "", refs: [String: [String]] = [:]
        var number = 0
        let pictures = ExportPictures(content)
        var packed: [String: ExportPictures.Picture] = [:]
        for domain in exam.domains {
            for question in domain.questions where (question.status ?? "published") == "published" {
                number += 1
                let identifier = "Q\(number)", href = "items/\(identifier).xml"
                // A question in markdown goes as the XHTML of its trees.
                let (plain, texts) = (try? question.stored(examMarkup: exam.markup)) ?? (question, nil)
                let written = item(plain, identifier: identifier, language: exam.language, version3: version3, pictures: pictures, texts: texts)
                entries.append(Zip.Entry(path: href, bytes: Array(written.utf8)))
                // Each picture is a webcontent resource the items showing it depend on.
                let view = ChoiceView(plain)
                let used = (view.options.map(\.imageUrl) + [view.details.imageUrl] + (texts?.picturePaths ?? [])).compactMap { pictures.picture($0) }
                for picture in used { packed[picture.name] = picture }
                let dependencies = Set(used.map(\.name)).sorted().map { "<dependency identifierref=\"IMG-\($0)\"/>" }.joined()
                resources += "    <resource identifier=\"ITEM-\(identifier)\" type=\"\(itemType)\" href=\"\(href)\"><file href=\"\(href)\"/>\(dependencies)</resource>\n"
                refs[domain.slug, default: []].append(identifier)
            }
        }
        for picture in packed.values.sorted(by: { $0.name < $1.name }) {
            entries.append(Zip.Entry(path: "images/\(picture.name)", bytes: [UInt8](picture.data)))
            resources += "    <resource identifier=\"IMG-\(picture.name)\" type=\"webcontent\" href=\"images/\(picture.name)\"><file href=\"images/\(picture.name)\"/></resource>\n"
        }
        // The blueprint over the sections there are (a domain with nothing published has none).
        let present = exam.domains.filter { !(refs[$0.slug] ?? []).isEmpty }
        let quotas = apportion(exam.questionCount, present.map { ($0.slug, $0.weight) })
        var sections = ""
        for domain in present {
            let items = refs[domain.slug] ?? []
            sections += "      <\(n.element("assessment-section")) identifier=\"S-\(escape(domain.slug))\" title=\"\(escape(domain.title))\" visible=\"true\">\n"
            sections += "        <\(n.element("selection")) select=\"\(min(items.count, quotas[domain.slug] ?? 0))\"/>\n"
            sections += items.map { "        <\(n.element("assessment-item-ref")) identifier=\"\($0)\" href=\"items/\($0).xml\"/>\n" }.joined()
            sections += "      </\(n.element("assessment-section"))>\n"
        }
        let test = """
            <?xml version="1.0" encoding="UTF-8"?>
            <\(n.element("assessment-test")) xmlns="\(namespace(version3))" identifier="TEST" title="\(escape(exam.title))">
              <\(n.element("test-part")) identifier="PART" \(n.attribute("navigation-mode"))="nonlinear" \(n.attribute("submission-mode"))="simultaneous">
            \(sections)  </\(n.element("test-part"))>
            </\(n.element("assessment-test"))>

            """
        let dependencies = (1...max(1, number)).prefix(number).map { "<dependency identifierref=\"ITEM-Q\($0)\"/>" }.joined()
        let manifest = """
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest xmlns="\(version3 ? "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" : "http://www.imsglobal.org/xsd/imscp_v1p1")" identifier="MANIFEST-\(escape(exam.slug))">
              <metadata><schema>\(version3 ? "QTI Package" : "IMS Content")</schema><schemaversion>\(version3 ? "3.0.0" : "1.1")</schemaversion></metadata>
              <organizations/>
              <resources>
                <resource identifier="TEST" type="\(testType)" href="test.xml"><file href="test.xml"/>\(dependencies)</resource>
            \(resources)  </resources>
            </manifest>

            """
        return Zip.archive([Zip.Entry(path: "imsmanifest.xml", bytes: Array(manifest.utf8)), Zip.Entry(path: "test.xml", bytes: Array(test.utf8))] + entries)
    }

    static func namespace(_ version3: Bool) -> String {
        version3 ? "http://www.imsglobal.org/xsd/imsqtiasi_v3p0" : "http://www.imsglobal.org/xsd/imsqti_v2p1"
    }

    /// `total` split by weight with the largest remainders (ties by slug), as mock exams draw.
    static func apportion(_ total: Int, _ weights: [(String, Int)]) -> [String: Int] {
        let sum = weights.reduce(0) { $0 + max(0, $1.1) }
        guard sum > 0 else { return [:] }
        var quotas: [String: Int] = [:], remainders: [(String, Double)] = []
        for (slug, weight) in weights {
            let exact = Double(total) * Double(max(0, weight)) / Double(sum)
            quotas[slug] = Int(exact)
            remainders.append((slug, exact - Double(Int(exact))))
        }
        let missing = total - quotas.values.reduce(0, +)
        for (slug, _) in remainders.sorted(by: { ($0.1, $1.0) > ($1.1, $0.0) }).prefix(max(0, missing)) { quotas[slug]! += 1 }
        return quotas
    }

    // MARK: Import

    /// The items of a package, each with its section's title as its category.
    static func read(_ archive: [UInt8], language: String) throws(FormatError) -> ForeignContent {
        let entries: [Zip.Entry]
        do throws(ZipError) {
            entries = try Zip.entries(archive)
        } catch {
            throw FormatError(position: "the package", problem: error.problem)
        }
        let files = Dictionary(entries.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        guard let manifestBytes = files["imsmanifest.xml"] else { throw FormatError(position: "the package", problem: "has no imsmanifest.xml") }
        let manifest = try XMLTree.parse(manifestBytes)
        let resources = manifest.descendants("resource")
        // Each item's section, from the tests the package holds.
        var sections: [String: String] = [:]
        for test in resources where (test.attributes["type"] ?? "").hasPrefix("imsqti_test_xmlv") {
            guard let href = test.attributes["href"], let bytes = files[href] else { continue }
            let root = try XMLTree.parse(bytes)
            let sectionName = root.name == "assessmentTest" ? "assessmentSection" : "qti-assessment-section"
            let refName = root.name == "assessmentTest" ? "assessmentItemRef" : "qti-assessment-item-ref"
            for section in root.descendants(sectionName) {
                let title = section.attributes["title"] ?? section.attributes["identifier"] ?? ""
                for ref in section.all(refName) { if let item = ref.attributes["href"] { sections[resolve(item, from: href)] = title } }
            }
        }
        var content = ForeignContent()
        for resource in resources where (resource.attributes["type"] ?? "").hasPrefix("imsqti_item_xmlv") {
            guard let href = resource.attributes["href"] else { continue }
            // An item the manifest lists but the package lacks is named; the others come in.
            guard let bytes = files[href] else {
                content.skipped.append(SkippedItem(position: href, reason: "is listed in the manifest but not in the package"))
                continue
            }
            var item: ForeignContent
            do throws(FormatError) {
                item = try QTIFormat.parse(Data(bytes), language: language) { source in files[resolve(source, from: href)] }
            } catch {
                throw FormatError(position: "\(href) \(error.position)", problem: error.problem)
            }
            for index in item.questions.indices { item.questions[index].category = sections[href] }
            content.questions += item.questions
            content.skipped += item.skipped.map { SkippedItem(position: "\(href) (\($0.position))", reason: $0.reason) }
        }
        return content
    }

    /// An `href` inside a file of the package (a test's item, an item's picture), as a path in
    /// the package: relative to that file's folder, `.` and `..` resolved (never above the root).
    static func resolve(_ href: String, from file: String) -> String {
        let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var parts: [Substring] = []
        for part in folder + href.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "", ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    // MARK: Text

    static func html(_ text: String) -> String { MarkupText.html(text, lineBreak: "<br/>") }
    static func escape(_ text: String) -> String { MarkupText.escape(text) }
    static func format(_ value: Double) -> String { MarkupText.number(value) }
}
