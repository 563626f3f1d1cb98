import ExamData
import Foundation
import Interop
import PortalApp
import PortalTestSupport
import QuestionEngine
import TestSupport
import Testing

/// Audio and video in a question: told from their bytes, imported from Moodle's link to a
/// recording, played with the browser's own controls above the transcript, and served so a
/// player can seek (ranges).
@Suite("Recordings in questions", .onTestThreads)
struct RecordingPageTests {
    /// An MP3's first bytes (an ID3 tag, then a frame): enough for the portal to tell it.
    static let mp3: [UInt8] = Array("ID3".utf8) + [0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10] + [UInt8](repeating: 0, count: 16) + [0xFF, 0xFB, 0x90, 0x44] + [UInt8](0...199)

    @Test("a recording is told by its bytes (MP3, Ogg, MP4, M4A, WebM), may be larger than a picture but not without bound")
    func identification() throws {
        #expect(try ContentImage(bytes: Self.mp3).mediaType == "audio/mpeg")
        #expect(try ContentImage(bytes: Self.mp3).path.hasSuffix(".mp3"))
        #expect(ContentImage.mediaType(of: [0xFF, 0xFB, 0x90, 0x44] + [UInt8](repeating: 0, count: 12)) == "audio/mpeg")
        #expect(ContentImage.mediaType(of: Array("OggS".utf8) + [UInt8](repeating: 0, count: 12)) == "audio/ogg")
        #expect(ContentImage.mediaType(of: [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0]) == "video/mp4")
        #expect(ContentImage.mediaType(of: [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [0, 0]) == "audio/mp4")
        #expect(ContentImage.mediaType(of: [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84] + Array("webm".utf8) + [0, 0]) == "video/webm")
        let long = Self.mp3 + [UInt8](repeating: 0, count: 3 * 1024 * 1024)
        #expect(try ContentImage(bytes: long).isRecording)
        #expect(throws: ImageRefusal.tooLarge(ContentImage.maximumMediaBytes + 1)) {
            try ContentImage(bytes: Self.mp3 + [UInt8](repeating: 0, count: ContentImage.maximumMediaBytes + 1 - Self.mp3.count))
        }
    }

    static func moodle(_ text: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz><question type="multichoice"><name><text>Greeting</text></name>
              <questiontext format="html"><text><![CDATA[\(text)]]></text>
                <file name="bonjour.mp3" encoding="base64">\(Data(mp3).base64EncodedString())</file></questiontext>
              <answer fraction="100"><text>French</text></answer><answer fraction="0"><text>Spanish</text></answer>
            </question></quiz>
            """.utf8)
    }

    @Test("Moodle's link to a recording (its media filter plays it) becomes the recording, its words those of the link; a video without words is named")
    func moodleImport() throws {
        let content = try ForeignImport().read(Self.moodle(#"<p><a href="@@PLUGINFILE@@/bonjour.mp3">Listen to this greeting:</a><br><br>What language is being spoken?</p>"#), format: .moodleXML, language: "en")
        let question = try #require(content.questions.first, "\(content.skipped)")
        let stem = try #require(question.richStem)
        let stored = try ContentImage(bytes: Self.mp3)
        #expect(stem.blocks.contains(.picture(RichText.Picture(source: stored.path, alt: "Listen to this greeting:"))), "\(stem)")
        #expect(question.shownImages.map(\.path) == [stored.path])
        #expect(question.stem.contains("What language is being spoken?"))
        let video = try ForeignImport().read(Self.moodle(#"<p><video src="@@PLUGINFILE@@/bonjour.mp3"></video>Which?</p>"#), format: .moodleXML, language: "en")
        #expect(video.skipped.map(\.reason).first?.hasPrefix("the video @@PLUGINFILE@@/bonjour.mp3 has no transcript") == true, "\(video.skipped)")
    }

    @Test("a student hears it with the browser's own controls above its transcript; the file is served with ranges, so a player can seek")
    func playedAndServed() throws {
        let site = try PortalSite()
        let stored = try ContentImage(bytes: Self.mp3)
        let question = ContentDocument.Question(
            key: "greeting", type: "single-choice", stem: "![Bonjour, je m'appelle Claire.](\(stored.path))\n\nWhat language is being spoken?", markup: "markdown",
            options: .array([.object(["id": .string("a"), "text": .string("French")]), .object(["id": .string("b"), "text": .string("Spanish")])]),
            correct: .array([.number(0)]), difficulty: 2)
        let document = ContentDocument(regions: [ContentDocument.Region(code: "lang", name: "Languages", exams: [ContentDocument.Exam(
            slug: "french", title: "French", description: "", language: "en", passMark: 50, timeLimitSeconds: 600, questionCount: 1,
            domains: [ContentDocument.Domain(slug: "listening", title: "Listening", weight: 100, questions: [question])])])], images: [stored])
        #expect(ContentImport().problems(document).isEmpty, "\(ContentImport().problems(document))")
        _ = try site.admin { try ContentImport().apply(document, $0) }
        let browser = site.browser()
        try browser.register("lea")
        let token = browser.csrfToken(from: try browser.request("GET", "/exams/lang/french"))
        let started = try browser.request("POST", "/sessions", pairs: [("csrf_token", token), ("region", "lang"), ("exam", "french"), ("mode", "practice"), ("count", "1"), ("domain", "listening")])
        #expect(started.status == 303, "\(started.bodyText)")
        let path = started.header("Location")?.replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: "") ?? ""
        let page = try browser.request("GET", path + "?q=1").bodyText
        #expect(page.contains(#"<figure class="recording"><audio controls preload="none" src="\#(stored.path)"></audio><figcaption><span class="transcript">Bonjour, je m&#39;appelle Claire.</span></figcaption></figure>"#), "\(page)")

        let whole = try browser.request("GET", stored.path)
        #expect(whole.status == 200 && whole.header("Content-Type") == "audio/mpeg" && whole.header("Accept-Ranges") == "bytes" && whole.body == Self.mp3)
        let part = try browser.request("GET", stored.path, extraHeaders: "Range: bytes=3-9\r\n")
        #expect(part.status == 206 && part.header("Content-Range") == "bytes 3-9/\(Self.mp3.count)" && part.body == Array(Self.mp3[3...9]))
        let tail = try browser.request("GET", stored.path, extraHeaders: "Range: bytes=-4\r\n")
        #expect(tail.status == 206 && tail.body == Array(Self.mp3.suffix(4)))
        let beyond = try browser.request("GET", stored.path, extraHeaders: "Range: bytes=\(Self.mp3.count)-\r\n")
        #expect(beyond.status == 416 && beyond.header("Content-Range") == "bytes */\(Self.mp3.count)")
    }
}
