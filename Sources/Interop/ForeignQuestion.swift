import Foundation
import QuestionEngine

/// A question read from another system's format, before it becomes one of the portal's: its
/// stable key, where it was in the file, its category (which becomes a domain), and a choice
/// question's options with their feedback.
public struct ForeignQuestion: Sendable, Equatable {
    public struct Option: Sendable, Equatable {
        public var text: String
        /// Feedback for choosing it (becomes the option's explanation).
        public var feedback: String?
        /// A picture shown with it (stored with the content, its address the option's image).
        public var image: ContentImage? = nil
        /// A hotspot option's area of the picture.
        public var region: HotspotRegion? = nil
        /// Its text and feedback as trees, when their markup holds more than words (one
        /// paragraph at most for the text: it stands in the option's label).
        public var richText: RichText? = nil
        public var richFeedback: RichText? = nil
    }

    /// How the question is answered beyond choosing among options (and ordering them).
    public enum Answering: Sendable, Equatable {
        /// Choosing options (`isMultiple`) or putting them in order (`isOrdering`).
        case choosing
        /// The options are items matched with these targets; `correct` gives each item's target.
        case matching(targets: [String])
        /// A typed answer: the accepted ones, how they compare, and those worth part of the marks.
        case typing(accepted: [String], match: FillInMatch, tolerance: Double?, partial: [PartialAnswer] = [])
        /// A part of this picture is clicked; the options are its regions, `correct` the right ones.
        case clicking(image: ContentImage)
        /// The stem's gaps (marked `{#n}` in it) are filled, each by a choice or typed.
        case filling(gaps: [ClozeGap])
    }

    /// Stable across imports of the same source: the source's own name for the question, else
    /// a hash of its text.
    public var key: String
    /// Where it was: "line 12".
    public var position: String
    /// The category path it was filed under (`$CATEGORY`, a Moodle category), if any.
    public var category: String?
    public var stem: String
    /// More than one right option: a multiple-choice question.
    public var isMultiple: Bool
    public var options: [Option]
    /// Indexes of the right options.
    public var correct: [Int]
    /// General feedback (becomes the question's explanation).
    public var generalFeedback: String?
    /// The options are steps listed in their right order (an ordering question).
    public var isOrdering = false
    /// A code block shown with the question (`<pre><code class="language-x">`), and its language.
    public var code: String? = nil
    public var codeLanguage: String? = nil
    /// What the source says of the portal's own fields (this portal's exports carry them as tags).
    public var difficulty: Int? = nil
    public var status: String? = nil
    public var examOnly = false
    public var answering = Answering.choosing
    /// The question's text and general feedback as trees when their markup holds more than
    /// words (a table, a list, a picture, a formula…): the question is then written in
    /// markdown. `shownImages` are the pictures the trees show, stored with the content.
    public var richStem: RichText? = nil
    public var richFeedback: RichText? = nil
    public var shownImages: [ContentImage] = []

    /// Whether any of its texts is a tree (the question is then written in markdown).
    public var hasTrees: Bool {
        richStem != nil || richFeedback != nil || options.contains { $0.richText != nil || $0.richFeedback != nil }
    }
}

/// Why one item (or one part of it) cannot be taken, in words for the report.
struct ItemProblem: Error {
    var reason: String
}

/// An item that has no equivalent among the portal's kinds, named by its position.
public struct SkippedItem: Sendable, Equatable, CustomStringConvertible {
    public var position: String
    public var reason: String
    public var description: String { "\(position): \(reason)" }

    public init(position: String, reason: String) {
        self.position = position
        self.reason = reason
    }
}

/// What a file in a foreign format held: the questions that map onto the portal's kinds, and
/// the items that do not.
public struct ForeignContent: Sendable, Equatable {
    public var questions: [ForeignQuestion]
    public var skipped: [SkippedItem]
    /// What was changed to keep a question (a part-mark distractor counted as wrong, a repeated
    /// name told apart), named by its position like a skipped item.
    public var notes: [SkippedItem]

    public init(questions: [ForeignQuestion] = [], skipped: [SkippedItem] = [], notes: [SkippedItem] = []) {
        self.questions = questions
        self.skipped = skipped
        self.notes = notes
    }
}

/// A file that cannot be read at all (unclosed braces, an encoding not accepted): nothing of it
/// is imported.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var position: String
    public var problem: String
    public var description: String { "\(position): \(problem)" }
}

/// A stable hexadecimal fingerprint of a text (64-bit FNV-1a): a question without a name of its
/// own keeps the same key as long as its text does.
enum StableHash {
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16).leftPadded(to: 16)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
