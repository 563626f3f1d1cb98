import Foundation
import QuestionEngine

/// One IMS QTI item, version 3.0 (`qti-assessment-item`, kebab-case) or 2.1 (`assessmentItem`,
/// camelCase): a choice interaction (one or several right choices), an order, a match, a text
/// entry or a hotspot interaction maps onto the portal's kinds (`QTIFormat+Kinds` for the last
/// three); inline feedback becomes the options' explanations, modal feedback and the body's
/// feedback blocks the question's, and nothing a student must not see (hints, scorers' rubrics)
/// reaches the stem. XHTML with more than words is kept as a tree (`HTMLRichText`, MathML by
/// `MathMLReader`). Any other interaction, and a template item, is named and skipped.
enum QTIFormat {
    /// The spelling of an element or attribute in each version.
    struct Names {
        let version3: Bool
        func element(_ kebab: String) -> String { version3 ? "qti-" + kebab : camel(kebab) }
        func attribute(_ kebab: String) -> String { version3 ? kebab : camel(kebab) }
        private func camel(_ kebab: String) -> String {
            let words = kebab.split(separator: "-")
            return (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
    }

    /// The item in `data`; `picture` gives the bytes of a file an image refers to (`src`), from
    /// the package the item came in (a lone item file has none).
    static func parse(_ data: Data, language: String, picture: (String) -> [UInt8]? = { _ in nil }) throws(FormatError) -> ForeignContent {
        let root = try XMLTree.parse([UInt8](data))
        let names: Names
        switch root.name {
        case "qti-assessment-item": names = Names(version3: true)
        case "assessmentItem": names = Names(version3: false)
        default: throw FormatError(position: "line \(root.line)", problem: "the root element is <\(root.name)>, not a QTI assessment item")
        }
        var content = ForeignContent()
        let identifier = root.attributes["identifier"] ?? ""
        let position = identifier.isEmpty ? "line \(root.line)" : "item \(identifier)"
        func skip(_ reason: String) -> ForeignContent {
            content.skipped.append(SkippedItem(position: position, reason: reason))
            return content
        }
        guard let body = root.child(names.element("item-body")) ?? root.descendants(names.element("item-body")).first else {
            return skip("an item with no body")
        }
        // An item whose values are drawn when it is shown has no one question to store.
        if root.child(names.element("template-processing")) != nil || root.child(names.element("template-declaration")) != nil {
            return skip("a template item (its values are drawn each time it is shown), which the portal does not support")
        }
        let interactions = ["choice-interaction", "order-interaction", "match-interaction", "text-entry-interaction", "hotspot-interaction",
                            "extended-text-interaction", "inline-choice-interaction", "associate-interaction", "gap-match-interaction",
                            "graphic-order-interaction", "slider-interaction", "upload-interaction", "hottext-interaction",
                            "select-point-interaction", "graphic-gap-match-interaction", "graphic-associate-interaction", "position-object-interaction",
                            "drawing-interaction", "media-interaction", "portable-custom-interaction", "custom-interaction"].map(names.element)
        let found = interactions.flatMap { body.descendants($0) }
        // Gaps in a text (inline choices, several text entries) make a cloze question, each
        // interaction marked {#n} where it stands.
        let inline = [names.element("inline-choice-interaction"), names.element("text-entry-interaction")]
        // One text entry standing inside a sentence ("…by this sun of ___;") is a gap in it too:
        // read as a separate box, the sentence would lose its place. One that ends its text
        // ("Which city? ___") stays a typed answer.
        let inSentence = found.count == 1 && found[0].name == inline[1] && ([body] + body.descendants { _ in true }).contains { element in
            guard let place = element.pieces.firstIndex(where: { if case .element(let child) = $0 { return child === found[0] } else { return false } }) else {
                return false
            }
            return element.pieces[(place + 1)...].contains { piece in
                if case .text(let text) = piece { return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } else { return true }
            }
        }
        let isCloze = !found.isEmpty && found.allSatisfy { inline.contains($0.name) } && (found.count > 1 || found[0].name == inline[0] || inSentence)
        var gapMarks: [ObjectIdentifier: String] = [:]
        var gaps: [ClozeGap] = []
        if isCloze {
            let ordered = body.descendants { inline.contains($0.name) }
            guard ordered.count <= 20 else { return skip("an item with \(ordered.count) gaps (the portal takes up to 20)") }
            for (index, gap) in ordered.enumerated() {
                switch clozeGap(gap, root: root, number: index + 1, names: names) {
                case .success(let made): gaps.append(made)
                case .failure(let problem): return skip(problem.reason)
                }
                gapMarks[ObjectIdentifier(gap)] = ClozeText.mark(index + 1)
            }
        }
        guard isCloze || found.count == 1, let interaction = found.first else {
            return skip(found.isEmpty ? "an item with no interaction" : "an item with \(found.count) interactions (the portal asks one thing per question)")
        }
        let supported = [names.element("choice-interaction"), names.element("order-interaction"), names.element("match-interaction"),
                         names.element("text-entry-interaction"), names.element("hotspot-interaction")]
        guard isCloze || supported.contains(interaction.name) else {
            let article = interaction.name.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return skip("\(article) \(interaction.name) (not one of the portal's kinds)")
        }
        let responseID = interaction.attributes[names.attribute("response-identifier")] ?? "RESPONSE"
        guard let declaration = root.all(names.element("response-declaration")).first(where: { $0.attributes["identifier"] == responseID }) else {
            return skip("an item whose correct response is not declared")
        }
        // A text entry may be scored by its mapping alone (Common Cartridge writes it so).
        let isMapped = isCloze || interaction.name == names.element("text-entry-interaction") && declaration.child(names.element("mapping")) != nil
        let correct = declaration.child(names.element("correct-response"))
        guard correct != nil || isMapped else { return skip("an item whose correct response is not declared") }
        let values = (correct?.all(names.element("value")) ?? []).map { $0.innerText().trimmingCharacters(in: .whitespacesAndNewlines) }
        guard !values.isEmpty || isMapped else { return skip("an item whose correct response is empty") }
        let standIn = { (element: XMLTree.Element) in gapMarks[ObjectIdentifier(element)] }
        // The stem: the body's text without the interaction, then the interaction's prompt.
        let prompt = isCloze ? nil : interaction.child(names.element("prompt"))
        // What a student must not see before answering never reaches the stem: feedback (it goes
        // to the explanation), hints behind an end-attempt button, and rubrics for scorers or proctors.
        let feedbackName = names.element("feedback-inline"), feedbackBlock = names.element("feedback-block")
        let hiddenNames: Set<String> = [feedbackName, feedbackBlock, names.element("end-attempt-interaction"), names.element("info-control")]
        func hidden(_ element: XMLTree.Element) -> Bool {
            if hiddenNames.contains(element.name) { return true }
            guard element.name == names.element("rubric-block") else { return false }
            return !(element.attributes["view"] ?? "candidate").split(separator: " ").contains("candidate")
        }
        let lead = clean(body.innerText(skipped: { $0.name == interaction.name || $0.name == "pre" || hidden($0) }, standIn: standIn))
        // A code block is the question's code, its language from the class.
        let codePre = body.descendants("pre").first
        let codeElement = codePre.flatMap { $0.child("code") ?? $0 }
        let code = codeElement.map { $0.innerText() }
        let codeLanguage = codeElement?.attributes["class"]?.split(separator: " ").first { $0.hasPrefix("language-") }.map { String($0.dropFirst("language-".count)) }
        // XHTML with more than words (tables, lists, pictures in the question text, MathML) is kept as a tree.
        var shownImages: [ContentImage] = []
        func pictures(_ source: String, _ alt: String) -> Result<RichText.Picture, ItemProblem> {
            let words = alt.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !words.isEmpty else { return .failure(ItemProblem(reason: "the picture \(source.prefix(100)) in the question text has no alt text: give it one")) }
            return Self.picture(source, picture, recordings: true).map { stored in
                shownImages.append(stored)
                return RichText.Picture(source: stored.path, alt: words)
            }
        }
        // The explanation: the modal feedback, then the feedback the body holds outside its choices.
        let choiceName = names.element("simple-choice")
        let modal = root.all(names.element("modal-feedback")).first { !clean($0.innerText()).isEmpty }
        var inBody: [XMLTree.Element] = [], pending = body.children
        while let element = pending.popLast() {
            if element.name == feedbackBlock || element.name == feedbackName { inBody.append(element); continue }
            if element.name != choiceName { pending += element.children }
        }
        let explanations = (modal.map { [$0] } ?? []) + inBody.filter { !clean($0.innerText()).isEmpty }.sorted { $0.line < $1.line }
        var richStem: RichText?, richFeedback: RichText?
        do throws(ItemProblem) {
            let leadTree = try HTMLRichText.read(tokens: body.markupTokens(skipping: { $0 === interaction || $0 === codePre || hidden($0) }, standIn: standIn), pictures: pictures)
            let promptTree = try prompt.map { element throws(ItemProblem) in try HTMLRichText.read(tokens: element.markupTokens(skipping: hidden), pictures: pictures) }
            let whole = RichText(leadTree.blocks + (promptTree?.blocks ?? []))
            if !whole.isPlainText { richStem = whole }
            var trees: [RichText] = []
            for element in explanations { trees.append(try HTMLRichText.read(tokens: element.markupTokens(), field: "the feedback", pictures: pictures)) }
            let explanation = RichText(trees.flatMap(\.blocks))
            if !explanation.isPlainText { richFeedback = explanation }
        } catch {
            return skip(error.reason)
        }
        let promptText = prompt.map { clean($0.innerText(skipped: hidden)) } ?? ""
        let stem = richStem.map(RichTextPlain.text) ?? [lead, promptText].filter { !$0.isEmpty }.joined(separator: "\n")
        guard !stem.isEmpty else { return skip("an item with no question text") }
        let general = richFeedback.map(RichTextPlain.text) ?? (explanations.isEmpty ? nil : explanations.map { clean($0.innerText()) }.joined(separator: "\n"))
        // This portal's packages carry its own keys as the item's label.
        let key = root.attributes["label"].flatMap { $0.isEmpty ? nil : $0 } ?? "qti:" + (identifier.isEmpty ? StableHash.hex(stem) : identifier)
        var question = ForeignQuestion(
            key: key, position: position, category: nil, stem: stem, isMultiple: false, options: [], correct: [], generalFeedback: general,
            code: code, codeLanguage: codeLanguage)
        question.richStem = richStem
        question.richFeedback = richFeedback
        let made: Result<ForeignQuestion, ItemProblem>
        switch isCloze ? "cloze" : interaction.name {
        case "cloze":
            question.answering = .filling(gaps: gaps)
            made = .success(question)
        case names.element("match-interaction"): made = matching(question, interaction, values: values, names: names)
        case names.element("text-entry-interaction"): made = typed(question, root, declaration, values: values, names: names)
        case names.element("hotspot-interaction"): made = hotspot(question, interaction, declaration, values: values, names: names, picture: picture)
        default:
            let isOrder = interaction.name == names.element("order-interaction")
            let choices = interaction.descendants(names.element("simple-choice"))
            guard choices.count >= 2 else { return skip("an interaction with fewer than two choices") }
            let ids = choices.map { $0.attributes["identifier"] ?? "" }
            var options: [ForeignQuestion.Option] = []
            for (number, choice) in choices.enumerated() {
                // A choice's feedback, inline or as a block (the exports write paragraphs as one).
                let feedback = choice.descendants(feedbackName).first ?? choice.descendants(feedbackBlock).first
                var option = ForeignQuestion.Option(
                    text: clean(choice.innerText(skipping: [feedbackName, feedbackBlock])),
                    feedback: feedback.map { clean($0.innerText()) }.flatMap { $0.isEmpty ? nil : $0 })
                do throws(ItemProblem) {
                    if choice.descendants("img").isEmpty {
                        option.richText = try ForeignMarkup.optionTree(tokens: choice.markupTokens { $0.name == feedbackName || $0.name == feedbackBlock }, field: "choice \(number + 1)")
                    }
                    option.richFeedback = try feedback.flatMap { element throws(ItemProblem) in
                        try ForeignMarkup.tree(tokens: element.markupTokens(), field: "choice \(number + 1)'s feedback", pictures: pictures)
                    }
                } catch {
                    return skip(error.reason)
                }
                if let tree = option.richText { option.text = RichTextPlain.text(tree) }
                if let tree = option.richFeedback { option.feedback = RichTextPlain.text(tree) }
                let images = choice.descendants("img")
                if let image = images.first {
                    let source = image.attributes["src"] ?? "", name = String(source.split(separator: "/").last ?? "")
                    guard images.count == 1 else { return skip("choice \(number + 1): more than one picture in a choice") }
                    switch Self.picture(source, picture) {
                    case .success(let stored): option.image = stored
                    case .failure(let problem): return skip("choice \(number + 1): \(problem.reason)")
                    }
                    if option.text.isEmpty {
                        let alt = clean(image.attributes["alt"] ?? "")
                        option.text = alt.isEmpty ? name : alt
                        if alt.isEmpty {
                            // A file's name is no description: the question waits as a draft until it has words.
                            content.notes.append(SkippedItem(position: position, reason: "choice \(number + 1): " + MarkupText.unnamedPicture(name)))
                        }
                    }
                }
                options.append(option)
            }
            guard options.allSatisfy({ !$0.text.isEmpty }) else { return skip("a choice with no text") }
            let indexes = values.compactMap { ids.firstIndex(of: $0) }
            guard indexes.count == values.count else { return skip("a correct response naming no choice of the item") }
            if isOrder {
                guard indexes.count == choices.count, Set(indexes).count == choices.count else { return skip("an order whose correct response does not list every choice once") }
                // Steps in their right order, as the portal's ordering import takes them.
                (question.options, question.correct, question.isOrdering) = (indexes.map { options[$0] }, Array(indexes.indices), true)
            } else if declaration.attributes["cardinality"] == "single", let right = Self.fullyRight(declaration, ids: ids, names: names), right.count > 1,
                      Set(indexes).isSubset(of: right) {
                // One choice, several mapped to full marks: each is fully right.
                (question.options, question.correct) = (options, right.sorted())
            } else {
                (question.options, question.correct) = (options, indexes.sorted())
                question.isMultiple = indexes.count > 1 || declaration.attributes["cardinality"] == "multiple"
            }
            made = .success(question)
        }
        switch made {
        case .success(var question):
            question.shownImages = shownImages
            content.questions.append(question)
            // A shared passage the item points to (QTI 3) is not carried with the question: said
            // in the report, never dropped silently.
            for reference in root.descendants(names.element("assessment-stimulus-ref")) {
                let name = reference.attributes["href"] ?? reference.attributes["identifier"] ?? "?"
                content.notes.append(SkippedItem(
                    position: position,
                    reason: "its shared passage \(name.prefix(120)) is not imported: the question is kept without it (show the passage in its text, or wait for case studies)"))
            }
        case .failure(let skipped): content.skipped.append(SkippedItem(position: position, reason: skipped.reason))
        }
        return content
    }

    /// The markup's indentation taken away: lines kept, each without the blanks at its ends;
    /// blanks inside a line are kept as written (a tab is a space).
    static func clean(_ text: String) -> String {
        text.split(separator: "\n").map { line in
            line.replacingOccurrences(of: "\t", with: " ").trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
