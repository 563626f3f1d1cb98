import Foundation
import QuestionEngine
import Testing
import TestSupport

/// Formulas written in TeX, turned into MathML Core when a question is saved.
@Suite("Formulas", .onTestThreads)
struct MathTests {
    private func html(_ markdown: String) throws -> String { RichTextHTML.render(try MarkdownReader().read(markdown)) }

    /// The LaTeX math students meet, one construct a row.
    static let examples = [
        #"\frac{a}{b} + \dfrac{1}{2}"#, #"\sqrt{2} > \sqrt[3]{8}"#, #"x_i^2 + e^{i\pi}"#, #"\alpha\beta\Gamma\Omega \infty \partial"#,
        #"\sum_{i=1}^{n} i = \frac{n(n+1)}{2}"#, #"\int_0^1 x\,dx"#, #"\lim_{x \to 0} \frac{\sin x}{x} = 1"#, #"\left( \frac{a}{b} \right]"#,
        #"\begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}"#, #"|x| = \begin{cases} x & x \ge 0 \\ -x & x < 0 \end{cases}"#,
        #"\begin{aligned} a &= b + c \\ &= d \end{aligned}"#, #"\begin{array}{cc} 1 & 2 \\ 3 & 4 \end{array}"#, #"\hat{x} \bar{y} \vec{v} \tilde{n}"#,
        #"\text{if } x \in \mathbb{R}, \mathbf{v} \mathrm{d}x"#, #"\operatorname{Var}(X) = E[X^2] - E[X]^2"#, #"a\,b\;c\quad d\qquad e\!f"#,
        #"\binom{n}{k} = \frac{n!}{k!(n-k)!}"#, #"\overline{AB} \underbrace{1 + \dots + 1}_{n}"#, #"A = P\left(1 + \frac{r}{n}\right)^{nt}"#,
        #"\sigma = \sqrt{\frac{1}{N}\sum_{i=1}^{N}(x_i - \mu)^2}"#, #"\overset{?}{=} \underset{n}{\max} a\kern1em b\mkern18mu c"#, #"P(A \mid B) = \frac{P(B \mid A)\,P(A)}{P(B)}"#, #"A \xrightarrow{\text{DHCP}} B \overbracket{x + y} \smash{z} \oiiint"#, #"V = I \cdot R, \; E = mc^2"#,
    ]

    @Test("every construct of the list turns into MathML Core", arguments: examples)
    func constructs(_ tex: String) throws {
        let node = try TeXMath.convert(tex)
        #expect(MathNode.problem(node) == nil)
    }

    @Test("spacing by \\kern, \\mkern and \\hspace becomes a space in em; sizes change nothing that is said")
    func spacing() throws {
        let html = RichTextHTML.render(try MarkdownReader().read("$a\\kern0.5em b\\mkern9mu c \\Large d$"))
        #expect(html.contains(#"<mi>a</mi><mspace width="0.5em"></mspace><mi>b</mi><mspace width="0.5em"></mspace><mi>c</mi><mi>d</mi>"#), "\(html)")
        // TeX's points and x-heights, at its ten-point size.
        #expect(RichTextHTML.render(try MarkdownReader().read("$a\\kern3pt b\\hspace{2ex}c$")).contains(#"<mspace width="0.3em"></mspace><mi>b</mi><mspace width="0.86em"></mspace>"#))
        #expect(throws: TeXMath.Problem(message: "\\kern needs a width in em, mu, pt or ex, such as 1em")) { try TeXMath.convert("a\\kern3cm b") }
    }

    @Test("inline and displayed formulas in markdown become MathML with their TeX kept as the annotation")
    func markdown() throws {
        #expect(try html("Ohm: $V = IR$ and \\(x^2\\).") == """
            <p>Ohm: <math><semantics><mrow><mi>V</mi><mo>=</mo><mi>I</mi><mi>R</mi></mrow><annotation encoding="application/x-tex">V = IR</annotation></semantics></math> \
            and <math><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math>.</p>
            """)
        #expect(try html("$$\\frac{1}{2}$$") == """
            <div class="formula" tabindex="0"><math display="block"><semantics><mrow><mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac></mrow>\
            <annotation encoding="application/x-tex">\\frac{1}{2}</annotation></semantics></math></div>
            """)
        #expect(try html("\\[\n\\sqrt[3]{x}\n\\]").contains("<mroot><mrow><mi>x</mi></mrow><mn>3</mn></mroot>"))
        #expect(try html("It costs $5, or $10 with a cable.") == "<p>It costs $5, or $10 with a cable.</p>", "money is no formula")
        #expect(RichTextPlain.text(try MarkdownReader().read("Area $\\pi r^2$")) == "Area \\pi r^2")
    }

    @Test("a command the converter does not know is refused with its name and line, never shown as TeX")
    func unknownCommands() throws {
        #expect(throws: TeXMath.Problem(message: "unknown command \\foo")) { try TeXMath.convert("a + \\foo{b}") }
        let problem = #expect(throws: MarkdownReader.Problem.self) { try MarkdownReader().read("One\nline $\\color{red} x$") }
        #expect(problem?.line == 1 && problem?.message == "the formula \\color{red} x cannot be shown: unknown command \\color")
        #expect(throws: TeXMath.Problem(message: "a { is never closed")) { try TeXMath.convert("\\frac{a}{b") }
        #expect(throws: TeXMath.Problem(message: "unknown environment tabular")) { try TeXMath.convert("\\begin{tabular}x\\end{tabular}") }
        let deep = String(repeating: "{", count: 5_000) + String(repeating: "}", count: 5_000)
        #expect(throws: TeXMath.Problem.self) { try TeXMath.convert(deep) }
        for chain in ["\\frac", "\\sqrt", "x^", "\\hat", "\\left("] {
            #expect(throws: TeXMath.Problem.self, "\(chain)") { try TeXMath.convert(String(repeating: chain, count: 800) + "x") }
        }
    }

    @Test("stored MathML outside MathML Core's elements and the converter's attributes is refused when read back")
    func storedMathML() throws {
        func read(_ mathml: String) throws -> RichText {
            try JSONDecoder().decode(RichText.self, from: Data(#"[{"type":"math","tex":"x","mathml":\#(mathml)}]"#.utf8))
        }
        #expect(throws: Never.self) { try read(#"{"name":"mrow","children":[{"name":"mi","children":[{"text":"x"}]}]}"#) }
        #expect(throws: RichTextCheck.Violation(description: "maction is not a MathML element a formula may use")) {
            try read(#"{"name":"mrow","children":[{"name":"maction","children":[]}]}"#)
        }
        #expect(throws: RichTextCheck.Violation(description: "href is not an attribute a formula may use")) {
            try read(#"{"name":"mrow","children":[{"name":"mi","attrs":{"href":"javascript:alert(1)"},"children":[]}]}"#)
        }
        #expect(throws: RichTextCheck.Violation.self) { try read(#"{"name":"mrow","children":[{"name":"annotation-xml","children":[]}]}"#) }
    }
}
