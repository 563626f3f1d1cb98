/// One part of a `multipart/form-data` body.
public struct MultipartPart: Sendable {
    public var name: String
    /// The file name for a file field, nil for a plain field.
    public var filename: String?
    public var contentType: String?
    public var data: [UInt8]
}

/// Parsing `multipart/form-data` bodies (RFC 7578).
public enum Multipart {
    /// Splits `body` into its parts. A malformed body is a `400` with the reason.
    public static func parse(body: [UInt8], contentType: String) throws(HTTPError) -> [MultipartPart] {
        guard let boundary = boundary(in: contentType) else {
            throw HTTPError(.badRequest, "the multipart body has no boundary parameter")
        }
        let delimiter = Array("--\(boundary)".utf8)
        guard var position = find(delimiter, in: body, from: 0) else {
            throw HTTPError(.badRequest, "the multipart body does not contain its boundary")
        }
        var parts: [MultipartPart] = []
        let crlf: [UInt8] = [13, 10]
        while true {
            position += delimiter.count
            if body.count >= position + 2, body[position] == 45, body[position + 1] == 45 { return parts }  // "--": the end
            guard body.count >= position + 2, body[position] == 13, body[position + 1] == 10 else {
                throw HTTPError(.badRequest, "a multipart boundary is not followed by CRLF")
            }
            position += 2
            guard let headEnd = find(crlf + crlf, in: body, from: position) else {
                throw HTTPError(.badRequest, "a multipart part has no end of headers")
            }
            let headerText = String(decoding: body[position..<headEnd], as: UTF8.self)
            let dataStart = headEnd + 4
            guard let next = find(crlf + delimiter, in: body, from: dataStart) else {
                throw HTTPError(.badRequest, "a multipart part is not terminated by the boundary")
            }
            var name: String?
            var filename: String?
            var partType: String?
            for line in headerText.split(separator: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { throw HTTPError(.badRequest, "a multipart header is malformed") }
                let field = line[..<colon].trimmingSpaces
                let value = line[line.index(after: colon)...].trimmingSpaces
                if field.equalsIgnoringASCIICase("content-disposition") {
                    let parameters = parameters(of: value)
                    name = parameters["name"]
                    filename = parameters["filename"]
                } else if field.equalsIgnoringASCIICase("content-type") {
                    partType = String(value)
                }
            }
            guard let name else { throw HTTPError(.badRequest, "a multipart part has no field name") }
            parts.append(MultipartPart(name: name, filename: filename, contentType: partType, data: Array(body[dataStart..<next])))
            position = next + 2
        }
    }

    static func boundary(in contentType: String) -> String? {
        let pieces = contentType.split(separator: ";")
        guard let kind = pieces.first, kind.trimmingSpaces.equalsIgnoringASCIICase("multipart/form-data") else { return nil }
        guard let value = parameters(of: contentType[...])["boundary"], !value.isEmpty, value.utf8.count <= 70 else { return nil }
        return value
    }

    /// `form-data; name="file"; filename="a.json"` → ["name": "file", "filename": "a.json"]
    static func parameters(of value: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for piece in value.split(separator: ";").dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let key = piece[..<equals].trimmingSpaces.lowercased()
            var parameter = piece[piece.index(after: equals)...].trimmingSpaces
            if parameter.count >= 2, parameter.first == "\"", parameter.last == "\"" { parameter = parameter.dropFirst().dropLast() }
            result[key] = String(parameter)
        }
        return result
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
