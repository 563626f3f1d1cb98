import Interop
import QuestionEngine

/// A candidate answer with the explanation shown when a student picks it.
struct Choice {
    var text: String
    var explanation: String
    var imageUrl: String? = nil
}

/// Assembles questions whose key follows from how they were built: the right choices are
/// marked before shuffling, and the key is computed from where they land.
enum QuestionBuilder {
    /// One correct choice among distractors (distinct texts; duplicates of the answer dropped).
    static func single(
        key: String, kind: QuestionKind = .singleChoice, stem: String, code: String? = nil, language: String? = nil,
        answer: Choice, distractors: [Choice], explanation: String, difficulty: Int, using random: inout SeededGenerator
    ) -> NewQuestion {
        var seen: Set<String> = [answer.text]
        let wrong = distractors.filter { seen.insert($0.text).inserted }.prefix(3)
        var tagged = [(answer, true)] + wrong.map { ($0, false) }
        tagged.shuffle(using: &random)
        return NewQuestion(
            sourceKey: key, type: kind, stem: stem, code: code, codeLanguage: language,
            options: options(tagged.map(\.0)), correct: tagged.indices.filter { tagged[$0].1 },
            explanation: explanation, difficulty: difficulty)
    }

    /// Several correct choices among others.
    static func multiple(
        key: String, stem: String, code: String? = nil, language: String? = nil, choices: [(Choice, Bool)],
        explanation: String, difficulty: Int, using random: inout SeededGenerator
    ) -> NewQuestion {
        var tagged = choices
        tagged.shuffle(using: &random)
        return NewQuestion(
            sourceKey: key, type: .multiChoice, stem: stem, code: code, codeLanguage: language, options: options(tagged.map(\.0)),
            correct: tagged.indices.filter { tagged[$0].1 }, explanation: explanation, difficulty: difficulty)
    }

    /// Steps in their true order, shown shuffled; the key lists option indexes in true order.
    static func ordering(
        key: String, stem: String, steps: [Choice], explanation: String, difficulty: Int, using random: inout SeededGenerator
    ) -> NewQuestion {
        var shown = Array(steps.indices)
        repeat { shown.shuffle(using: &random) } while shown == Array(steps.indices) && steps.count > 1
        let options = options(shown.map { steps[$0] })
        let correct = steps.indices.map { step in shown.firstIndex(of: step)! }
        return NewQuestion(sourceKey: key, type: .ordering, stem: stem, options: options, correct: correct, explanation: explanation, difficulty: difficulty)
    }

    /// Items matched with answers: each item's answer is marked before the answers (and some
    /// distractors) are shuffled, and the key is computed from where each lands.
    static func matching(
        key: String, stem: String, pairs: [(item: String, answer: String)], distractors: [String], explanation: String, difficulty: Int,
        using random: inout SeededGenerator
    ) -> NewQuestion {
        var answers = Array(Set(pairs.map(\.answer) + distractors)).sorted()
        answers.shuffle(using: &random)
        return NewQuestion(
            sourceKey: key, type: .matching, stem: stem, options: options(pairs.map { Choice(text: $0.item, explanation: "") }),
            correct: pairs.map { pair in answers.firstIndex(of: pair.answer)! },
            details: QuestionDetails(targets: answers.enumerated().map { MatchTarget(id: "t\($0.offset + 1)", text: $0.element) }),
            explanation: explanation, difficulty: difficulty)
    }

    /// A typed answer: the accepted answers and how they compare.
    static func fillIn(
        key: String, stem: String, code: String? = nil, language: String? = nil, accepted: [String], match: FillInMatch = .exact,
        tolerance: Double? = nil, explanation: String, difficulty: Int
    ) -> NewQuestion {
        NewQuestion(
            sourceKey: key, type: .fillIn, stem: stem, code: code, codeLanguage: language, options: [], correct: [],
            details: QuestionDetails(accepted: accepted, match: match, tolerance: tolerance), explanation: explanation, difficulty: difficulty)
    }

    /// A part of a picture to click: the picture (stored with the content), its labelled
    /// regions with their explanations, and which of them are right.
    static func hotspot(
        key: String, stem: String, image: ContentImage, regions: [(label: String, region: HotspotRegion, explanation: String)], right: [Int],
        explanation: String, difficulty: Int
    ) -> NewQuestion {
        var question = NewQuestion(
            sourceKey: key, type: .hotspot, stem: stem,
            options: regions.enumerated().map { index, part in
                QuestionOption(id: String(UnicodeScalar(UInt8(97 + index))), text: part.label, explanation: part.explanation, region: part.region)
            },
            correct: right, details: QuestionDetails(imageUrl: image.path), explanation: explanation, difficulty: difficulty)
        question.images = [image]
        return question
    }

    private static func options(_ choices: [Choice]) -> [QuestionOption] {
        choices.enumerated().map { index, choice in
            QuestionOption(
                id: String(UnicodeScalar(UInt8(97 + index))), text: choice.text, imageUrl: choice.imageUrl,
                explanation: choice.explanation.isEmpty ? nil : choice.explanation)
        }
    }
}
