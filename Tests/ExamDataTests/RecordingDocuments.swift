import ContentPackage
import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// A question with a recording (an MP3 and a WebM of a few bytes) in its stem.
enum RecordingDocuments {
    static var document: ContentDocument {
        let (audio, video) = (try! ContentImage(bytes: mp3), try! ContentImage(bytes: webm))
        let question = ContentDocument.Question(
            key: "listen", type: "single-choice",
            stem: "![Bonjour, je m'appelle Claire.](\(audio.path))\n\n![The port's light turns from amber to green.](\(video.path) \"Exhibit 2\")\n\nWhich language, and which light?",
            markup: "markdown", options: .array([.object(["id": .string("a"), "text": .string("French, green")]), .object(["id": .string("b"), "text": .string("Spanish, amber")])]),
            correct: .array([.number(0)]), difficulty: 2)
        var document = RichDocuments.document(exam: "exam-a", questions: [question])
        document.regions[0].code = "school"
        document.images = [audio, video]
        return document
    }

    static let mp3: [UInt8] = Array("ID3".utf8) + [0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10] + [UInt8](repeating: 0, count: 16) + [0xFF, 0xFB, 0x90, 0x44] + [UInt8](0...99)

    static let webm: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84] + Array("webm".utf8) + [UInt8](repeating: 7, count: 64)
}
