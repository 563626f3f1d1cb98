import QuestionEngine

/// Which of the editor's fields each kind of question uses: the one table the editor page, its
/// script and the hint read. The page hides the fields of other kinds (the script shows the
/// new kind's at once when the type changes; without it, "Preview" draws the form again for the
/// type chosen). A field another kind uses is still sent, and ignored, as the hint says.
enum EditorFields: String, CaseIterable {
    /// An option's "correct" box.
    case keyBox
    /// An ordering step's place in the right order.
    case keyPosition
    /// A matching item's target number, and the targets.
    case matching
    /// A fill-in question's accepted and partly right answers, its rule and tolerance.
    case fillIn
    /// A hotspot region's shape and coordinates, and the picture.
    case hotspot
    /// The options themselves.
    case options
    /// The box of the kinds' own fields (matching, fill-in, hotspot).
    case kindBox
    /// The hint that several options may be ticked, each fully right.
    case severalRight

    /// The kinds that use the field.
    var kinds: [QuestionKind] {
        switch self {
        case .keyBox: [.singleChoice, .multiChoice, .codeSnippet, .hotspot]
        case .keyPosition: [.ordering]
        case .matching: [.matching]
        case .fillIn: [.fillIn]
        case .hotspot: [.hotspot]
        case .options: QuestionKind.allCases.filter { $0 != .fillIn && $0 != .cloze }
        case .kindBox: [.matching, .fillIn, .hotspot]
        case .severalRight: [.singleChoice]
        }
    }

    /// For the page: each field's kinds (`data-kinds`, space-separated) and whether `kind` shows it.
    struct View: Encodable {
        var kinds: [String: String]
        var shows: [String: Bool]
    }

    static func view(for kind: QuestionKind) -> View {
        View(
            kinds: Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.kinds.map(\.rawValue).joined(separator: " ")) }),
            shows: Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.kinds.contains(kind)) }))
    }
}
