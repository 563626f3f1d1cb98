import Foundation
import QuestionEngine
import Testing
import TestSupport

/// Markdown written back from a tree (exports, the editor) reads into the same tree.
@Suite("Markdown written back", .onTestThreads)
struct MarkdownWriterTests {
    private func roundTrip(_ source: String) throws -> (RichText, RichText, String) {
        let read = try MarkdownReader().read(source)
        let written = MarkdownWriter.write(read)
        return (read, try MarkdownReader().read(written), written)
    }

    static let sources = [
        "Which protocol\nresolves names?",
        "**Strong** and *emphasis* and _this_, H~2~O, E = mc^2^, `a*b<c` and ``a`b``",
        "***both*** and **bold _inside_ it** and *emphasis **inside** it*",
        "costs $5, 2 * 3, snake_case_name, a ~ b, a | b, [not a link], ! and #hash",
        "\\# not a heading\\\n\\- not an item\\\n1\\. not numbered\\\n\\> not a quote\\\n10.1.0.0/8 and --- stay",
        "1999. A year, then +1 and -2 and =3",
        "A link to [the **docs**](https://example.org/a_b?c=1#d) and a break  \nthere",
        "- one\n- two\n  - inner\n  - inner two\n- three",
        "3. three\n4. four\n\n   a second paragraph in four",
        "> quoted *text*\n>\n> - and a list\n> - in it",
        "```python\nprint('*not emphasis*')\n```\n\n````\n```\nfence inside\n```\n````",
        "| Prefix | Next hop | Metric |\n| :-- | :-: | --: |\n| 10.0.0.0/8 | `a|b` | 20 |\n| x \\| y | | |\n\nTable: Routes of **R1**",
        "![Three routers](/content-images/abc.png \"Exhibit 1\")\n\nAfter the picture.",
        "![A log excerpt](/content-images/log.png)",
        "Text with trailing backslash \\\\ and \\`escaped\\` marks \\*",
        "Ohm's law $V = IR$, a price of $5 and \\(x^2\\) in *emphasis with $\\alpha$* and a\nformula $a +\nb$ over a wrap",
        "$$\n\\begin{aligned} a &= b \\\\ &= c \\end{aligned}\n$$\n\n- $\\frac{1}{2}$ in a list\n- \\[not display\\] inline",
        "| $x$ | $\\sqrt{2}$ |\n| --- | --- |\n| 1 | 2 |",
    ]

    @Test("each kind of block and inline reads back into the same tree", arguments: sources)
    func examples(_ source: String) throws {
        let (read, again, written) = try roundTrip(source)
        #expect(read == again, "\(source.debugDescription) wrote \(written.debugDescription)")
    }

    /// Every mark but `_` and `$` (formulas have their own examples above): an emphasis in an emphasis beside a letter (`*a_b_*` read as
    /// `*a*b*`-like nesting) has no spelling the reader takes back, a limit of its simpler rules
    /// for `_` than CommonMark's flanking runs.
    @Test("text made of markdown's own marks, whatever their mix, reads back into the same tree")
    func marksInAnyMix() throws {
        // Seeded, so a mix that fails fails again on every machine.
        var generator = SplitMix(seed: 0x5eed_2026)
        let alphabet: [String] = "ab 1.*`~^[]()!#>-+|\\\n:".map { String($0) } + ["https://x.org/", "\n\n", "  \n", "- ", "1. ", "```\n", "| a | b |\n|---|---|\n"]
        var checked = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...40, using: &generator)
            let source = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            guard let read = try? MarkdownReader().read(source) else { continue }
            let written = MarkdownWriter.write(read)
            let again = try? MarkdownReader().read(written)
            #expect(again == read, "\(source.debugDescription) → \(written.debugDescription)")
            if again != read { return }
            checked += 1
        }
        #expect(checked > 5_000)
    }
}

/// A small seeded generator (SplitMix64) for tests that draw many random inputs.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
