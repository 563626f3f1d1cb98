import Foundation
import PortalApp
import QRCode
import TestSupport
import Testing

/// The server's QR codes, read back by an independent decoder (zbar, from Debian's zbar-tools).
@Suite("QR codes", .onTestThreads)
struct QRCodeTests {
    /// The code drawn as a greyscale image (four pixels a module, a quiet zone of four modules)
    /// and read by `zbarimg`; nil when it reads nothing.
    static func decode(_ code: QRCode) throws -> String? {
        let scale = 4, border = 4, side = (code.size + 2 * border) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<code.size {
            for x in 0..<code.size where code.isDark(x: x, y: y) {
                for dy in 0..<scale {
                    for dx in 0..<scale { pixels[((y + border) * scale + dy) * side + (x + border) * scale + dx] = 0 }
                }
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("code.pgm"), text = folder.appendingPathComponent("text")
        try (Data("P5\n\(side) \(side)\n255\n".utf8) + Data(pixels)).write(to: image)
        let status = runCommand(["sh", "-c", "zbarimg --raw --quiet -Sbinary '\(image.path)' > '\(text.path)'"])
        guard status == 0 else { return nil }
        return String(decoding: try Data(contentsOf: text), as: UTF8.self)
    }

    @Test("codes of every size up to version 10 read back as the text they carry", arguments: [
        "https://portal.example/join/K7PQ2M9X",
        "http://127.0.0.1:8080/live/ABC123",
        "https://study.example.org/s/" + String(repeating: "Zq9_", count: 11),
        "Große Prüfung · 東京 · ทดสอบ",
        String(repeating: "https://example.org/", count: 10),
        "x",
    ])
    func roundTrip(text: String) throws {
        let code = try #require(QRCode(text: text))
        #expect(code.size == code.version * 4 + 17)
        #expect(try Self.decode(code) == text)
    }

    @Test("each version is used for what fits it, and a text too long for version 10 has no code")
    func versions() throws {
        #expect(QRCode(text: String(repeating: "a", count: 14))?.version == 1)
        #expect(QRCode(text: String(repeating: "a", count: 15))?.version == 2)
        #expect(QRCode(text: String(repeating: "a", count: 213))?.version == 10)
        #expect(QRCode(text: String(repeating: "a", count: 214)) == nil)
        for count in [20, 40, 60, 80, 100, 120, 150, 180, 213] {
            let text = String(repeating: "Q", count: count)
            #expect(try Self.decode(try #require(QRCode(text: text))) == text, "\(count) bytes")
        }
    }

    @Test("the SVG is one labelled image with a quiet zone")
    func svg() throws {
        let svg = try #require(QRCode(text: "https://portal.example/live/ABC123")).svg(label: "Join \"here\" & now")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("role=\"img\" aria-label=\"Join &quot;here&quot; &amp; now\""))
        #expect(svg.contains("viewBox=\"0 0 37 37\""), "version 3: 29 modules and 4 on each side")
    }
}
