import Foundation
import Interop
import QuestionEngine
import Testing
import TestSupport

/// Files made to hurt the importer: nesting that would overflow a thread's stack, document types
/// hidden past a long comment or in another encoding, input that makes backtracking patterns
/// take hours, and pictures that declare more pixels than a phone can hold. Each is refused with
/// a message or read harmlessly, and the process carries on.
@Suite("Hostile import files", .onTestThreads)
struct HostileImportTests {
    static func moodle(_ question: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n<question type=\"multichoice\">\n\(question)\n</question>\n</quiz>\n".utf8)
    }

    static func read(_ data: Data, _ format: ForeignImport.Format) throws(FormatError) -> ForeignContent {
        try ForeignImport().read(data, format: format, language: "en")
    }

    @Test("8,000 nested elements are refused at depth 256 with the line, without overflowing the stack", arguments: [ForeignImport.Format.moodleXML, .qti21])
    func deepNesting(_ format: ForeignImport.Format) throws {
        let root = format == .moodleXML ? "quiz" : "assessmentItem"
        let xml = "<\(root)>\n" + String(repeating: "<a>", count: 8000) + String(repeating: "</a>", count: 8000) + "</\(root)>"
        let refused = #expect(throws: FormatError.self) { _ = try Self.read(Data(xml.utf8), format) }
        #expect(refused?.problem.contains("more than 256 levels deep") == true)
        #expect(refused?.position == "line 2")
        // Just inside the limit, the same shape is read (and has no question in it).
        let shallow = "<\(root)>" + String(repeating: "<a>", count: 250) + String(repeating: "</a>", count: 250) + "</\(root)>"
        #expect(try Self.read(Data(shallow.utf8), format).questions.isEmpty)
    }

    @Test("a format-1 document nested 100,000 deep is refused as malformed, without overflowing the stack")
    func deepJSON() throws {
        let deep = Data(("{\"format\": 1, \"regions\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8)
        #expect(ForeignImport.detect(deep) == .portalJSON)
        #expect(throws: ImportProblem.self) { _ = try ContentDocument.decode(deep) }
    }

    @Test("a document type is refused wherever it stands: after a 70 KB comment, in UTF-16 either way, in UTF-32, without a byte-order mark")
    func documentTypes() throws {
        let entity = #"<!DOCTYPE quiz [<!ENTITY leak "LEAKED">]><quiz><question type="category"><category><text>&leak;</text></category></question></quiz>"#
        let afterComment = "<?xml version=\"1.0\"?>\n<!--" + String(repeating: "x", count: 70_000) + "-->\n" + entity
        var encodings: [(String, Data)] = [("after a long comment", Data(afterComment.utf8))]
        encodings.append(("UTF-16 LE with a mark", Data([0xFF, 0xFE]) + entity.data(using: .utf16LittleEndian)!))
        encodings.append(("UTF-16 BE with a mark", Data([0xFE, 0xFF]) + entity.data(using: .utf16BigEndian)!))
        encodings.append(("UTF-16 LE without a mark", entity.data(using: .utf16LittleEndian)!))
        encodings.append(("UTF-16 BE without a mark", entity.data(using: .utf16BigEndian)!))
        encodings.append(("UTF-32 LE with a mark", Data([0xFF, 0xFE, 0, 0]) + entity.data(using: .utf32LittleEndian)!))
        encodings.append(("UTF-32 BE without a mark", entity.data(using: .utf32BigEndian)!))
        for (name, data) in encodings {
            let refused = #expect(throws: FormatError.self, "\(name)") { _ = try Self.read(data, .moodleXML) }
            #expect(refused?.problem.contains("declares a document type") == true, "\(name): \(String(describing: refused))")
        }
        // An entity never declared is an error, not text.
        let undeclared = #expect(throws: FormatError.self) {
            _ = try Self.read(Data("<quiz><question type=\"category\"><category><text>&leak;</text></category></question></quiz>".utf8), .moodleXML)
        }
        #expect(undeclared?.problem.contains("&leak;") == true)
    }

    @Test("a numerical GIFT answer beyond fifteen digits, infinite or not a number is skipped with its reason, not a crash")
    func numbersBeyondReach() throws {
        let huge = String(repeating: "8", count: 80)
        let gift = """
            ::far::How far? {#\(huge):5}

            ::inf::Infinity? {#inf}

            ::nan::Not a number? {#nan..1}

            ::wide::Wide range? {#1..1e300}

            ::mtu::What MTU does Ethernet use, to within 100 bytes? {#1400..1600}
            """
        let read = try Self.read(Data(gift.utf8), .gift)
        #expect(read.questions.count == 1, "only the MTU question can be checked")
        #expect(read.skipped.count == 4)
        #expect(read.skipped.allSatisfy { $0.reason.contains("a number beyond fifteen digits") })
    }

    @Test("a well-formed file in UTF-16 or UTF-32 reads like its UTF-8 twin")
    func otherEncodings() throws {
        let text = "<?xml version=\"1.0\"?>\n<quiz><question type=\"truefalse\"><name><text>tf</text></name>"
            + "<questiontext format=\"html\"><text>Ist 2 &lt; 3 — ja? 日本</text></questiontext>"
            + "<answer fraction=\"100\"><text>true</text></answer><answer fraction=\"0\"><text>false</text></answer></question></quiz>"
        let utf8 = try Self.read(Data(text.utf8), .moodleXML)
        #expect(utf8.questions.first?.stem == "Ist 2 < 3 — ja? 日本")
        for data in [Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!, text.data(using: .utf16BigEndian)!,
                     Data([0, 0, 0xFE, 0xFF]) + text.data(using: .utf32BigEndian)!] {
            #expect(try Self.read(data, .moodleXML) == utf8)
        }
        // An encoding the reader does not know is named, not guessed.
        let ebcdic = #expect(throws: FormatError.self) { _ = try Self.read(Data("<?xml version=\"1.0\" encoding=\"EBCDIC-US\"?><quiz/>".utf8), .moodleXML) }
        #expect(ebcdic?.problem.contains("EBCDIC-US") == true)
    }

    @Test("text made to make patterns backtrack is read in one pass: braces for GIFT's detection, an unclosed script, unclosed code blocks")
    func backtrackingBait() throws {
        // 256 KB of `{` after a question's text: not GIFT (no answer block ever closes), and said so.
        let braces = Data(("::Q:: What? " + String(repeating: "{", count: 256 * 1024)).utf8)
        #expect(ForeignImport.detect(braces) == nil)
        // An unclosed <script> hides everything after it; nothing of it reaches the stem.
        let script = String(repeating: "<script>alert(1)", count: 8_000)
        let scripted = try Self.read(Self.moodle(
            "<name><text>s</text></name><questiontext format=\"html\"><text><![CDATA[Which port? \(script)]]></text></questiontext>"
                + "<answer fraction=\"100\"><text>443</text></answer><answer fraction=\"0\"><text>80</text></answer>"), .moodleXML)
        #expect(scripted.questions.first?.stem == "Which port?")
        // Thousands of <pre><code> that never close: the question text is what is left.
        let code = String(repeating: "<pre> <code>x", count: 8_000)
        let coded = try Self.read(Self.moodle(
            "<name><text>c</text></name><questiontext format=\"html\"><text><![CDATA[Read it. \(code)]]></text></questiontext>"
                + "<answer fraction=\"100\"><text>a</text></answer><answer fraction=\"0\"><text>b</text></answer>"), .moodleXML)
        #expect(coded.questions.first?.code == nil)
        #expect(coded.questions.first?.stem.hasPrefix("Read it.") == true)
    }

    @Test("a picture declaring more pixels than a device can draw is refused with its size named", arguments: [
        ("PNG", TestImages.png(width: 65_535, height: 65_535), "65535 × 65535 px"),
        ("GIF", TestImages.gif(width: 9_000, height: 10), "9000 × 10 px"),
        ("JPEG", TestImages.jpeg(width: 8_000, height: 8_000), "8000 × 8000 px"),
        ("WebP", TestImages.webp(width: 16_383, height: 200), "16383 × 200 px"),
        ("SVG", Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="10"><rect/></svg>"#.utf8), "100000 × 10 px"),
        ("SVG viewBox", Array(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9000 9000"/>"#.utf8), "9000 × 9000 px"),
    ])
    func oversizedPictures(_ kind: String, _ bytes: [UInt8], _ size: String) throws {
        let refused = #expect(throws: ImageRefusal.self, "\(kind)") { _ = try ContentImage(bytes: bytes) }
        #expect(refused?.description.contains(size) == true, "\(kind): \(String(describing: refused))")
    }

    @Test("pictures within the limits are kept, and one whose header is cut short is refused")
    func ordinaryPictures() throws {
        for bytes in [TestImages.png(width: 800, height: 600), TestImages.gif(width: 1, height: 1), TestImages.jpeg(width: 4000, height: 3000),
                      TestImages.webp(width: 640, height: 480), Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="50%"><rect/></svg>"#.utf8)] {
            #expect(throws: Never.self) { _ = try ContentImage(bytes: bytes) }
        }
        let cut = #expect(throws: ImageRefusal.self) { _ = try ContentImage(bytes: Array(TestImages.png(width: 10, height: 10).prefix(14))) }
        #expect(cut == .sizeUnreadable)
    }
}

/// The smallest headers of each picture format that declare a size.
enum TestImages {
    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
    static func littleEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> ($0 * 8)) & 0xFF) } }

    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + bigEndian(width, 4) + bigEndian(height, 4)
            + [8, 6, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    static func gif(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + littleEndian(width, 2) + littleEndian(height, 2) + [0, 0, 0, 0x3B]
    }

    static func jpeg(width: Int, height: Int) -> [UInt8] {
        // SOI, an APP0 segment to walk past, then SOF0.
        [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xC0, 0, 17, 8] + bigEndian(height, 2) + bigEndian(width, 2) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1] + [0xFF, 0xD9]
    }

    static func webp(width: Int, height: Int) -> [UInt8] {
        Array("RIFF".utf8) + littleEndian(22, 4) + Array("WEBPVP8 ".utf8) + littleEndian(10, 4) + [0, 0, 0, 0x9D, 0x01, 0x2A]
            + littleEndian(width, 2) + littleEndian(height, 2)
    }
}
