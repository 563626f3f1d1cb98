import ExamData
import Foundation
import QuestionEngine

/// A question's answer form and its review, in the terms of its kind: what every page that asks
/// or reviews a question renders (practice and mock exams, results, live events, the admin's
/// preview), through the partials `sessions/_answer_fields` and `sessions/_answer_review`.
struct AnswerView: Encodable {
    struct PositionChoice: Encodable {
        var value: Int
        var selected: Bool
    }

    struct TargetChoice: Encodable {
        var value: Int
        var text: String
        var selected: Bool
    }

    struct Option: Encodable {
        var index: Int
        var ordinal: Int
        var text: String
        /// The option's text as HTML when the question is written in markdown.
        var textHTML: String?
        var optionCode: String?
        var optionImage: String?
        var optionExplanation: String?
        var optionExplanationHTML: String?
        /// Chosen in the form (a choice or a hotspot region).
        var checked: Bool
        /// Shown as right in the review.
        var isKey: Bool
        /// Shown as the student's in the review.
        var wasChosen: Bool
        /// Struck out by the student (a mock exam's choice; whether the form offers to strike is
        /// the view's `strikes`, which the option's row reads from around it).
        var struck = false
        /// Ordering: the positions, the one this step was put in selected.
        var positions: [PositionChoice]
        /// Matching: the targets, the one given for this prompt selected.
        var targets: [TargetChoice]
        /// Matching review: the target given, the right one, and whether they agree.
        var given: String?
        var right: String?
        var pairRight: Bool
    }

    /// A cloze question's gap in the review: what was given, what is right, whether it was.
    struct GapReview: Encodable {
        var ordinal: Int
        var given: String?
        var accepted: [String]
        var hasAccepted: Bool
        /// Answers worth part of the gap's marks, with their share: "Sein (50%)".
        var partialAnswers: [String]
        var hasPartialAnswers: Bool
        var isRight: Bool
    }

    var language: String
    var isSingle: Bool
    var isMulti: Bool
    var isOrdering: Bool
    var isMatching: Bool
    var isFillIn: Bool
    var isHotspot: Bool
    var isCloze: Bool
    /// Cloze: the text with a field for each gap, and each gap's review.
    var clozeHTML: String?
    var gapReviews: [GapReview]
    /// Reviewed as a list of options marked right and chosen (the choice kinds and hotspots).
    var listsOptions: Bool
    var options: [Option]
    /// Fill-in: the text in the field.
    var typedAnswer: String
    /// Hotspot: the image, and its regions for the page script (JSON).
    var hotspotImage: String?
    var regions: String?
    /// Hotspot review: the right regions' indexes (JSON) and where the student tapped ("x y"),
    /// for the page script to draw on the picture (the list says the same in words).
    var keyRegions: String?
    var tap: String?
    /// Review: an ordering's right order and the one given; a fill-in's accepted answers and
    /// what was typed.
    var keyOrder: [String]
    var yourOrder: [String]
    var accepted: [String]
    /// A fill-in's partly right answers with their share: "york (50%)".
    var partialAnswers: [String]
    var typed: String?
    /// A mock exam's choice question offers to strike options out (the form's default button
    /// comes first then, so Enter still saves the answer).
    var strikes = false
    var hasYourOrder: Bool
    var hasAccepted: Bool
    var hasPartialAnswers: Bool

    /// `response`: what to show chosen (a draft, a refused answer's choices, the stored answer);
    /// `positions`: for an ordering or matching answer the form refused, what each select held
    /// (1-based, 0 for none). `revealsKey` marks the key; `reviewsResponse` marks what was chosen
    /// and shows the options' explanations.
    init(
        _ question: Question, language: String, response: AnswerResponse?, positions: [Int]? = nil, revealsKey: Bool, reviewsResponse: Bool
    ) {
        self.language = language
        let shape = question.kind.answerShape
        (isSingle, isMulti, isOrdering, isMatching, isFillIn, isHotspot, isCloze) = (
            shape == .oneOption, shape == .someOptions, shape == .order, shape == .pairs, shape == .text, shape == .region, shape == .gaps)
        listsOptions = shape.picksOptions
        let chosen = response.map { AnswerChecker.chosenOptions(question.answerKey, $0) } ?? []
        let count = question.options.count
        let targets = question.details.targets ?? []
        // The trees, when there is one for each option (the database's check says there is).
        let texts = question.texts.flatMap { $0.options.count == count ? $0 : nil }
        var given: [Int] = []
        if case .pairs(let pairs)? = response { given = pairs }
        options = question.options.enumerated().map { index, option in
            var view = Option(
                index: index, ordinal: index + 1, text: option.text, textHTML: texts.map { RichTextHTML.render($0.options[index].inlines) },
                optionCode: option.code, optionImage: option.imageUrl, optionExplanation: reviewsResponse ? option.explanation : nil,
                optionExplanationHTML: reviewsResponse ? texts?.options[index].explanation.map(RichTextHTML.render) : nil, checked: chosen.contains(index),
                isKey: revealsKey && shape.picksOptions && question.correct.contains(index),
                wasChosen: reviewsResponse && chosen.contains(index), positions: [], targets: [], given: nil, right: nil, pairRight: false)
            switch shape {
            case .order:
                // The position this step was put in, else its place as shown.
                let place = positions?[index] ?? chosen.firstIndex(of: index).map { $0 + 1 } ?? index + 1
                view.positions = (1...count).map { PositionChoice(value: $0, selected: $0 == place) }
            case .pairs:
                let selected = positions.map { $0[index] - 1 } ?? (given.indices.contains(index) ? given[index] : -1)
                view.targets = targets.enumerated().map { TargetChoice(value: $0 + 1, text: $1.text, selected: $0 == selected) }
                if reviewsResponse || revealsKey {
                    view.given = given.indices.contains(index) && targets.indices.contains(given[index]) ? targets[given[index]].text : nil
                    view.right = question.correct.indices.contains(index) && targets.indices.contains(question.correct[index]) ? targets[question.correct[index]].text : nil
                    view.pairRight = given.indices.contains(index) && question.correct.indices.contains(index) && given[index] == question.correct[index]
                }
            case .oneOption, .someOptions, .text, .region, .gaps:
                break
            }
            return view
        }
        if case .text(let text)? = response { typedAnswer = text } else { typedAnswer = "" }
        hotspotImage = shape == .region ? question.details.imageUrl : nil
        regions = shape == .region ? (try? String(decoding: JSONEncoder().encode(question.options.map { $0.region }), as: UTF8.self)) : nil
        keyRegions = revealsKey && shape == .region ? "[" + question.correct.map(String.init).joined(separator: ",") + "]" : nil
        if reviewsResponse, case .point(let x, let y)? = response { tap = "\(x) \(y)" } else { tap = nil }
        keyOrder = revealsKey && shape == .order ? question.correct.filter(question.options.indices.contains).map { question.options[$0].text } : []
        yourOrder = reviewsResponse && shape == .order ? chosen.filter(question.options.indices.contains).map { question.options[$0].text } : []
        accepted = revealsKey && shape == .text ? question.details.accepted ?? [] : []
        partialAnswers = revealsKey && shape == .text ? (question.details.partial ?? []).map { "\($0.answer) (\(Int(($0.share * 100).rounded()))%)" } : []
        typed = reviewsResponse && shape == .text ? typedAnswer : nil
        hasYourOrder = !yourOrder.isEmpty
        hasAccepted = !accepted.isEmpty
        hasPartialAnswers = !partialAnswers.isEmpty
        var gapAnswers: [String] = []
        if case .gaps(let texts)? = response { gapAnswers = texts }
        clozeHTML = shape == .gaps ? ClozeView.formHTML(question, given: gapAnswers) : nil
        gapReviews = shape == .gaps && (revealsKey || reviewsResponse) ? (question.details.gaps ?? []).enumerated().map { index, gap in
            let typed = gapAnswers.indices.contains(index) ? FillInRule.normalized(gapAnswers[index]) : ""
            let outcome = typed.isEmpty ? nil : try? AnswerChecker.check(.gaps([gap]), .gaps([typed]))
            let partial = revealsKey ? (gap.partial ?? []).map { "\($0.answer) (\(Int(($0.share * 100).rounded()))%)" } : []
            return GapReview(
                ordinal: index + 1, given: reviewsResponse ? (typed.isEmpty ? "—" : typed) : nil, accepted: revealsKey ? gap.accepted : [],
                hasAccepted: revealsKey, partialAnswers: partial, hasPartialAnswers: !partial.isEmpty, isRight: outcome?.isCorrect ?? false)
        } : []
    }
}
