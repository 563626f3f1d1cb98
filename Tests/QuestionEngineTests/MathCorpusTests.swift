import Foundation
import QuestionEngine
import TestSupport
import Testing

/// The TeX a public math renderer tests itself on (KaTeX's screenshot cases, in
/// `../shared/corpus/math/` beside the repository when it is there; the test skips itself when
/// it is not): each expression converts to MathML the tree's rules accept, or is refused with
/// the command or construct named. The share that converts is printed as the figure.
@Suite("A public corpus of TeX", .onTestThreads)
struct MathCorpusTests {
    static let file = URL(fileURLWithPath: TestPaths.repository).deletingLastPathComponent().appendingPathComponent("shared/corpus/math/katex-screenshotter.yaml")

    /// The cases' names and TeX, from the file's few YAML shapes: `Name: tex`, `Name: |` and a
    /// block, or `Name:` with an indented `tex:` of either shape.
    static func cases() throws -> [(name: String, tex: String)] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cases: [(String, String)] = []
        var index = 0
        func unquoted(_ value: String) -> String {
            let value = value.trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") { return String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'") }
            return value
        }
        /// A block scalar's lines after `index`, more indented than `indent`.
        func block(after start: Int, indent: Int) -> (String, Int) {
            var next = start + 1, text: [String] = []
            while next < lines.count, lines[next].isEmpty || lines[next].prefix { $0 == " " }.count > indent {
                text.append(lines[next].trimmingCharacters(in: .whitespaces))
                next += 1
            }
            return (text.joined(separator: " "), next)
        }
        while index < lines.count {
            let line = lines[index]
            guard !line.hasPrefix("#"), !line.hasPrefix(" "), let colon = line.firstIndex(of: ":") else { index += 1; continue }
            let name = String(line[..<colon]), value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if value == "|" || value == ">" {
                let (text, next) = block(after: index, indent: 0)
                cases.append((name, text)); index = next
            } else if value.isEmpty {
                // A mapping: its `tex` key.
                var next = index + 1
                while next < lines.count, lines[next].hasPrefix(" ") || lines[next].isEmpty {
                    let entry = lines[next].trimmingCharacters(in: .whitespaces)
                    if entry.hasPrefix("tex:") {
                        let texValue = String(entry.dropFirst(4)).trimmingCharacters(in: .whitespaces)
                        if texValue == "|" || texValue == ">" {
                            let indent = lines[next].prefix { $0 == " " }.count
                            let (text, after) = block(after: next, indent: indent)
                            cases.append((name, text)); next = after; continue
                        }
                        cases.append((name, unquoted(texValue)))
                    }
                    next += 1
                }
                index = next
            } else {
                cases.append((name, unquoted(value))); index += 1
            }
        }
        return cases
    }

    @Test("every expression converts to MathML the tree accepts, or is refused with its command named", .enabled(if: FileManager.default.fileExists(atPath: file.path)))
    func katexCases() throws {
        let cases = try Self.cases()
        var converted = 0, reasons: [String: Int] = [:]
        for (name, tex) in cases {
            do {
                let mathml = try TeXMath.convert(tex)
                #expect(MathNode.problem(mathml) == nil, "\(name)")
                converted += 1
            } catch {
                #expect(!error.message.isEmpty, "\(name) is refused with a reason")
                reasons[error.message, default: 0] += 1
            }
        }
        let refusals = reasons.sorted { $0.value > $1.value }.prefix(40).map { "\($0.value)× \($0.key)" }.joined(separator: "; ")
        print("TeX corpus: \(converted) of \(cases.count) convert (\(converted * 100 / max(1, cases.count))%); most refused: \(refusals)")
        #expect(cases.count > 100)
    }
}
