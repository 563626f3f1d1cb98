import Foundation

/// A QR code (ISO/IEC 18004) for a short text such as a join or share address, drawn as SVG on
/// the server: byte mode, error correction level M (15 % of the symbol may be lost), versions 1
/// to 10 (up to 213 bytes), the mask chosen by the standard's penalty rules.
public struct QRCode: Sendable {
    /// Modules per side (21 for version 1, 4 more per version).
    public let size: Int
    public let version: Int
    private var modules: [Bool]
    private var isFunction: [Bool]

    /// Error-correction codewords per block and the number of blocks, for level M, by version.
    private static let eccPerBlock = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
    private static let blockCount = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5]

    /// The code for `text`'s UTF-8 bytes, in the smallest version that holds them; nil when
    /// the text is too long for version 10.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.dataCapacity($0) * 8 >= 4 + ($0 < 10 ? 8 : 16) + bytes.count * 8 }) else {
            return nil
        }
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
        drawFunctionPatterns()
        drawCodewords(Self.interleaved(Self.dataCodewords(bytes, version: version), version: version))
        // The mask with the lowest penalty; each is tried on a copy.
        var best: (penalty: Int, mask: Int) = (Int.max, 0)
        for mask in 0..<8 {
            var candidate = self
            candidate.applyMask(mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if penalty < best.penalty { best = (penalty, mask) }
        }
        applyMask(best.mask)
        drawFormatBits(mask: best.mask)
    }

    /// Whether the module at column `x`, row `y` is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// The code as an SVG image with a four-module quiet zone, one path of dark runs, labelled
    /// for assistive technology with `label`.
    public func svg(label: String) -> String {
        let border = 4, side = size + 2 * border
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else { x += 1; continue }
                let start = x
                while x < size && isDark(x: x, y: y) { x += 1 }
                path += "M\(start + border) \(y + border)h\(x - start)v1h-\(x - start)z"
            }
        }
        let escaped = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" aria-label=\"\(escaped)\""
            + " shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    // MARK: Data

    /// Modules left for data and error correction once the function patterns are drawn.
    private static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    private static func dataCapacity(_ version: Int) -> Int {
        rawDataModules(version) / 8 - eccPerBlock[version] * blockCount[version]
    }

    /// Mode, length, the bytes, the terminator and the padding, as codewords.
    private static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCapacity(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// The data split into blocks, each followed by its Reed–Solomon codewords, interleaved.
    private static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let blocks = blockCount[version], ecc = eccPerBlock[version]
        let raw = rawDataModules(version) / 8
        let shortBlocks = blocks - raw % blocks, shortLength = raw / blocks
        let divisor = reedSolomonDivisor(degree: ecc)
        var split: [[UInt8]] = []
        var offset = 0
        for index in 0..<blocks {
            let length = shortLength - ecc + (index < shortBlocks ? 0 : 1)
            var block = Array(data[offset..<offset + length])
            offset += length
            let remainder = reedSolomonRemainder(block, divisor: divisor)
            // Short blocks get a placeholder so every block has the same layout.
            if index < shortBlocks { block.append(0) }
            split.append(block + remainder)
        }
        var result: [UInt8] = []
        for position in 0..<split[0].count {
            for (index, block) in split.enumerated() where position != shortLength - ecc || index >= shortBlocks {
                result.append(block[position])
            }
        }
        return result
    }

    /// Multiplication in GF(2⁸) modulo x⁸ + x⁴ + x³ + x² + 1.
    private static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var product = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            product ^= Int((y >> bit) & 1) * Int(x)
        }
        return UInt8(product)
    }

    private static func reedSolomonDivisor(degree: Int) -> [UInt8] {
        var result = Array(repeating: UInt8(0), count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    private static func reedSolomonRemainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = Array(repeating: UInt8(0), count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }

    // MARK: Drawing

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool, function: Bool = true) {
        modules[y * size + x] = dark
        if function { isFunction[y * size + x] = true }
    }

    private mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions()
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        // Reserve the format areas (drawn for real once the mask is chosen) and the version.
        drawFormatBits(mask: 0)
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for index in 0..<18 {
                let dark = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3, b = index / 3
                set(a, b, dark)
                set(b, a, dark)
            }
        }
    }

    private func alignmentPositions() -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result = [6]
        var position = size - 7
        while result.count < count {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }

    private mutating func drawFormatBits(mask: Int) {
        // Level M is 00; then the mask, then a BCH(15, 5) code, then the fixed XOR pattern.
        let data = 0 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// Places the codewords in the zigzag of two-module columns, right to left, skipping the
    /// vertical timing pattern.
    private mutating func drawCodewords(_ codewords: [UInt8]) {
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y * size + x] && bitIndex < codewords.count * 8 {
                        set(x, y, (codewords[bitIndex >> 3] >> (7 - bitIndex & 7)) & 1 == 1, function: false)
                        bitIndex += 1
                    }
                }
            }
            right -= 2
        }
    }

    private mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let invert = switch mask {
                case 0: (x + y) % 2 == 0
                case 1: y % 2 == 0
                case 2: x % 3 == 0
                case 3: (x + y) % 3 == 0
                case 4: (x / 3 + y / 2) % 2 == 0
                case 5: x * y % 2 + x * y % 3 == 0
                case 6: (x * y % 2 + x * y % 3) % 2 == 0
                default: ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if invert { modules[y * size + x].toggle() }
            }
        }
    }

    // MARK: Penalty

    /// The standard's four penalties: long runs, 2 × 2 blocks, finder-like patterns, imbalance.
    private func penalty() -> Int {
        var result = 0
        let lines: [[Bool]] = (0..<size).map { y in (0..<size).map { isDark(x: $0, y: y) } }
            + (0..<size).map { x in (0..<size).map { isDark(x: x, y: $0) } }
        let finderLike: [Bool] = [true, false, true, true, true, false, true]
        for line in lines {
            var run = 1
            for index in 1..<line.count {
                if line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { result += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { result += run - 2 }
            // 1:1:3:1:1 with four light modules on either side (the edge counts as light).
            for start in 0...(line.count - 7) where Array(line[start..<start + 7]) == finderLike {
                let before = (max(0, start - 4)..<start).allSatisfy { !line[$0] }
                let after = (start + 7..<min(line.count, start + 11)).allSatisfy { !line[$0] }
                if before || after { result += 40 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = isDark(x: x, y: y)
                if color == isDark(x: x + 1, y: y) && color == isDark(x: x, y: y + 1) && color == isDark(x: x + 1, y: y + 1) { result += 3 }
            }
        }
        let dark = modules.count { $0 }, total = size * size
        // 10 points for each 5 % the dark share strays from half (never exactly half: the side is odd).
        result += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return result
    }
}
