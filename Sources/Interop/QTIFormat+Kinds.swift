import Foundation
import QuestionEngine

/// The QTI interactions of the kinds beyond choosing: a match interaction (items matched with
/// targets, `directedPair` values), a text entry (accepted answers from the correct response
/// and the mapping, compared as numbers for a `float` response, with the tolerance of an
/// `equal` in the response processing) and a hotspot interaction (its picture from the package,
/// its choices' shapes as regions).
extension QTIFormat {
    static func matching(_ question: ForeignQuestion, _ interaction: XMLTree.Element, values: [String], names: Names) -> Result<ForeignQuestion, ItemProblem> {
        let sets = interaction.all(names.element("simple-match-set"))
        guard sets.count == 2 else { return .failure(ItemProblem(reason: "a match interaction without its two sets of choices")) }
        let choice = names.element("simple-associable-choice")
        let items = sets[0].all(choice), targets = sets[1].all(choice)
        let itemIDs = items.map { $0.attributes["identifier"] ?? "" }, targetIDs = targets.map { $0.attributes["identifier"] ?? "" }
        var key = [Int?](repeating: nil, count: items.count)
        for value in values {
            let pair = value.split(separator: " ").map(String.init)
            guard pair.count == 2, let item = itemIDs.firstIndex(of: pair[0]), let target = targetIDs.firstIndex(of: pair[1]), key[item] == nil else {
                return .failure(ItemProblem(reason: "a correct response that does not give each item one target"))
            }
            key[item] = target
        }
        guard items.count >= 2, targets.count >= 2, key.allSatisfy({ $0 != nil }) else {
            return .failure(ItemProblem(reason: "a match interaction whose correct response does not give each item a target"))
        }
        var made = question
        made.options = []
        for (number, item) in items.enumerated() {
            // An item with more than words (a formula) keeps its tree; its target list stays words.
            var option = ForeignQuestion.Option(text: clean(item.innerText()))
            do throws(ItemProblem) {
                option.richText = try ForeignMarkup.optionTree(tokens: item.markupTokens(), field: "item \(number + 1)")
            } catch {
                return .failure(error)
            }
            if let tree = option.richText { option.text = RichTextPlain.text(tree) }
            made.options.append(option)
        }
        made.correct = key.compactMap { $0 }
        made.answering = .matching(targets: targets.map { clean($0.innerText()) })
        return .success(made)
    }

    /// The choices a single-answer item's mapping gives full marks (its upper bound, else its
    /// highest value): a bank's way of saying several choices are each fully right. Nil without
    /// a mapping.
    static func fullyRight(_ declaration: XMLTree.Element, ids: [String], names: Names) -> Set<Int>? {
        guard let mapping = declaration.child(names.element("mapping")) else { return nil }
        let entries = mapping.all(names.element("map-entry"))
        func worth(_ entry: XMLTree.Element) -> Double { Double(entry.attributes[names.attribute("mapped-value")] ?? "") ?? 0 }
        let full = Double(mapping.attributes[names.attribute("upper-bound")] ?? "") ?? entries.map(worth).max() ?? 0
        guard full > 0 else { return nil }
        return Set(entries.filter { worth($0) >= full }.compactMap { $0.attributes[names.attribute("map-key")].flatMap(ids.firstIndex(of:)) })
    }

    static func typed(
        _ question: ForeignQuestion, _ root: XMLTree.Element, _ declaration: XMLTree.Element, values: [String], names: Names
    ) -> Result<ForeignQuestion, ItemProblem> {
        let isNumber = ["float", "integer"].contains(declaration.attributes[names.attribute("base-type")] ?? "")
        let mapping = declaration.child(names.element("mapping"))
        let entries = mapping?.all(names.element("map-entry")) ?? []
        // Full marks make an answer right, one worth part of them is partly right, one worth
        // nothing is not an accepted answer.
        func worth(_ entry: XMLTree.Element) -> Double { Double(entry.attributes[names.attribute("mapped-value")] ?? "") ?? 0 }
        let full = Double(mapping?.attributes[names.attribute("upper-bound")] ?? "") ?? entries.map(worth).max() ?? 1
        var accepted: [String] = []
        for answer in values + entries.filter({ worth($0) >= full }).compactMap({ $0.attributes[names.attribute("map-key")] }) where !accepted.contains(answer) { accepted.append(answer) }
        guard !accepted.isEmpty else { return .failure(ItemProblem(reason: "a text entry with no answer worth full marks")) }
        var partial = entries.filter { worth($0) > 0 && worth($0) < full && full > 0 }.compactMap { entry in
            entry.attributes[names.attribute("map-key")].map { PartialAnswer(answer: $0, share: (worth(entry) / full * 1000).rounded() / 1000) }
        }.filter { (isNumber || !accepted.contains($0.answer)) && $0.share > 0 && $0.share < 1 }
        // Compared case aside when the mapping says so.
        let caseSensitive = entries.allSatisfy { ($0.attributes[names.attribute("case-sensitive")] ?? "true") != "false" }
        var tolerance: Double?
        if isNumber {
            guard (accepted + partial.map(\.answer)).allSatisfy({ FillInRule.number($0) != nil }) else {
                return .failure(ItemProblem(reason: "a numeric text entry whose answers are not numbers"))
            }
            // The correct answer's tolerance, and a partly right number's own where an `equal`
            // compares the response with it.
            // The comparisons of this response (all of them, when none names it).
            let identifier = declaration.attributes["identifier"] ?? "RESPONSE"
            let all = root.descendants(names.element("equal")).filter { $0.attributes[names.attribute("tolerance-mode")] == "absolute" }
            let own = all.filter { equal in equal.descendants { $0.attributes["identifier"] == identifier }.isEmpty == false }
            let equals = own.isEmpty ? all : own
            func within(_ equal: XMLTree.Element) -> Double? { equal.attributes["tolerance"]?.split(separator: " ").first.flatMap { Double($0) } }
            let correct = equals.first { !$0.descendants(names.element("correct")).isEmpty } ?? equals.first
            tolerance = correct.flatMap(within) ?? 0
            for index in partial.indices {
                let own = equals.first { $0.descendants(names.element("base-value")).contains { $0.innerText() == partial[index].answer } }
                if let own = own.flatMap(within), own != tolerance { partial[index].tolerance = own }
            }
            // A right number is not also partly right at the same tolerance.
            partial.removeAll { $0.tolerance == nil && accepted.contains($0.answer) }
        }
        var made = question
        made.answering = .typing(accepted: accepted, match: isNumber ? .numeric : caseSensitive ? .exact : .caseInsensitive, tolerance: tolerance, partial: partial)
        return .success(made)
    }

    /// One gap of a cloze item: an inline choice's choices (its key and mapping by their
    /// identifiers), or a text entry as `typed` reads one; its weight the mapping's upper bound
    /// when that is a whole number (as the portal's exports write it).
    static func clozeGap(_ interaction: XMLTree.Element, root: XMLTree.Element, number: Int, names: Names) -> Result<ClozeGap, ItemProblem> {
        let responseID = interaction.attributes[names.attribute("response-identifier")] ?? ""
        guard let declaration = root.all(names.element("response-declaration")).first(where: { $0.attributes["identifier"] == responseID }) else {
            return .failure(ItemProblem(reason: "gap \(number): the response \(responseID.prefix(40)) is not declared"))
        }
        let values = (declaration.child(names.element("correct-response"))?.all(names.element("value")) ?? []).map { $0.innerText().trimmingCharacters(in: .whitespacesAndNewlines) }
        let mapping = declaration.child(names.element("mapping"))
        let upper = Double(mapping?.attributes[names.attribute("upper-bound")] ?? "")
        let weight = upper.flatMap { Int(exactly: $0) }.flatMap { (2...100).contains($0) ? $0 : nil }
        let placeholder = ForeignQuestion(key: "", position: "", category: nil, stem: "", isMultiple: false, options: [], correct: [], generalFeedback: nil)
        guard interaction.name == names.element("inline-choice-interaction") else {
            guard case .success(let made) = typed(placeholder, root, declaration, values: values, names: names),
                  case .typing(let accepted, let match, let tolerance, let partial) = made.answering else {
                return .failure(ItemProblem(reason: "gap \(number): a text entry with no answer worth full marks"))
            }
            return .success(ClozeGap(
                accepted: accepted, match: match, tolerance: match == .numeric && (tolerance ?? 0) > 0 ? tolerance : nil, partial: partial.isEmpty ? nil : partial,
                weight: weight))
        }
        let choices = interaction.all(names.element("inline-choice"))
        let ids = choices.map { $0.attributes["identifier"] ?? "" }, texts = choices.map { FillInRule.normalized(clean($0.innerText())) }
        guard texts.count >= 2, texts.allSatisfy({ !$0.isEmpty }), Set(texts).count == texts.count else {
            return .failure(ItemProblem(reason: "gap \(number): an inline choice needs two or more different choices with text"))
        }
        let entries = mapping?.all(names.element("map-entry")) ?? []
        func worth(_ entry: XMLTree.Element) -> Double { Double(entry.attributes[names.attribute("mapped-value")] ?? "") ?? 0 }
        let full = upper ?? entries.map(worth).max() ?? 1
        var accepted = values.compactMap { ids.firstIndex(of: $0).map { texts[$0] } }
        for entry in entries where worth(entry) >= full {
            if let index = ids.firstIndex(of: entry.attributes[names.attribute("map-key")] ?? ""), !accepted.contains(texts[index]) { accepted.append(texts[index]) }
        }
        guard !accepted.isEmpty else { return .failure(ItemProblem(reason: "gap \(number): an inline choice with no right choice")) }
        let partial = entries.filter { worth($0) > 0 && worth($0) < full && full > 0 }.compactMap { entry -> PartialAnswer? in
            guard let index = ids.firstIndex(of: entry.attributes[names.attribute("map-key")] ?? ""), !accepted.contains(texts[index]) else { return nil }
            return PartialAnswer(answer: texts[index], share: (worth(entry) / full * 1000).rounded() / 1000)
        }
        return .success(ClozeGap(choices: texts, accepted: accepted, partial: partial.isEmpty ? nil : partial, weight: weight))
    }

    static func hotspot(
        _ question: ForeignQuestion, _ interaction: XMLTree.Element, _ declaration: XMLTree.Element, values: [String], names: Names,
        picture: (String) -> [UInt8]?
    ) -> Result<ForeignQuestion, ItemProblem> {
        guard let source = interaction.descendants("img").first?.attributes["src"] ?? interaction.descendants("object").first?.attributes["data"] else {
            return .failure(ItemProblem(reason: "a hotspot interaction without its picture"))
        }
        let image: ContentImage
        switch Self.picture(source, picture) {
        case .success(let stored): image = stored
        case .failure(let problem): return .failure(problem)
        }
        let choices = interaction.all(names.element("hotspot-choice"))
        var options: [ForeignQuestion.Option] = []
        for (number, choice) in choices.enumerated() {
            let shapes: [String: HotspotRegion.Shape] = ["rect": .rect, "circle": .circle, "poly": .polygon]
            let coords = (choice.attributes["coords"] ?? "").split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) ?? -1 }
            guard let shape = shapes[choice.attributes["shape"] ?? ""], case let region = HotspotRegion(shape: shape, coords: coords), region.isWellFormed else {
                return .failure(ItemProblem(reason: "hotspot \(number + 1): a shape the portal has no region for (rect, circle and poly are)"))
            }
            let label = clean(choice.attributes[names.attribute("hotspot-label")] ?? "")
            options.append(ForeignQuestion.Option(text: label.isEmpty ? choice.attributes["identifier"] ?? "\(number + 1)" : label, region: region))
        }
        let ids = choices.map { $0.attributes["identifier"] ?? "" }
        let key = values.compactMap { ids.firstIndex(of: $0) }
        guard choices.count >= 2, key.count == values.count else { return .failure(ItemProblem(reason: "a hotspot interaction whose correct response names no hotspot")) }
        var made = question
        made.options = options
        made.correct = key.sorted()
        made.answering = .clicking(image: image)
        return .success(made)
    }

    /// The picture at `source` in the package the item came in (or a recording, where the
    /// question's text plays one).
    static func picture(_ source: String, _ picture: (String) -> [UInt8]?, recordings: Bool = false) -> Result<ContentImage, ItemProblem> {
        guard let bytes = picture(source) else {
            return .failure(ItemProblem(reason: "the picture \(source.prefix(100)) is not in the package (import the whole package, not the item alone)"))
        }
        do throws(ImageRefusal) {
            let stored = try ContentImage(bytes: bytes)
            guard recordings || !stored.isRecording else { return .failure(ItemProblem(reason: ContentImage.recordingOutOfPlace(source))) }
            return .success(stored)
        } catch {
            return .failure(ItemProblem(reason: "the picture \(source.prefix(100)) \(error)"))
        }
    }
}
