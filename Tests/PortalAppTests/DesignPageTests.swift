import Foundation
import PortalTestSupport
import TestSupport
import Testing

/// `/design`: the design system drawn by the real style sheets, for the people who build the
/// portal; not there in production.
@Suite("Design page", .onTestThreads)
struct DesignPageTests {
    @Test("in development the page shows every token of both style sheets with its values, every icon and the components, and is valid HTML; in production it is not there")
    func designPage() throws {
        let site = try PortalSite(content: .nothing)
        let page = try site.browser().request("GET", "/design")
        #expect(page.status == 200)
        let body = page.bodyText
        let sheet = try String(contentsOfFile: TestPaths.repository + "/Public/css/site.css", encoding: .utf8)
        // Every colour token of the sheet, light and dark, is on the page with its swatch.
        #expect(body.contains(#"<th scope="row"><code>--ink</code></th><td data-label="Swatch"><span class="design-swatch swatch-ink"></span></td><td data-label="Light"><code>#1b1f24</code></td><td data-label="Dark"><code>#e6edf3</code></td>"#))
        let root = try #require(sheet.range(of: ":root {")).upperBound
        let block = sheet[root...].prefix { $0 != "}" }
        let declared = block.components(separatedBy: "\n  --").dropFirst().map { "--" + $0.prefix { $0 != ":" } }
        #expect(declared.count > 20)
        for token in declared { #expect(body.contains("<code>\(token)</code>"), "\(token) is missing") }
        for icon in ["study", "review", "progress", "classes", "teach", "account"] {
            #expect(body.contains(#"<use href="/icons.svg#\#(icon)"></use>"#), "\(icon)")
        }
        #expect(body.contains(#"<table class="stacks">"#) && body.contains(#"<svg class="chart""#) && body.contains(#"class="field-error""#))
        let swatches = try site.browser().request("GET", "/design/tokens.css")
        #expect(swatches.status == 200 && swatches.header("Content-Type")?.hasPrefix("text/css") == true)
        #expect(swatches.bodyText.contains(".swatch-ink { background: var(--ink); }"))
        let check = try HTMLChecker.passes([("design", page.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")

        let production = try PortalSite(content: .nothing, environment: ["PORTAL_MODE": "production"])
        #expect(try production.browser().request("GET", "/design").status == 404)
        #expect(try production.browser().request("GET", "/design/tokens.css").status == 404)
    }
}
