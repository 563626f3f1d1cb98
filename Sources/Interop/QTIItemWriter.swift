import Foundation
import QuestionEngine

/// One question as a QTI 3.0 or 2.1 item, in its kind's interaction: choices (several right:
/// each right choice worth an equal share, each wrong one taking a share back, as the portal
/// scores), an order, a match (a share per right pair), a text entry (the accepted answers as a
/// mapping, numbers with their tolerance), or a hotspot over the question's picture.
extension QTIPackage {
    static func item(
        _ question: ContentDocument.Question, identifier: String, language: String, version3: Bool = true, pictures: ExportPictures? = nil,
        texts: QuestionTexts? = nil
    ) -> String {
        let n = QTIFormat.Names(version3: version3)
        let rich = RichTexts(texts: texts, writer: ExchangeHTML(pictureAddress: { pictures?.picture($0).map { "../images/" + $0.name } }, xhtml1: !version3))
        let view = ChoiceView(question)
        let kind = QuestionKind(rawValue: question.type) ?? .singleChoice
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<\(n.element("assessment-item")) xmlns=\"\(namespace(version3))\" identifier=\"\(identifier)\" title=\"\(escape(String(question.stem.prefix(60))))\""
        xml += " label=\"\(escape(question.key))\" adaptive=\"false\" \(n.attribute("time-dependent"))=\"false\" xml:lang=\"\(escape(language))\">\n"
        let parts: (declaration: String, interaction: String, processing: String)
        switch kind.answerShape {
        case .oneOption, .someOptions, .order: parts = choices(question, view, kind: kind, n: n, pictures: pictures, rich: rich)
        case .pairs: parts = matching(view, n: n, rich: rich)
        case .text: parts = textEntry(view, n: n)
        case .region: parts = hotspot(view, n: n, version3: version3, pictures: pictures)
        case .gaps: parts = cloze(view, n: n)
        }
        xml += parts.declaration
        xml += "  <\(n.element("outcome-declaration")) identifier=\"SCORE\" cardinality=\"single\" \(n.attribute("base-type"))=\"float\"/>\n"
        // FEEDBACK holds the choices made (response processing sets it), so a player shows their inline feedback.
        xml += "  <\(n.element("outcome-declaration")) identifier=\"FEEDBACK\" cardinality=\"\(kind == .multiChoice ? "multiple" : "single")\" \(n.attribute("base-type"))=\"identifier\"/>\n"
        var stem = texts.map { rich.writer.blocks($0.stem) } ?? "<p>\(html(question.stem))</p>"
        // A cloze question's gaps are its interactions, where the text marks them.
        if kind == .cloze { stem = ClozeText.filling(stem) { gapInteraction($0, view.details.gaps ?? [], n: n) } }
        xml += "  <\(n.element("item-body"))>\n    " + stem + "\n"
        if let code = question.code {
            xml += "    <pre><code\(question.codeLanguage.map { " class=\"language-\(escape($0))\"" } ?? "")>\(escape(code))</code></pre>\n"
        }
        xml += parts.interaction + "  </\(n.element("item-body"))>\n" + parts.processing
        if let explanation = question.explanation, !explanation.isEmpty {
            xml += "  <\(n.element("modal-feedback")) \(n.attribute("outcome-identifier"))=\"FEEDBACK\" identifier=\"GENERAL\" \(n.attribute("show-hide"))=\"hide\">"
            xml += (texts.map { rich.writer.blocks($0.explanation) } ?? html(explanation)) + "</\(n.element("modal-feedback"))>\n"
        }
        return xml + "</\(n.element("assessment-item"))>\n"
    }

    /// The standard response processing of `name` (match_correct, map_response).
    static func template(_ name: String, n: QTIFormat.Names) -> String {
        let address = n.version3 ? "https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/\(name).xml" : "http://www.imsglobal.org/question/qti_v2p1/rptemplates/\(name)"
        return "  <\(n.element("response-processing")) template=\"\(address)\"/>\n"
    }

    /// `match_correct` (or `map_response`, `mapped`) as rules, then FEEDBACK set to the response.
    static func scoringWithFeedback(mapped: Bool, n: QTIFormat.Names) -> String {
        func e(_ kebab: String) -> String { n.element(kebab) }
        let score = { (value: String) in "<\(e("set-outcome-value")) identifier=\"SCORE\">\(value)</\(e("set-outcome-value"))>" }
        let number = { (value: Int) in "<\(e("base-value")) \(n.attribute("base-type"))=\"float\">\(value)</\(e("base-value"))>" }
        let response = "<\(e("variable")) identifier=\"RESPONSE\"/>"
        var xml = "  <\(e("response-processing"))><\(e("response-condition"))><\(e("response-if"))>"
        if mapped {
            xml += "<\(e("is-null"))>\(response)</\(e("is-null"))>" + score(number(0)) + "</\(e("response-if"))><\(e("response-else"))>"
            xml += score("<\(e("map-response")) identifier=\"RESPONSE\"/>")
        } else {
            xml += "<\(e("match"))>\(response)<\(e("correct")) identifier=\"RESPONSE\"/></\(e("match"))>" + score(number(1)) + "</\(e("response-if"))><\(e("response-else"))>"
            xml += score(number(0))
        }
        xml += "</\(e("response-else"))></\(e("response-condition"))>"
        xml += "<\(e("set-outcome-value")) identifier=\"FEEDBACK\">\(response)</\(e("set-outcome-value"))></\(e("response-processing"))>\n"
        return xml
    }

    static func declaration(cardinality: String, baseType: String, values: [String], mapping: String = "", n: QTIFormat.Names) -> String {
        let value = n.element("value")
        return "  <\(n.element("response-declaration")) identifier=\"RESPONSE\" cardinality=\"\(cardinality)\" \(n.attribute("base-type"))=\"\(baseType)\">\n"
            + "    <\(n.element("correct-response"))>\(values.map { "<\(value)>\(escape($0))</\(value)>" }.joined())</\(n.element("correct-response"))>\n"
            + mapping + "  </\(n.element("response-declaration"))>\n"
    }

    static func mapping(_ entries: [(key: String, value: Double, caseSensitive: Bool?)], upperBound: Double = 1, n: QTIFormat.Names) -> String {
        "    <\(n.element("mapping")) \(n.attribute("lower-bound"))=\"0\" \(n.attribute("upper-bound"))=\"\(format(upperBound))\" \(n.attribute("default-value"))=\"0\">"
            + entries.map { entry in
                "<\(n.element("map-entry")) \(n.attribute("map-key"))=\"\(escape(entry.key))\" \(n.attribute("mapped-value"))=\"\(format(entry.value))\""
                    + (entry.caseSensitive.map { " \(n.attribute("case-sensitive"))=\"\($0)\"" } ?? "") + "/>"
            }.joined() + "</\(n.element("mapping"))>\n"
    }

    /// A question's trees, when it has them, and the writer of their XHTML.
    struct RichTexts {
        let texts: QuestionTexts?
        let writer: ExchangeHTML

        /// Option `index`'s text: its tree's XHTML, else `plain` escaped.
        func option(_ index: Int, plain: String) -> String {
            guard let texts, texts.options.indices.contains(index) else { return html(plain) }
            return writer.inlines(texts.options[index].inlines)
        }

        /// Option `index`'s explanation, and whether it is blocks (more than one paragraph's line).
        func explanation(_ index: Int, plain: String?) -> (String, Bool)? {
            guard let texts, texts.options.indices.contains(index) else { return plain.map { (html($0), false) } }
            guard let tree = texts.options[index].explanation else { return nil }
            if tree.blocks.count == 1, case .paragraph(let inlines) = tree.blocks[0] { return (writer.inlines(inlines), false) }
            return (writer.blocks(tree), true)
        }
    }

    private static func choices(
        _ question: ContentDocument.Question, _ view: ChoiceView, kind: QuestionKind, n: QTIFormat.Names, pictures: ExportPictures?, rich: RichTexts
    ) -> (String, String, String) {
        var options = view.options, correct = view.correct
        // Where each listed option is stored (an ordering's list moves on by one), for its trees.
        var stored = Array(options.indices)
        let isOrdering = kind == .ordering, isMultiple = kind == .multiChoice
        if isOrdering, correct.count == options.count, correct.allSatisfy(options.indices.contains) {
            // Steps listed as the importer stores them (the right order moved on by one), so a
            // package exported, imported and exported again is the same package.
            let right = correct.map { options[$0] }, count = right.count
            options = (0..<count).map { right[($0 + 1) % count] }
            stored = (0..<count).map { view.correct[($0 + 1) % count] }
            correct = (0..<count).map { ($0 - 1 + count) % count }
        }
        let share = 1.0 / Double(max(1, correct.count))
        // A single choice with several fully right options: one is the correct response, and the
        // mapping gives each of them full marks.
        let severalRight = kind == .singleChoice && correct.count > 1
        let mapped = isMultiple ? mapping(options.indices.map { ("C\($0 + 1)", correct.contains($0) ? share : -share, nil) }, n: n)
            : severalRight ? mapping(correct.map { ("C\($0 + 1)", 1, nil) }, n: n) : ""
        let declaration = declaration(
            cardinality: isOrdering ? "ordered" : isMultiple ? "multiple" : "single", baseType: "identifier",
            values: (severalRight ? Array(correct.prefix(1)) : correct).map { "C\($0 + 1)" }, mapping: mapped, n: n)
        let interaction = n.element(isOrdering ? "order-interaction" : "choice-interaction")
        var body = "    <\(interaction) \(n.attribute("response-identifier"))=\"RESPONSE\" shuffle=\"true\""
        body += isOrdering ? ">\n" : " \(n.attribute("max-choices"))=\"\(isMultiple ? 0 : 1)\">\n"
        for (index, option) in options.enumerated() {
            body += "      <\(n.element("simple-choice")) identifier=\"C\(index + 1)\">\(rich.option(stored[index], plain: option.text))"
            if let picture = pictures?.picture(option.imageUrl) { body += "<img src=\"../images/\(picture.name)\" alt=\"\"/>" }
            if let (explanation, isBlock) = rich.explanation(stored[index], plain: option.explanation) {
                // A line goes as inline feedback; paragraphs, lists or tables as a feedback block.
                let element = n.element(isBlock ? "feedback-block" : "feedback-inline")
                body += "<\(element) \(n.attribute("outcome-identifier"))=\"FEEDBACK\" identifier=\"C\(index + 1)\" \(n.attribute("show-hide"))=\"show\">"
                body += "\(explanation)</\(element)>"
            }
            body += "</\(n.element("simple-choice"))>\n"
        }
        body += "    </\(interaction)>\n"
        // Choices with feedback: the template's scoring written out, and FEEDBACK set to the choices
        // made (an order's response is a list, which FEEDBACK cannot hold: it keeps the template).
        let byMapping = isMultiple || severalRight
        guard !isOrdering, options.contains(where: { $0.explanation != nil }) else { return (declaration, body, template(byMapping ? "map_response" : "match_correct", n: n)) }
        return (declaration, body, scoringWithFeedback(mapped: byMapping, n: n))
    }

    private static func matching(_ view: ChoiceView, n: QTIFormat.Names, rich: RichTexts) -> (String, String, String) {
        let targets = view.details.targets ?? []
        let pairs = view.correct.enumerated().map { "P\($0.offset + 1) T\($0.element + 1)" }
        let share = 1.0 / Double(max(1, pairs.count))
        let declaration = declaration(
            cardinality: "multiple", baseType: "directedPair", values: pairs, mapping: mapping(pairs.map { ($0, share, nil) }, n: n), n: n)
        let choice = n.element("simple-associable-choice"), set = n.element("simple-match-set")
        var body = "    <\(n.element("match-interaction")) \(n.attribute("response-identifier"))=\"RESPONSE\" shuffle=\"true\" \(n.attribute("max-associations"))=\"\(view.options.count)\">\n"
        body += "      <\(set)>" + view.options.enumerated().map { "<\(choice) identifier=\"P\($0.offset + 1)\" \(n.attribute("match-max"))=\"1\">\(rich.option($0.offset, plain: $0.element.text))</\(choice)>" }.joined() + "</\(set)>\n"
        body += "      <\(set)>" + targets.enumerated().map { "<\(choice) identifier=\"T\($0.offset + 1)\" \(n.attribute("match-max"))=\"\(view.options.count)\">\(html($0.element.text))</\(choice)>" }.joined() + "</\(set)>\n"
        body += "    </\(n.element("match-interaction"))>\n"
        return (declaration, body, template("map_response", n: n))
    }

    private static func textEntry(_ view: ChoiceView, n: QTIFormat.Names) -> (String, String, String) {
        let accepted = view.details.accepted ?? [], match = view.details.match ?? .exact, partial = view.details.partial ?? []
        let isNumber = match == .numeric
        // The accepted answers worth full marks, the partly right ones their share.
        let entries = accepted.map { ($0, 1.0, isNumber ? nil : match == .exact) } + partial.map { ($0.answer, $0.share, isNumber ? nil : match == .exact) }
        let declaration = declaration(
            cardinality: "single", baseType: isNumber ? "float" : "string", values: Array(accepted.prefix(1)), mapping: mapping(entries, n: n), n: n)
        let longest = (accepted + partial.map(\.answer)).map(\.count).max() ?? 10
        let body = "    <p><\(n.element("text-entry-interaction")) \(n.attribute("response-identifier"))=\"RESPONSE\" \(n.attribute("expected-length"))=\"\(max(10, longest))\"/></p>\n"
        guard isNumber else { return (declaration, body, template("map_response", n: n)) }
        // A number within the tolerance of the correct one: an `equal` with an absolute
        // tolerance; then each partly right number within its own.
        let score = { (value: Double) in
            "<\(n.element("set-outcome-value")) identifier=\"SCORE\"><\(n.element("base-value")) \(n.attribute("base-type"))=\"float\">\(format(value))</\(n.element("base-value"))></\(n.element("set-outcome-value"))>"
        }
        func equal(_ other: String, tolerance: Double) -> String {
            "<\(n.element("equal")) \(n.attribute("tolerance-mode"))=\"absolute\" tolerance=\"\(format(tolerance)) \(format(tolerance))\">"
                + "<\(n.element("variable")) identifier=\"RESPONSE\"/>\(other)</\(n.element("equal"))>"
        }
        let tolerance = view.details.tolerance ?? 0
        var processing = "  <\(n.element("response-processing"))><\(n.element("response-condition"))><\(n.element("response-if"))>"
        processing += equal("<\(n.element("correct")) identifier=\"RESPONSE\"/>", tolerance: tolerance) + score(1) + "</\(n.element("response-if"))>"
        for answer in partial {
            let value = "<\(n.element("base-value")) \(n.attribute("base-type"))=\"float\">\(escape(answer.answer))</\(n.element("base-value"))>"
            processing += "<\(n.element("response-else-if"))>" + equal(value, tolerance: answer.tolerance ?? tolerance) + score(answer.share) + "</\(n.element("response-else-if"))>"
        }
        processing += "<\(n.element("response-else"))>" + score(0) + "</\(n.element("response-else"))>"
        processing += "</\(n.element("response-condition"))></\(n.element("response-processing"))>\n"
        return (declaration, body, processing)
    }

    /// Gap `number`'s interaction: a choice of its choices, else a text entry.
    private static func gapInteraction(_ number: Int, _ gaps: [ClozeGap], n: QTIFormat.Names) -> String {
        guard gaps.indices.contains(number - 1) else { return ClozeText.mark(number) }
        let gap = gaps[number - 1], response = "\(n.attribute("response-identifier"))=\"RESPONSE_\(number)\""
        guard let choices = gap.choices else {
            let longest = (gap.accepted + (gap.partial ?? []).map(\.answer)).map(\.count).max() ?? 10
            return "<\(n.element("text-entry-interaction")) \(response) \(n.attribute("expected-length"))=\"\(max(5, longest))\"/>"
        }
        return "<\(n.element("inline-choice-interaction")) \(response) shuffle=\"false\">"
            + choices.enumerated().map { "<\(n.element("inline-choice")) identifier=\"G\(number)C\($0.offset + 1)\">\(escape($0.element))</\(n.element("inline-choice"))>" }.joined()
            + "</\(n.element("inline-choice-interaction"))>"
    }

    /// A cloze question: a response per gap (`RESPONSE_n`), its mapping worth the gap's weight
    /// (partly right answers their share of it), its score `SCORE_n` (a number within its
    /// tolerance by an `equal`, else by the mapping), and SCORE their sum over the weights.
    private static func cloze(_ view: ChoiceView, n: QTIFormat.Names) -> (String, String, String) {
        func e(_ kebab: String) -> String { n.element(kebab) }
        let gaps = view.details.gaps ?? []
        var declarations = "", outcomes = "", processing = "  <\(e("response-processing"))>"
        let float = { (value: Double) in "<\(e("base-value")) \(n.attribute("base-type"))=\"float\">\(format(value))</\(e("base-value"))>" }
        for (index, gap) in gaps.enumerated() {
            let number = index + 1, weight = Double(gap.marks), isNumber = gap.match == .numeric
            let key = { (text: String) in gap.choices.flatMap { $0.firstIndex(of: text) }.map { "G\(number)C\($0 + 1)" } ?? text }
            let entries = gap.accepted.map { (key($0), weight, gap.choices != nil || isNumber ? nil : gap.match != .caseInsensitive) }
                + (gap.partial ?? []).map { (key($0.answer), weight * $0.share, gap.choices != nil || isNumber ? nil : gap.match != .caseInsensitive) }
            var declaration = declaration(
                cardinality: "single", baseType: gap.choices != nil ? "identifier" : isNumber ? "float" : "string", values: Array(gap.accepted.prefix(1)).map(key),
                mapping: mapping(entries, upperBound: weight, n: n), n: n)
            declaration = declaration.replacingOccurrences(of: "identifier=\"RESPONSE\"", with: "identifier=\"RESPONSE_\(number)\"")
            declarations += declaration
            outcomes += "  <\(e("outcome-declaration")) identifier=\"SCORE_\(number)\" cardinality=\"single\" \(n.attribute("base-type"))=\"float\"/>\n"
            let response = "<\(e("variable")) identifier=\"RESPONSE_\(number)\"/>"
            let set = { (value: String) in "<\(e("set-outcome-value")) identifier=\"SCORE_\(number)\">\(value)</\(e("set-outcome-value"))>" }
            processing += "<\(e("response-condition"))><\(e("response-if"))><\(e("is-null"))>\(response)</\(e("is-null"))>" + set(float(0)) + "</\(e("response-if"))>"
            if isNumber {
                func equal(_ other: String, tolerance: Double) -> String {
                    "<\(e("equal")) \(n.attribute("tolerance-mode"))=\"absolute\" tolerance=\"\(format(tolerance)) \(format(tolerance))\">\(response)\(other)</\(e("equal"))>"
                }
                let tolerance = gap.tolerance ?? 0
                for answer in gap.accepted {
                    processing += "<\(e("response-else-if"))>" + equal("<\(e("base-value")) \(n.attribute("base-type"))=\"float\">\(escape(answer))</\(e("base-value"))>", tolerance: tolerance) + set(float(weight)) + "</\(e("response-else-if"))>"
                }
                for answer in gap.partial ?? [] {
                    let value = "<\(e("base-value")) \(n.attribute("base-type"))=\"float\">\(escape(answer.answer))</\(e("base-value"))>"
                    processing += "<\(e("response-else-if"))>" + equal(value, tolerance: answer.tolerance ?? tolerance) + set(float(weight * answer.share)) + "</\(e("response-else-if"))>"
                }
                processing += "<\(e("response-else"))>" + set(float(0)) + "</\(e("response-else"))>"
            } else {
                processing += "<\(e("response-else"))>" + set("<\(e("map-response")) identifier=\"RESPONSE_\(number)\"/>") + "</\(e("response-else"))>"
            }
            processing += "</\(e("response-condition"))>"
        }
        let total = gaps.reduce(0) { $0 + $1.marks }
        let sum = "<\(e("sum"))>" + gaps.indices.map { "<\(e("variable")) identifier=\"SCORE_\($0 + 1)\"/>" }.joined() + "</\(e("sum"))>"
        processing += "<\(e("set-outcome-value")) identifier=\"SCORE\"><\(e("divide"))>\(sum)\(float(Double(max(1, total))))</\(e("divide"))></\(e("set-outcome-value"))>"
        processing += "</\(e("response-processing"))>\n"
        return (declarations + outcomes, "", processing)
    }

    private static func hotspot(_ view: ChoiceView, n: QTIFormat.Names, version3: Bool, pictures: ExportPictures?) -> (String, String, String) {
        let declaration = declaration(
            cardinality: view.correct.count > 1 ? "multiple" : "single", baseType: "identifier", values: view.correct.map { "H\($0 + 1)" }, n: n)
        var body = "    <\(n.element("hotspot-interaction")) \(n.attribute("response-identifier"))=\"RESPONSE\" \(n.attribute("max-choices"))=\"1\">\n"
        if let picture = pictures?.picture(view.details.imageUrl) {
            let type = ContentImage.extensions.first { $0.value == picture.name.split(separator: ".").last.map(String.init) }?.key ?? "image/png"
            body += version3 ? "      <img src=\"../images/\(picture.name)\" alt=\"\"/>\n" : "      <object data=\"../images/\(picture.name)\" type=\"\(type)\"/>\n"
        }
        let shapes: [HotspotRegion.Shape: String] = [.rect: "rect", .circle: "circle", .polygon: "poly"]
        for (index, option) in view.options.enumerated() {
            guard let region = view.regions[index] else { continue }
            body += "      <\(n.element("hotspot-choice")) identifier=\"H\(index + 1)\" shape=\"\(shapes[region.shape] ?? "rect")\""
            body += " coords=\"\(region.coords.map(format).joined(separator: ","))\" \(n.attribute("hotspot-label"))=\"\(escape(option.text))\"/>\n"
        }
        body += "    </\(n.element("hotspot-interaction"))>\n"
        return (declaration, body, template("match_correct", n: n))
    }
}
