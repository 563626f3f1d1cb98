// libFuzzer entry point for the markdown reader of question text, compiled by scripts/fuzz.sh
// with the rich-text files. Any input must be read or refused with a line inside the input;
// what is read must render, survive its JSON and read back the same: never crash or hang.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdownReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let text = try MarkdownReader().read(source)
        _ = RichTextHTML.render(text)
        _ = RichTextPlain.text(text)
        let json = try JSONEncoder().encode(text)
        guard try JSONDecoder().decode(RichText.self, from: json) == text else { fatalError("a read tree does not survive its JSON") }
    } catch let problem as MarkdownReader.Problem {
        let lines = source.utf8.filter { $0 == 10 || $0 == 13 }.count + 1
        if problem.line < 1 || problem.line > lines { fatalError("refusal on line \(problem.line) of a \(lines)-line input: \(problem.message)") }
    } catch {
        fatalError("a read tree was refused when read back from JSON: \(error)")
    }
    return 0
}
