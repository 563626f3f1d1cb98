import HTTPServer

/// An answer the question form could not take, carried to the question page in its address
/// (POST → redirect → GET): why, and what was chosen, so the page shows both beside the form and
/// a reload sends nothing again. Only what a browser's own form can produce travels this way;
/// anything else is refused on the spot.
struct RefusedAnswer: Equatable {
    enum Reason: String {
        /// Nothing chosen.
        case empty
        /// Two ordering items in the same position.
        case duplicate
        /// An ordering item without a position.
        case incomplete
    }

    var reason: Reason
    /// The option indexes chosen; for ordering, each option's position as chosen (0: none).
    var chosen: [Int]

    /// The query that carries it (appended to `?q=<number>`).
    var query: String {
        "refused=\(reason.rawValue)&chosen=" + chosen.map(String.init).joined(separator: ".")
    }

    init(reason: Reason, chosen: [Int]) {
        self.reason = reason
        self.chosen = chosen
    }

    /// Reads one back from a question page's query; nil when there is none or it does not fit a
    /// question with `optionCount` options (an address edited by hand shows the plain page).
    init?(query: FormFields, optionCount: Int, isOrdering: Bool) {
        guard let reason = query["refused"].flatMap(Reason.init(rawValue:)) else { return nil }
        let text = query["chosen"] ?? ""
        let chosen = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) ?? -1 }
        let fits = isOrdering
            ? chosen.count == optionCount && chosen.allSatisfy { (0...optionCount).contains($0) }
            : chosen.count <= optionCount && chosen.allSatisfy { (0..<optionCount).contains($0) }
        guard fits else { return nil }
        self.init(reason: reason, chosen: chosen)
    }

    /// The sentence shown above the form, from the catalogue.
    func message(optionCount: Int, pages: PageRenderer, locale: String) -> String {
        switch reason {
        case .empty: pages.message("sessions.choose_something", locale: locale)
        case .duplicate: pages.message("sessions.order_duplicate", locale: locale)
        case .incomplete: pages.message("sessions.order_incomplete", locale: locale, ["count": String(optionCount)])
        }
    }
}
