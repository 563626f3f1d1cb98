import ExamData
import HTTPServer
import QuestionEngine

/// An answer the question form could not take, carried to the question page in its address
/// (POST → redirect → GET): why, and what was chosen, so the page shows both beside the form and
/// a reload sends nothing again. Only what a browser's own form can produce travels this way;
/// anything else is refused on the spot.
struct RefusedAnswer: Equatable {
    enum Reason: String {
        /// Nothing chosen or typed.
        case empty
        /// Two ordering items in the same position.
        case duplicate
        /// An ordering item without a position.
        case incomplete
        /// A matching prompt without a target.
        case unmatched
        /// A tap on a hotspot's picture outside every part of it: asked again, not scored (on a
        /// phone it is more often a slip of the thumb than an answer).
        case outside
    }

    var reason: Reason
    /// The option indexes chosen; for ordering, each option's position as chosen, for matching
    /// each prompt's target (1-based; 0: none).
    var chosen: [Int]

    /// The query that carries it (appended to `?q=<number>`).
    var query: String {
        "refused=\(reason.rawValue)&chosen=" + chosen.map(String.init).joined(separator: ".")
    }

    init(reason: Reason, chosen: [Int]) {
        self.reason = reason
        self.chosen = chosen
    }

    /// Reads one back from a question page's query; nil when there is none or it does not fit
    /// the question (an address edited by hand shows the plain page).
    init?(query: FormFields, question: Question) {
        guard let reason = query["refused"].flatMap(Reason.init(rawValue:)) else { return nil }
        let text = query["chosen"] ?? ""
        let chosen = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) ?? -1 }
        let count = question.options.count
        let fits = switch question.kind.answerShape {
        case .order: chosen.count == count && chosen.allSatisfy { (0...count).contains($0) }
        case .pairs: chosen.count == count && chosen.allSatisfy { (0...(question.details.targets?.count ?? 0)).contains($0) }
        case .oneOption, .someOptions, .region: chosen.count <= count && chosen.allSatisfy { (0..<count).contains($0) }
        case .text, .gaps: chosen.isEmpty
        }
        guard fits else { return nil }
        self.init(reason: reason, chosen: chosen)
    }

    /// The sentence shown above the form, from the catalogue.
    func message(question: Question, pages: PageRenderer, locale: String) -> String {
        let count = String(question.options.count)
        return switch reason {
        case .empty: pages.message(question.kind.answerShape == .text || question.kind.answerShape == .gaps ? "sessions.type_something" : "sessions.choose_something", locale: locale)
        case .duplicate: pages.message("sessions.order_duplicate", locale: locale)
        case .incomplete: pages.message("sessions.order_incomplete", locale: locale, ["count": count])
        case .unmatched: pages.message("sessions.match_incomplete", locale: locale, ["count": count])
        case .outside: pages.message("sessions.hotspot_outside", locale: locale)
        }
    }
}
