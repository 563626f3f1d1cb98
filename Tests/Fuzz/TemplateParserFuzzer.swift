// libFuzzer entry point for the template parser, compiled by scripts/fuzz.sh with the parser's
// own files. Any input must either parse or fail with a TemplateError whose position lies
// inside the input: never crash, hang or point nowhere.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplateParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try TemplateParser.parse(source, name: "fuzz")
    } catch {
        // Lines as the parser counts them: by LF bytes ("\r\n" is one Character in Swift, so
        // splitting the String would undercount).
        let lines = source.utf8.filter { $0 == 10 }.count + 1
        if error.line < 1 || error.line > lines || error.column < 1 {
            fatalError("error position \(error.line):\(error.column) outside a \(lines)-line input: \(error.message)")
        }
    }
    return 0
}
