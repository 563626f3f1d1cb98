import TemplateEngine

/// The days a student studied, as a calendar drawn on the server in SVG: a column per week
/// (Monday on top), a square per day, filled where they answered anything, today outlined.
/// A title and a description say it for a screen reader; the page's table gives it by week.
enum ActivityCalendarSVG {
    /// `weeks` weeks up to this one; `studied(daysAgo)` says whether that day was studied;
    /// `weekday` is today's (0 Monday … 6 Sunday); `labels[w]` names week `w` (oldest first)
    /// under its column where not empty.
    static func svg(
        weeks: Int, weekday: Int, studied: (Int) -> Bool, labels: [String], title: String, description: String, id: String
    ) -> String {
        let cell = 14, gap = 3, step = cell + gap, left = 2, top = 2
        let width = left + weeks * step + 2, height = top + 7 * step + 18
        var svg = """
            <svg class="chart calendar" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="\(id)-title \(id)-desc" \
            xmlns="http://www.w3.org/2000/svg"><title id="\(id)-title">\(HTMLEscaping.escaped(title))</title><desc id="\(id)-desc">\(HTMLEscaping.escaped(description))</desc>
            """
        for week in 0..<weeks {
            for day in 0..<7 {
                // Days before today: this week's Monday is `weekday` days ago.
                let ago = (weeks - 1 - week) * 7 + weekday - day
                guard ago >= 0 else { continue }
                let kind = studied(ago) ? "studied" : "rest"
                svg += "<rect class=\"\(kind)\(ago == 0 ? " today" : "")\" x=\"\(left + week * step)\" y=\"\(top + day * step)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"3\"/>"
            }
            if week < labels.count, !labels[week].isEmpty {
                svg += "<text class=\"label\" x=\"\(left + week * step)\" y=\"\(top + 7 * step + 12)\">\(HTMLEscaping.escaped(labels[week]))</text>"
            }
        }
        return svg + "</svg>"
    }
}
