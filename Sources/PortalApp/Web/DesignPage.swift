import Foundation
import HTTPServer

/// `GET /design`, in development mode only: every design token with its light and dark value
/// and a swatch, the type scale, the icons and the components the pages are made of, drawn by
/// the real style sheets. The tokens are read from `site.css` and `dark.css` themselves (and the
/// icons from the sprite), so the page cannot drift from them; `docs/design.md` says what each is
/// for. `GET /design/tokens.css` gives each swatch its colour (the pages allow no inline style).
struct DesignPage: Encodable {
    struct Token: Encodable {
        var name: String
        var light: String
        var dark: String?
        /// A colour (drawn as a swatch), not a size.
        var isColour: Bool
        /// The swatch's class in `/design/tokens.css`.
        var swatch: String

        init(name: String, light: String, dark: String?) {
            (self.name, self.light, self.dark) = (name, light, dark)
            isColour = DesignPage.isColour(light)
            swatch = DesignPage.swatchClass(name)
        }
    }

    /// The class that paints a swatch in token `name`'s colour: `--ink` → `swatch-ink`.
    static func swatchClass(_ name: String) -> String { "swatch-" + name.dropFirst(2) }

    var tokens: [Token]
    var icons: [String]
    /// A sample chart, drawn as the review page draws its own.
    var chart: String

    /// The `--name: value;` declarations of the first `:root { … }` block of `css`, in order.
    static func tokens(in css: String) -> [(name: String, value: String)] {
        guard let start = css.range(of: ":root {"), let end = css[start.upperBound...].firstIndex(of: "}") else { return [] }
        return css[start.upperBound..<end].split(separator: ";").compactMap { declaration in
            // Comments inside the block sit before a declaration: keep what follows the last one.
            let text = declaration.components(separatedBy: "*/").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard text.hasPrefix("--"), let colon = text.firstIndex(of: ":") else { return nil }
            return (String(text[..<colon]), text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The symbols' ids in the icon sprite.
    static func icons(in sprite: String) -> [String] {
        sprite.components(separatedBy: "<symbol id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// Whether a token's value is a colour.
    static func isColour(_ value: String) -> Bool { value.hasPrefix("#") || value.hasPrefix("rgb") }

    /// The two routes, answering 404 outside development mode.
    struct Handlers: Sendable {
        let pages: PageRenderer
        let publicDirectory: String
        let development: Bool

        private func read(_ path: String) throws -> String {
            guard let text = try? String(contentsOfFile: publicDirectory + "/" + path, encoding: .utf8) else {
                throw HTTPError(.internalServerError, "\(path) is missing from the public directory")
            }
            return text
        }

        private func refuseOutsideDevelopment(_ request: PortalRequest) throws {
            guard development else { throw PageRefusal(.notFound, "school.not_found") }
        }

        func page(_ request: PortalRequest) throws -> Response {
            try refuseOutsideDevelopment(request)
            let dark = Dictionary(DesignPage.tokens(in: try read("css/dark.css")), uniquingKeysWith: { first, _ in first })
            let tokens = DesignPage.tokens(in: try read("css/site.css")).map { token in
                Token(name: token.name, light: token.value, dark: dark[token.name])
            }
            let values = [3, 5, 2, 0, 7, 4, 1, 6, 2, 3, 0, 5, 8, 2]
            let chart = BarChartSVG.svg(
                bars: values.enumerated().map { BarChartSVG.Bar(label: $0 % 7 == 0 ? "\($0)" : "", value: Double($1), marked: $0 == 0, tip: "\($1)") },
                title: "A bar chart", description: "Fourteen bars, the first marked.", unit: "Unit", id: "design-chart", step: 11)
            let page = DesignPage(tokens: tokens, icons: DesignPage.icons(in: try read("icons.svg")), chart: chart)
            var response = Response.html(try pages.render("design", page, for: request))
            response.headers.set("Cache-Control", "no-store")
            return response
        }

        func stylesheet(_ request: PortalRequest) throws -> Response {
            try refuseOutsideDevelopment(request)
            let rules = [
                ".design-swatch { display: inline-block; width: 2.5rem; height: 1.5rem; border: 1px solid var(--control-line); border-radius: 4px; vertical-align: middle; }",
                ".design-icons { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem 2rem; }",
                ".design-icons svg { width: 1.5rem; height: 1.5rem; vertical-align: middle; }",
            ] + DesignPage.tokens(in: try read("css/site.css")).filter { DesignPage.isColour($0.value) }.map { token in
                ".\(DesignPage.swatchClass(token.name)) { background: var(\(token.name)); }"
            }
            var response = Response(status: .ok, body: .bytes(Array((rules.joined(separator: "\n") + "\n").utf8)))
            response.headers.set("Content-Type", "text/css; charset=utf-8")
            response.headers.set("Cache-Control", "no-store")
            return response
        }
    }
}
