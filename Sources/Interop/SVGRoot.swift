/// The root element of an SVG file, found in one pass over its first bytes: after an XML
/// declaration, comments and a document type without an internal subset (which is where
/// entities would be declared), the first element must be `<svg …>`.
enum SVGRoot {
    /// How far into the file the root element must start.
    static let searchedBytes = 4096

    /// The root `<svg>`'s attributes (names in lower case, values as written), or nil when the
    /// file does not start as an SVG.
    static func attributes(_ bytes: [UInt8]) -> [(name: String, value: String)]? {
        let head = Array(bytes.prefix(searchedBytes))
        var index = 0
        func starts(_ text: String, at offset: Int) -> Bool {
            let pattern = Array(text.utf8)
            return offset + pattern.count <= head.count && Array(head[offset..<(offset + pattern.count)]) == pattern
        }
        /// The offset just past the next `end` from `index`, if any.
        func past(_ end: String) -> Int? {
            var offset = index
            while offset < head.count {
                if starts(end, at: offset) { return offset + end.utf8.count }
                offset += 1
            }
            return nil
        }
        while index < head.count {
            let byte = head[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
            } else if starts("<?", at: index) {
                guard let next = past("?>") else { return nil }
                index = next
            } else if starts("<!--", at: index) {
                guard let next = past("-->") else { return nil }
                index = next
            } else if starts("<!DOCTYPE", at: index) {
                guard let close = past(">"), !head[index..<close].contains(UInt8(ascii: "[")) else { return nil }
                index = close
            } else if starts("<svg", at: index), index + 4 < head.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(head[index + 4]) {
                let tag = String(decoding: head[index...], as: UTF8.self)
                guard case .start("svg", let attributes, _)? = HTMLScanner.tokens(tag).first?.token else { return nil }
                return attributes
            } else {
                return nil
            }
        }
        return nil
    }
}
