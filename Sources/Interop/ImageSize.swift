import Foundation

/// The width and height a picture's own header declares, read before it is stored: a browser
/// decodes a picture to width × height pixels whatever its file size, so an 83-byte PNG that
/// declares 65,535 × 65,535 would cost every student's device gigabytes.
public struct ImageSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// No side longer than this.
    public static let maximumSide = 8192
    /// No more pixels than this.
    public static let maximumPixels = 40_000_000

    public var description: String { "\(width) × \(height) px" }

    /// Whether a browser may be asked to draw it.
    public var isAcceptable: Bool {
        width > 0 && height > 0 && width <= Self.maximumSide && height <= Self.maximumSide && width * height <= Self.maximumPixels
    }

    /// The size the header of a picture of `mediaType` declares; nil when the header does not say
    /// (a truncated file, a JPEG without a frame header). An SVG without a size of its own
    /// (neither absolute `width`/`height` nor a `viewBox`) scales to its box and has none.
    public static func of(_ bytes: [UInt8], mediaType: String) -> ImageSize?? {
        switch mediaType {
        case "image/png": return .some(png(bytes))
        case "image/gif": return .some(gif(bytes))
        case "image/jpeg": return .some(jpeg(bytes))
        case "image/webp": return .some(webp(bytes))
        case "image/svg+xml": return svg(bytes)
        default: return .some(nil)
        }
    }

    // MARK: Bitmaps

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        (at..<(at + count)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        (at..<(at + count)).reversed().reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    /// The IHDR chunk, always first: width and height as 32-bit big-endian numbers.
    private static func png(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        return ImageSize(width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
    }

    /// The logical screen: 16-bit little-endian width and height after the signature.
    private static func gif(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 10 else { return nil }
        return ImageSize(width: littleEndian(bytes, 6, 2), height: littleEndian(bytes, 8, 2))
    }

    /// The first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC), found by walking the
    /// segments by their lengths: height, then width, as 16-bit big-endian numbers.
    private static func jpeg(_ bytes: [UInt8]) -> ImageSize? {
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { index += 2; continue }
            guard index + 4 <= bytes.count else { return nil }
            let length = bigEndian(bytes, index + 2, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= bytes.count else { return nil }
                return ImageSize(width: bigEndian(bytes, index + 7, 2), height: bigEndian(bytes, index + 5, 2))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            index += 2 + length
        }
        return nil
    }

    /// The first chunk after `WEBP`: lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`).
    private static func webp(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 30 else { return nil }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard Array(bytes[23..<26]) == [0x9D, 0x01, 0x2A] else { return nil }
            return ImageSize(width: littleEndian(bytes, 26, 2) & 0x3FFF, height: littleEndian(bytes, 28, 2) & 0x3FFF)
        case "VP8L":
            guard bytes[20] == 0x2F else { return nil }
            let bits = littleEndian(bytes, 21, 4)
            return ImageSize(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return ImageSize(width: littleEndian(bytes, 24, 3) + 1, height: littleEndian(bytes, 27, 3) + 1)
        default:
            return nil
        }
    }

    // MARK: SVG

    /// The root `<svg>`'s absolute `width` and `height`, else its `viewBox`'s; `.some(nil)` when it
    /// has neither (it scales), nil when the root cannot be read.
    private static func svg(_ bytes: [UInt8]) -> ImageSize?? {
        guard let root = SVGRoot.attributes(bytes) else { return .some(nil) }
        func value(_ name: String) -> String? { root.first { $0.name == name }.map { MarkupText.decodeEntities($0.value) } }
        if let width = value("width").flatMap(length), let height = value("height").flatMap(length) {
            return .some(ImageSize(width: Int(width.rounded(.up)), height: Int(height.rounded(.up))))
        }
        if let box = value("viewbox") {
            let numbers = box.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) }
            if numbers.count == 4, numbers[2].isFinite, numbers[3].isFinite, numbers[2] >= 0, numbers[3] >= 0 {
                return .some(ImageSize(width: Int(min(numbers[2], 1e9).rounded(.up)), height: Int(min(numbers[3], 1e9).rounded(.up))))
            }
        }
        return .some(nil)
    }

    /// An absolute SVG length in CSS pixels (`120`, `120px`, `2in`, `5cm`…); nil for a
    /// percentage or a relative unit.
    private static func length(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("px", 1), ("pt", 4.0 / 3), ("pc", 16), ("in", 96), ("cm", 96 / 2.54), ("mm", 96 / 25.4), ("", 1)]
        for (unit, factor) in units where trimmed.hasSuffix(unit) {
            guard let number = Double(trimmed.dropLast(unit.count)), number.isFinite, number >= 0 else { return nil }
            return min(number * factor, 1e9)
        }
        return nil
    }
}
