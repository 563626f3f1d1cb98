import Foundation
import QuestionEngine

/// Moodle XML (`<quiz>`): categories (`type="category"`), `multichoice` single and multiple with
/// `fraction`s, `truefalse`, the `ordering` plugin's steps, `matching` (subquestions),
/// `shortanswer` and `numerical` (one tolerance, no units) map onto the portal's kinds;
/// per-answer `<feedback>` becomes the option's explanation, `<generalfeedback>` the question's.
/// A text whose HTML (or markdown) holds more than words is kept as a tree (`ForeignMarkup`);
/// one of words alone is plain text. `multianswer` (cloze) becomes a cloze question, its embedded
/// answers read by `EmbeddedAnswers`. Essay, calculated and drag-and-drop are named by line and
/// skipped.
enum MoodleXMLFormat {
    static func parse(_ data: Data, language: String) throws(FormatError) -> ForeignContent {
        let root = try XMLTree.parse([UInt8](data))
        // A quiz of questions, or a file of one question (as some tools write it).
        guard root.name == "quiz" || root.name == "question" else {
            throw FormatError(position: "line \(root.line)", problem: "the root element is <\(root.name)>, not <quiz>")
        }
        var content = ForeignContent()
        var category: String?
        for question in root.name == "quiz" ? root.all("question") : [root] {
            let type = question.attributes["type"] ?? ""
            let position = "line \(question.line)"
            if type == "category" {
                category = question.textOf("category")?.trimmingCharacters(in: .whitespacesAndNewlines)
                continue
            }
            func skip(_ reason: String) { content.skipped.append(SkippedItem(position: position, reason: reason)) }
            let name = question.textOf("name")?.trimmingCharacters(in: .whitespacesAndNewlines)
            // A code block in the question's HTML is the question's code, its language from the class.
            var html = question.child("questiontext").map { $0.child("text")?.text ?? $0.text } ?? ""
            var code: String?, codeLanguage: String?
            if let block = MarkupText.codeBlock(in: html) {
                (code, codeLanguage, html) = (block.code, block.language, block.rest)
            }
            // A cloze question's gaps are written in its text: read, and marked {#n} where they were.
            var gaps: [ClozeGap] = []
            if type == "multianswer" || type == "cloze" {
                do throws(EmbeddedAnswers.Problem) {
                    let reading = try EmbeddedAnswers.read(html)
                    guard !reading.gaps.isEmpty else { skip("a cloze question with no gaps in its text"); continue }
                    let isHTML = ForeignMarkup.moodle(question.child("questiontext")) != .plain
                    (html, gaps) = (reading.text, reading.gaps.map { $0.mappingTexts { clean($0, html: isHTML) } })
                    content.notes += reading.notes.map { SkippedItem(position: position, reason: $0) }
                } catch {
                    skip(error.reason); continue
                }
            }
            let markup = ForeignMarkup.moodle(question.child("questiontext"))
            // Files embedded in the question (base64), by name, for its pictures.
            let files = Dictionary(question.descendants("file").compactMap { file in file.attributes["name"].map { ($0, file.text) } }, uniquingKeysWith: { first, _ in first })
            // Markup with more than words (tables, lists, pictures, formulas) is kept as a tree.
            var shownImages: [ContentImage] = []
            let pictures: HTMLRichText.PictureResolver = { source, alt in
                picture([(source, alt)], files: files, needsAlt: true).map { stored, alt in
                    shownImages.append(stored)
                    return RichText.Picture(source: stored.path, alt: alt)
                }
            }
            var richStem: RichText?, richFeedback: RichText?
            var answers: [(text: String, image: ContentImage?, fraction: Double, feedback: String?, richText: RichText?, richFeedback: RichText?)] = []
            do throws(ItemProblem) {
                richStem = try markup.tree(html, field: "the question's text", pictures: pictures)
                if let feedback = question.child("generalfeedback") {
                    richFeedback = try ForeignMarkup.moodle(feedback).tree(feedback.child("text")?.text ?? feedback.text, field: "the general feedback", pictures: pictures)
                }
                for (number, answer) in question.all("answer").enumerated() {
                    let html = answer.child("text")?.text ?? answer.text, answerMarkup = ForeignMarkup.moodle(answer)
                    var text = clean(html, html: answerMarkup != .plain), image: ContentImage?
                    if answerMarkup == .html, !MarkupText.images(html).isEmpty {
                        switch picture(MarkupText.images(html), files: files) {
                        case .success(let (picture, name)):
                            image = picture
                            if text.isEmpty { text = name }
                        case .failure(let problem): throw ItemProblem(reason: "answer \(number + 1): \(problem.reason)")
                        }
                    }
                    let richText = try answerMarkup.optionTree(html, field: "answer \(number + 1)", isText: true)
                    if let richText { text = RichTextPlain.text(richText) }
                    let feedback = answer.child("feedback")
                    let feedbackSource = feedback.map { $0.child("text")?.text ?? $0.text }
                    let richFeedback = try feedbackSource.flatMap { source throws(ItemProblem) in
                        try ForeignMarkup.moodle(feedback).tree(source, field: "answer \(number + 1)'s feedback", pictures: pictures)
                    }
                    answers.append((text: text, image: image, fraction: Double(answer.attributes["fraction"] ?? "0") ?? 0,
                                    feedback: richFeedback.map { MarkupText.plain(RichTextPlain.text($0), html: false) } ?? feedbackSource.map { clean($0, html: feedback?.attributes["format"] != "plain_text") },
                                    richText: richText, richFeedback: richFeedback))
                }
                // Moodle's old question picture (`<image>` with `<image_base64>`) is an exhibit after the text.
                if let old = try oldImage(question, shownImages: &shownImages) {
                    richStem = RichText((richStem ?? RichText.words(clean(html, html: markup != .plain))).blocks + [.picture(old)])
                    // The field has no alt text: its file's name stands in, and keeps the question a
                    // draft (question_picture_unnamed) until an admin gives the picture words.
                    content.notes.append(SkippedItem(
                        position: position,
                        reason: MarkupText.unnamedPicture(old.alt)))
                }
            } catch {
                skip(error.reason); continue
            }
            let stem = richStem.map(RichTextPlain.text) ?? clean(html, html: markup != .plain)
            guard !stem.isEmpty else { skip("a question with no text"); continue }
            let idnumber = question.textOf("idnumber")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            // This portal's exports carry its own keys as the idnumber; other files are named by category and name.
            let key = !idnumber.isEmpty ? idnumber : "moodle:" + (name.map { (category.map { $0 + "/" } ?? "") + $0 } ?? StableHash.hex(stem))
            let tags = Set((question.child("tags")?.all("tag") ?? []).compactMap { $0.textOf("text") ?? $0.text }.map { $0.trimmingCharacters(in: .whitespaces) })
            let general = richFeedback.map(RichTextPlain.text) ?? text(question, "generalfeedback")
            func made(_ options: [ForeignQuestion.Option], correct: [Int], multiple: Bool, ordering: Bool = false) {
                var made = ForeignQuestion(
                    key: key, position: position, category: category, stem: stem, isMultiple: multiple, options: options, correct: correct,
                    generalFeedback: general.isEmpty ? nil : general, isOrdering: ordering, code: code, codeLanguage: codeLanguage)
                made.difficulty = tags.compactMap { $0.hasPrefix("difficulty-") ? Int($0.dropFirst("difficulty-".count)) : nil }.first
                made.status = tags.compactMap { $0.hasPrefix("status-") ? String($0.dropFirst("status-".count)) : nil }.first
                made.examOnly = tags.contains("exam-only")
                made.richStem = richStem
                made.richFeedback = richFeedback
                made.shownImages = shownImages
                content.questions.append(made)
            }
            let options = answers.map {
                ForeignQuestion.Option(text: $0.text, feedback: $0.feedback.flatMap { $0.isEmpty ? nil : $0 }, image: $0.image, richText: $0.richText, richFeedback: $0.richFeedback)
            }
            switch type {
            case "multichoice":
                guard answers.count >= 2, answers.allSatisfy({ !$0.text.isEmpty }) else { skip("a choice question needs at least two answers with text"); continue }
                let positive = answers.indices.filter { answers[$0].fraction > 0 }
                let single = question.textOf("single")?.trimmingCharacters(in: .whitespaces).lowercased() != "false"
                if single {
                    // One answer is chosen; several worth 100% are each fully right.
                    guard !positive.isEmpty, positive.allSatisfy({ abs(answers[$0].fraction - 100) < 0.01 }) else {
                        skip("a weight pattern that is neither all-or-nothing nor even partial credit"); continue
                    }
                    made(options, correct: positive, multiple: false)
                } else {
                    let share = positive.first.map { answers[$0].fraction } ?? 0
                    guard !positive.isEmpty, positive.allSatisfy({ abs(answers[$0].fraction - share) < 0.01 }), abs(share * Double(positive.count) - 100) < 1 else {
                        skip("a weight pattern that is neither all-or-nothing nor even partial credit"); continue
                    }
                    // Several may be chosen, as the file says, even when one is right.
                    made(options, correct: positive, multiple: true)
                }
            case "truefalse":
                guard let right = answers.first(where: { $0.fraction > 0 }) else { skip("a true/false question with no right answer"); continue }
                let (yes, no) = GIFTFormat.trueFalse(language: language)
                let isTrue = right.text.lowercased() == "true"
                let feedback = { (truth: Bool) in answers.first { ($0.text.lowercased() == "true") == truth }?.feedback.flatMap { $0.isEmpty ? nil : $0 } }
                made([ForeignQuestion.Option(text: yes, feedback: feedback(true)), ForeignQuestion.Option(text: no, feedback: feedback(false))],
                     correct: [isTrue ? 0 : 1], multiple: false)
            case "ordering":
                guard answers.count >= 2, answers.allSatisfy({ !$0.text.isEmpty }) else { skip("an ordering question needs at least two steps"); continue }
                // The plugin lists the steps in their right order.
                made(options, correct: Array(options.indices), multiple: false, ordering: true)
            case "matching":
                // Each subquestion with text is an item; one without only adds its answer (a distractor).
                var targets: [String] = [], items: [ForeignQuestion.Option] = [], key: [Int] = []
                var problem: ItemProblem?
                for (number, sub) in question.all("subquestion").enumerated() {
                    let source = sub.child("text")?.text ?? ""
                    var item = clean(source, html: sub.attributes["format"] != "plain_text"), richItem: RichText?
                    do throws(ItemProblem) {
                        richItem = try ForeignMarkup.moodle(sub).optionTree(source, field: "subquestion \(number + 1)", isText: true)
                    } catch {
                        problem = error; break
                    }
                    if let richItem { item = RichTextPlain.text(richItem) }
                    // Plain text as the page shows it: "The⏎Tempest" is "The Tempest".
                    let target = MarkupText.collapsed(sub.child("answer").map { $0.child("text")?.text ?? $0.text } ?? "")
                        .trimmingCharacters(in: .whitespaces)
                    guard !target.isEmpty else { continue }
                    if !targets.contains(target) { targets.append(target) }
                    if !item.isEmpty, let targetIndex = targets.firstIndex(of: target) {
                        items.append(ForeignQuestion.Option(text: item, richText: richItem))
                        key.append(targetIndex)
                    }
                }
                if let problem { skip(problem.reason); continue }
                guard items.count >= 2, targets.count >= 2 else { skip("a matching question needs two items and two answers"); continue }
                made(items, correct: key, multiple: false)
                content.questions[content.questions.count - 1].answering = .matching(targets: targets)
            case "shortanswer", "numerical":
                // Answers worth full marks are accepted, those worth part of them partly right
                // (a number with its own tolerance), those worth nothing left out.
                func fraction(_ answer: XMLTree.Element) -> Double { Double(answer.attributes["fraction"] ?? "0") ?? 0 }
                func words(_ answer: XMLTree.Element) -> String { clean(answer.child("text")?.text ?? answer.text, html: false) }
                func tolerance(_ answer: XMLTree.Element) -> Double { Double(answer.textOf("tolerance")?.trimmingCharacters(in: .whitespaces) ?? "0") ?? -1 }
                let right = question.all("answer").filter { fraction($0) >= 99.99 && !words($0).isEmpty }
                let part = question.all("answer").filter { fraction($0) > 0 && fraction($0) < 99.99 && !words($0).isEmpty }
                guard !right.isEmpty else { skip("a typed-answer question with no answer worth full marks"); continue }
                if type == "shortanswer", (right + part).contains(where: { words($0).contains("*") }) {
                    skip("a short answer with a * wildcard (the portal compares whole answers)"); continue
                }
                let accepted = right.map(words)
                var match = FillInMatch.exact, rightTolerance: Double?
                if type == "numerical" {
                    let tolerances = Set(right.map(tolerance))
                    guard tolerances.count == 1, let only = tolerances.first, only >= 0, accepted.allSatisfy({ FillInRule.number($0) != nil }),
                          part.allSatisfy({ FillInRule.number(words($0)) != nil && tolerance($0) >= 0 })
                    else {
                        skip("a numerical question with right answers of different tolerances, or answers that are not numbers"); continue
                    }
                    if !question.all("units").flatMap({ $0.all("unit") }).isEmpty { skip("a numerical question with units (the portal takes a bare number)"); continue }
                    (match, rightTolerance) = (.numeric, only)
                } else {
                    match = question.textOf("usecase")?.trimmingCharacters(in: .whitespaces) == "1" ? .exact : .caseInsensitive
                }
                let partial = part.map { PartialAnswer(answer: words($0), share: (fraction($0) * 100).rounded() / 10000, tolerance: match == .numeric && tolerance($0) != rightTolerance ? tolerance($0) : nil) }
                made([], correct: [], multiple: false)
                content.questions[content.questions.count - 1].answering = .typing(accepted: accepted, match: match, tolerance: rightTolerance, partial: partial)
            case "essay": skip("an essay question (no answers to choose from)")
            case "cloze", "multianswer":
                made([], correct: [], multiple: false)
                content.questions[content.questions.count - 1].answering = .filling(gaps: gaps)
            case "calculated", "calculatedsimple", "calculatedmulti": skip("a calculated question (its values are drawn by Moodle)")
            case "ddimageortext", "ddmarker", "ddwtos", "gapselect": skip("a drag-and-drop question (not one of the portal's kinds)")
            case "description": skip("a description, not a question")
            default: skip("a question of type \(type.isEmpty ? "(none)" : type), which the portal has no kind for")
            }
        }
        return content
    }

    /// An answer's one picture, from the file embedded for it (`@@PLUGINFILE@@/name`), and the
    /// words that stand for it when the answer has no text (its `alt`, else its file name).
    static func picture(_ images: [(source: String, alt: String)], files: [String: String], needsAlt: Bool = false) -> Result<(ContentImage, String), ItemProblem> {
        guard images.count == 1, let image = images.first else { return .failure(ItemProblem(reason: "more than one picture in an answer")) }
        let prefix = "@@PLUGINFILE@@/"
        guard image.source.hasPrefix(prefix) else {
            return .failure(ItemProblem(reason: MarkupText.outsidePicture(image.source, fix: "embed it in the file")))
        }
        let encoded = String(image.source.dropFirst(prefix.count)), name = encoded.removingPercentEncoding ?? encoded
        guard let base64 = files[name] ?? files[encoded], let bytes = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            return .failure(ItemProblem(reason: "the picture \(name.prefix(100)) is not embedded in the file"))
        }
        do throws(ImageRefusal) {
            let stored = try ContentImage(bytes: [UInt8](bytes))
            // A recording plays in the question's text only (the text's pictures need words: needsAlt).
            guard needsAlt || !stored.isRecording else { return .failure(ItemProblem(reason: ContentImage.recordingOutOfPlace(name))) }
            let words = image.alt.trimmingCharacters(in: .whitespacesAndNewlines)
            // A picture in the question's text is read out by its alt text: the portal requires one.
            if needsAlt && words.isEmpty { return .failure(ItemProblem(reason: "the picture \(name.prefix(100)) in the question text has no alt text: give it one")) }
            return .success((stored, words.isEmpty ? name : words))
        } catch {
            return .failure(ItemProblem(reason: "the picture \(name.prefix(100)) \(error)"))
        }
    }

    /// The picture of Moodle's old `<image>` field, embedded as `<image_base64>`: stored, with
    /// its file's name for words (the field has no alt text). One at an outside address is named.
    static func oldImage(_ question: XMLTree.Element, shownImages: inout [ContentImage]) throws(ItemProblem) -> RichText.Picture? {
        guard let name = question.textOf("image")?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        guard let base64 = question.textOf("image_base64"), let bytes = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            throw ItemProblem(reason: "the picture \(name.prefix(100)) is not embedded in the file (<image_base64>), and the portal does not load pictures from elsewhere")
        }
        do throws(ImageRefusal) {
            let stored = try ContentImage(bytes: [UInt8](bytes))
            guard !stored.isRecording else { throw ImageRefusal.notAnImage }
            shownImages.append(stored)
            return RichText.Picture(source: stored.path, alt: String(name.split(separator: "/").last ?? Substring(name)))
        } catch {
            throw ItemProblem(reason: "the picture \(name.prefix(100)) \(error)")
        }
    }

    /// The text of `<name><text>…</text></name>`, HTML reduced to text.
    static func text(_ element: XMLTree.Element, _ name: String) -> String {
        guard let child = element.child(name) else { return "" }
        return clean(child.child("text")?.text ?? child.text, html: child.attributes["format"] != "plain_text" && child.attributes["format"] != "markdown")
    }

    static func clean(_ text: String, html: Bool) -> String { MarkupText.plain(text, html: html) }
}
