// libFuzzer entry point for the importers, compiled by scripts/fuzz.sh against the Interop
// module (with QuestionEngine and ContentPackage beside it). Any bytes are detected, then read
// as every text format the importer has — GIFT, Aiken, Moodle XML, a QTI item — and as the
// format detected: each must be read or refused with a FormatError whose position names a line
// of the input, the file or a package; never crash, hang or recurse out of the stack.
import Foundation
import Interop

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let detected = ForeignImport.detect(bytes)
    let lines = bytes.filter { $0 == 10 || $0 == 13 }.count + 1
    for format in [ForeignImport.Format.gift, .aiken, .moodleXML, .qti21] + (detected.map { [$0] } ?? []) where format != .portalJSON {
        do {
            _ = try ForeignImport().read(bytes, format: format, language: "en")
        } catch {
            let position = error.position
            if position.hasPrefix("line "), let line = Int(position.dropFirst(5)), line < 1 || line > lines * 2 {
                fatalError("\(format.rawValue): error at \(position) of a \(lines)-line input: \(error.problem)")
            }
        }
    }
    return 0
}
