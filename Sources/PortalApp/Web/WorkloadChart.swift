import Foundation

/// A bar chart drawn on the server as accessible SVG: a title and a description screen readers
/// announce (the page's table beside it holds every figure), one bar per value with its figure
/// above and its label below; the marked bar stands out by pattern as well as colour. Colours
/// come from the page's style sheet (`.chart` classes), so both colour schemes apply.
enum WorkloadChart {
    static func svg(
        bars: [(label: String, value: Double, marked: Bool)], title: String, description: String, unit: String, number: (Double) -> String,
        id: String = "workload-chart"
    ) -> String {
        let width = 40 * max(1, bars.count) + 20, plot = 120.0, top = 24.0
        let highest = max(bars.map(\.value).max() ?? 0, 0.001)
        var svg = """
            <svg class="chart" viewBox="0 0 \(width) \(Int(top + plot + 30))" role="img" aria-labelledby="\(id)-title \(id)-desc" \
            xmlns="http://www.w3.org/2000/svg"><title id="\(id)-title">\(escaped(title))</title><desc id="\(id)-desc">\(escaped(description))</desc>
            """
        for (index, bar) in bars.enumerated() {
            let height = max(1, bar.value / highest * plot), x = 20 + index * 40
            let y = top + plot - height
            svg += """
                <g><rect class="bar\(bar.marked ? " marked" : "")" x="\(x)" y="\(format(y))" width="28" height="\(format(height))"/>\
                <text class="figure" x="\(x + 14)" y="\(format(y - 6))" text-anchor="middle">\(escaped(number(bar.value)))</text>\
                <text class="label" x="\(x + 14)" y="\(Int(top + plot + 18))" text-anchor="middle">\(escaped(bar.label))</text></g>
                """
        }
        svg += "<text class=\"unit\" x=\"4\" y=\"12\">\(escaped(unit))</text></svg>"
        return svg
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
