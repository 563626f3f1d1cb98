import Foundation
import HTTPServer
@testable import PortalApp
import Testing
import TestSupport

/// The kept page with holes: one gzip stream made by copying, whatever goes in the holes.
@Suite("Spliced documents", .onTestThreads)
struct SplicedDocumentTests {
    static let page = "<!DOCTYPE html><title>Results</title>" + String(repeating: "<p>Question 12: right — the key was B.</p>\n", count: 200)

    @Test("a document spliced with each response's values is one valid gzip stream of the same bytes, whatever the values")
    func splicedDocument() throws {
        let marker = Array("\u{1}hole\u{1}".utf8), other = Array("\u{1}stamp\u{1}".utf8)
        let rendered = Array((Self.page + "\u{1}hole\u{1}<input value=\"\u{1}stamp\u{1}\">" + Self.page + "\u{1}hole\u{1}").utf8)
        let document = SplicedDocument(rendered, markers: [marker, other])
        #expect(document.holes == 3)
        let cases: [[[UInt8]]] = [
            [Array("a4e1…".utf8), Array("1764540000000.9f2c".utf8)],
            [[], []],
            [Array(repeating: 0x41, count: 70_000), Array("日本語".utf8)],
        ]
        for values in cases {
            let plain = document.plain(values)
            let page = Array(Self.page.utf8)
            #expect(plain == page + values[0] + Array("<input value=\"".utf8) + values[1] + Array("\">".utf8) + page + values[0])
            // zlib checks the stream, its CRC and its length on the way.
            #expect(Gzip.decompress(document.gzip(values)) == plain)
        }
        // Nothing to splice: the document is itself.
        let whole = SplicedDocument(Array(Self.page.utf8), markers: [marker])
        #expect(whole.holes == 0 && Gzip.decompress(whole.gzip([])) == Array(Self.page.utf8))
        #expect(whole.gzip([]).count < Self.page.utf8.count / 4)
    }
}
