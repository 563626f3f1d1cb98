import TemplateEngine
import Foundation

/// A bar chart drawn on the server as accessible SVG: a title and a description screen readers
/// announce (the page's table beside it holds every figure), one bar per value with, where
/// given, its figure above, its label below and a tip for a pointer resting on it; a marked bar
/// stands out by pattern as well as colour. Colours come from the page's style sheet (`.chart`
/// classes), so both colour schemes apply.
enum BarChartSVG {
    struct Bar {
        var label: String
        var value: Double
        var marked = false
        /// The value as written above the bar; nil draws none (many narrow bars).
        var figure: String?
        /// What a pointer resting on the bar shows.
        var tip: String?
    }

    /// The chart of `bars`, each `step` wide (its bar 70% of that).
    static func svg(bars: [Bar], title: String, description: String, unit: String, id: String, step: Int = 40) -> String {
        let width = step * max(1, bars.count) + 20, plot = 120.0, top = 24.0, barWidth = step * 7 / 10
        let highest = max(bars.map(\.value).max() ?? 0, 0.001)
        var svg = """
            <svg class="chart" viewBox="0 0 \(width) \(Int(top + plot + 30))" role="img" aria-labelledby="\(id)-title \(id)-desc" \
            xmlns="http://www.w3.org/2000/svg"><title id="\(id)-title">\(HTMLEscaping.escaped(title))</title><desc id="\(id)-desc">\(HTMLEscaping.escaped(description))</desc>
            """
        for (index, bar) in bars.enumerated() {
            // A value above nothing shows at least a sliver, so it is not read as none.
            let height = bar.value <= 0 ? 0 : max(1.5, bar.value / highest * plot), x = 20 + index * step, middle = x + barWidth / 2
            let y = top + plot - height
            svg += "<g>" + (bar.tip.map { "<title>\(HTMLEscaping.escaped($0))</title>" } ?? "")
            svg += "<rect class=\"bar\(bar.marked ? " marked" : "")\" x=\"\(x)\" y=\"\(format(y))\" width=\"\(barWidth)\" height=\"\(format(height))\"/>"
            if let figure = bar.figure {
                svg += "<text class=\"figure\" x=\"\(middle)\" y=\"\(format(y - 6))\" text-anchor=\"middle\">\(HTMLEscaping.escaped(figure))</text>"
            }
            if !bar.label.isEmpty {
                svg += "<text class=\"label\" x=\"\(middle)\" y=\"\(Int(top + plot + 18))\" text-anchor=\"middle\">\(HTMLEscaping.escaped(bar.label))</text>"
            }
            svg += "</g>"
        }
        svg += "<line class=\"axis\" x1=\"16\" x2=\"\(width - 4)\" y1=\"\(Int(top + plot))\" y2=\"\(Int(top + plot))\"/>"
        svg += "<text class=\"unit\" x=\"4\" y=\"12\">\(HTMLEscaping.escaped(unit))</text></svg>"
        return svg
    }

    /// A row per value (a share from 0 to 1), its label above its bar, the share written at the
    /// bar's end, and a dashed line across every row at `mark` (a pass mark) when given.
    static func rows(
        _ rows: [(label: String, share: Double, figure: String)], mark: Double?, markLabel: String, title: String, description: String, id: String
    ) -> String {
        let width = 340.0, barLeft = 2.0, barWidth = 290.0, rowHeight = 34.0, top = 6.0
        let height = top + rowHeight * Double(max(1, rows.count)) + (mark == nil ? 4 : 22)
        var svg = """
            <svg class="chart rows" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="\(id)-title \(id)-desc" \
            xmlns="http://www.w3.org/2000/svg"><title id="\(id)-title">\(HTMLEscaping.escaped(title))</title><desc id="\(id)-desc">\(HTMLEscaping.escaped(description))</desc>
            """
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight, share = min(max(row.share, 0), 1)
            let marked = mark.map { share >= $0 } ?? false
            svg += "<g><text class=\"label\" x=\"\(format(barLeft))\" y=\"\(format(y + 11))\">\(HTMLEscaping.escaped(row.label))</text>"
            svg += "<rect class=\"track\" x=\"\(format(barLeft))\" y=\"\(format(y + 16))\" width=\"\(format(barWidth))\" height=\"12\"/>"
            svg += "<rect class=\"bar\(marked ? " marked" : "")\" x=\"\(format(barLeft))\" y=\"\(format(y + 16))\" width=\"\(format(barWidth * share))\" height=\"12\"/>"
            svg += "<text class=\"figure\" x=\"\(format(barLeft + barWidth + 6))\" y=\"\(format(y + 26))\">\(HTMLEscaping.escaped(row.figure))</text></g>"
        }
        if let mark {
            let x = barLeft + barWidth * min(max(mark, 0), 1), bottom = top + rowHeight * Double(max(1, rows.count))
            svg += "<line class=\"pass-line\" x1=\"\(format(x))\" x2=\"\(format(x))\" y1=\"\(format(top + 12))\" y2=\"\(format(bottom))\"/>"
            svg += "<text class=\"unit\" x=\"\(format(x))\" y=\"\(format(bottom + 14))\" text-anchor=\"middle\">\(HTMLEscaping.escaped(markLabel))</text>"
        }
        return svg + "</svg>"
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
