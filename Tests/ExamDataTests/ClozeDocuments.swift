import ContentPackage
import ExamData
import Foundation
import Interop
import QuestionEngine
import TestSupport
import Testing

/// A cloze question of four gaps (choices, numeric with a tolerance, any case, exact).
enum ClozeDocuments {
    static func document(markdown: Bool) -> ContentDocument {
        let stem = markdown ? "The **capital** is {#1}. In {#2} the {#3} rose at the {#4}.\n\n| city | river |\n|---|---|\n| Paris | ? |" : "The capital is {#1}.\nIn {#2} the {#3} rose at the {#4}."
        let question = ContentDocument.Question(
            key: "revolution", type: "cloze", stem: stem, markup: markdown ? "markdown" : nil, options: .array([]), correct: .array([]),
            explanation: "Paris, 1789.", difficulty: 2,
            details: .object(["gaps": (try? JSONValue(encoding: [Self.city, Self.year, Self.river, Self.word])) ?? .null]))
        var document = RichDocuments.document(exam: "exam-a", questions: [question])
        document.regions[0].code = "school"
        return document
    }

    static let city = ClozeGap(choices: ["Paris", "Lyon", "Nice"], accepted: ["Paris"], partial: [PartialAnswer(answer: "Lyon", share: 0.5)])

    static let year = ClozeGap(accepted: ["1789"], match: .numeric, tolerance: 1, partial: [PartialAnswer(answer: "1790", share: 0.25, tolerance: 0)], weight: 2)

    static let river = ClozeGap(accepted: ["Seine"], match: .caseInsensitive)

    static let word = ClozeGap(accepted: ["Bastille"], match: .exact)
}
