import Foundation
import QuestionEngine

/// An exam as Moodle XML: a category per domain (`$course$/exam/domain`), each question with
/// the portal's key as its `idnumber` (so importing it back, here or after Moodle, updates the
/// same question), choice questions as `multichoice` (several right: equal shares, each wrong
/// pick taking one share back — the portal's partial credit), orderings for the ordering
/// plugin, a code block as `<pre><code class="language-…">`, an option's picture as an image
/// in the answer with the file embedded (`@@PLUGINFILE@@`, base64), a question in markdown as
/// the HTML of its trees (`ExchangeHTML`: tables, exhibits, MathML with its TeX), and the
/// difficulty, status and exam-only flag as tags Moodle keeps.
public enum MoodleXMLExport {
    public static func document(_ content: ContentDocument) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n"
        let pictures = ExportPictures(content)
        for region in content.regions {
            for exam in region.exams {
                for domain in exam.domains {
                    xml += "  <question type=\"category\">\n    <category><text>\(escape("$course$/\(exam.title)/\(domain.title)"))</text></category>\n  </question>\n"
                    for question in domain.questions { xml += self.question(question, examMarkup: exam.markup, pictures: pictures) }
                }
            }
        }
        return xml + "</quiz>\n"
    }

    /// The kinds Moodle has no question type for: left out, with a comment saying so.
    public static func leftOut(_ question: ContentDocument.Question) -> Bool { question.type == QuestionKind.hotspot.rawValue }

    static func question(_ written: ContentDocument.Question, examMarkup: String?, pictures: ExportPictures) -> String {
        if leftOut(written) { return "  <!-- \(escape(written.key.replacingOccurrences(of: "--", with: "- -"))): a hotspot question, which Moodle XML has no type for -->\n" }
        // A question in markdown goes as the HTML of its trees, its pictures embedded.
        let (question, texts) = (try? written.stored(examMarkup: examMarkup)) ?? (written, nil)
        let rich = ExchangeHTML { pictures.picture($0).map { "@@PLUGINFILE@@/" + $0.name } }
        let view = ChoiceView(question)
        let options = view.options, correct = view.correct
        let isOrdering = question.type == QuestionKind.ordering.rawValue
        let isMultiple = question.type == QuestionKind.multiChoice.rawValue
        /// An option's text as HTML: its tree's, else its words.
        func optionHTML(_ index: Int) -> String {
            guard let texts, texts.options.indices.contains(index) else { return html(options[index].text) }
            return rich.inlines(texts.options[index].inlines)
        }
        func explanationHTML(_ index: Int) -> String? {
            guard let texts, texts.options.indices.contains(index) else { return options[index].explanation.map(html) }
            return texts.options[index].explanation.map(rich.blocks)
        }
        var stem = texts.map { rich.blocks($0.stem) } ?? "<p>" + html(question.stem) + "</p>"
        if let code = question.code {
            let language = question.codeLanguage.map { " class=\"language-\(escape($0))\"" } ?? ""
            stem += "<pre><code\(language)>" + escape(code) + "</code></pre>"
        }
        // A cloze question's gaps go back into its text as Moodle's embedded answers.
        let gaps = view.details.gaps ?? []
        if question.type == QuestionKind.cloze.rawValue {
            stem = ClozeText.filling(stem) { gaps.indices.contains($0 - 1) ? escape(EmbeddedAnswers.write(gaps[$0 - 1])) : ClozeText.mark($0) }
        }
        let moodleType = switch question.type {
        case QuestionKind.cloze.rawValue: "multianswer"
        case QuestionKind.ordering.rawValue: "ordering"
        case QuestionKind.matching.rawValue: "matching"
        case QuestionKind.fillIn.rawValue: view.details.match == .numeric ? "numerical" : "shortanswer"
        default: "multichoice"
        }
        var xml = "  <question type=\"\(moodleType)\">\n"
        xml += "    <name><text>\(escape(String(question.stem.prefix(60))))</text></name>\n"
        xml += "    <idnumber>\(escape(question.key))</idnumber>\n"
        let files = (texts?.picturePaths ?? []).compactMap { pictures.picture($0) }.reduce(into: [ExportPictures.Picture]()) { if !$0.contains($1) { $0.append($1) } }
        xml += "    <questiontext format=\"html\"><text>\(cdata(stem))</text>" + files.map(file).joined() + "</questiontext>\n"
        let general = texts.map { $0.explanation.blocks.isEmpty ? "" : rich.blocks($0.explanation) } ?? question.explanation.map { "<p>" + html($0) + "</p>" } ?? ""
        xml += "    <generalfeedback format=\"html\"><text>\(cdata(general))</text></generalfeedback>\n"
        xml += "    <defaultgrade>\(moodleType == "multianswer" ? gaps.reduce(0) { $0 + $1.marks } : 1)</defaultgrade>\n    <penalty>0</penalty>\n    <hidden>0</hidden>\n"
        if moodleType == "multianswer" {
            // The gaps are in the text.
        } else if moodleType == "matching" {
            // An item per subquestion with its answer; a target no item has, as an answer without an item.
            let targets = view.details.targets ?? []
            xml += "    <shuffleanswers>true</shuffleanswers>\n"
            // Answers are read in the order first given: when the items would give them in another
            // order, every answer is listed first without an item (Moodle merges equal answers).
            var firstGiven: [Int] = []
            for index in correct where targets.indices.contains(index) && !firstGiven.contains(index) { firstGiven.append(index) }
            if firstGiven != Array(targets.indices.prefix(firstGiven.count)) {
                for target in targets { xml += "    <subquestion format=\"html\"><text></text><answer><text>\(escape(target.text))</text></answer></subquestion>\n" }
            }
            for index in options.indices where correct.indices.contains(index) && targets.indices.contains(correct[index]) {
                xml += "    <subquestion format=\"html\"><text>\(cdata(optionHTML(index)))</text><answer><text>\(escape(targets[correct[index]].text))</text></answer></subquestion>\n"
            }
            for (index, target) in targets.enumerated() where !correct.contains(index) && firstGiven == Array(targets.indices.prefix(firstGiven.count)) {
                xml += "    <subquestion format=\"html\"><text></text><answer><text>\(escape(target.text))</text></answer></subquestion>\n"
            }
        } else if moodleType == "numerical" {
            let tolerance = view.details.tolerance ?? 0
            for answer in view.details.accepted ?? [] {
                xml += "    <answer fraction=\"100\"><text>\(escape(answer))</text><tolerance>\(format(tolerance))</tolerance></answer>\n"
            }
            for answer in view.details.partial ?? [] {
                xml += "    <answer fraction=\"\(format(answer.share * 100))\"><text>\(escape(answer.answer))</text><tolerance>\(format(answer.tolerance ?? tolerance))</tolerance></answer>\n"
            }
        } else if moodleType == "shortanswer" {
            xml += "    <usecase>\(view.details.match == .caseInsensitive ? 0 : 1)</usecase>\n"
            for answer in view.details.accepted ?? [] { xml += "    <answer fraction=\"100\" format=\"moodle_auto_format\"><text>\(escape(answer))</text></answer>\n" }
            for answer in view.details.partial ?? [] {
                xml += "    <answer fraction=\"\(format(answer.share * 100))\" format=\"moodle_auto_format\"><text>\(escape(answer.answer))</text></answer>\n"
            }
        } else if isOrdering {
            // The plugin takes the steps in their right order.
            for (place, index) in correct.enumerated() where options.indices.contains(index) {
                xml += "    <answer fraction=\"\(place + 1)\" format=\"html\">\(answer(optionHTML(index), picture: pictures.picture(options[index].imageUrl)))"
                if let explanation = explanationHTML(index) { xml += "<feedback format=\"html\"><text>\(cdata(explanation))</text></feedback>" }
                xml += "</answer>\n"
            }
        } else {
            // Several right options of a single choice are each worth full marks; a multiple
            // choice's share them.
            let share = isMultiple ? 100.0 / Double(max(1, correct.count)) : 100
            xml += "    <single>\(isMultiple ? "false" : "true")</single>\n    <shuffleanswers>true</shuffleanswers>\n    <answernumbering>abc</answernumbering>\n"
            for (index, option) in options.enumerated() {
                let fraction = correct.contains(index) ? share : (isMultiple ? -share : 0)
                xml += "    <answer fraction=\"\(format(fraction))\" format=\"html\">\(answer(optionHTML(index), picture: pictures.picture(option.imageUrl)))"
                if let explanation = explanationHTML(index) {
                    xml += "<feedback format=\"html\"><text>\(cdata(explanation))</text></feedback>"
                }
                xml += "</answer>\n"
            }
        }
        var tags = ["difficulty-\(question.difficulty)"]
        if let status = question.status, status != "published" { tags.append("status-\(status)") }
        if question.examOnly == true { tags.append("exam-only") }
        xml += "    <tags>" + tags.map { "<tag><text>\($0)</text></tag>" }.joined() + "</tags>\n"
        return xml + "  </question>\n"
    }

    /// An answer's text (HTML), and its picture as an image with the file embedded.
    static func answer(_ html: String, picture: ExportPictures.Picture?) -> String {
        guard let picture else { return "<text>\(cdata(html))</text>" }
        return "<text>\(cdata(html + "<br><img src=\"@@PLUGINFILE@@/\(picture.name)\" alt=\"\">"))</text>" + file(picture)
    }

    /// A picture embedded in the question, as Moodle embeds its files.
    static func file(_ picture: ExportPictures.Picture) -> String {
        "<file name=\"\(picture.name)\" path=\"/\" encoding=\"base64\">\(picture.data.base64EncodedString())</file>"
    }

    static func html(_ text: String) -> String { MarkupText.html(text) }
    static func escape(_ text: String) -> String { MarkupText.escape(text) }

    /// A CDATA section that survives a `]]>` inside.
    static func cdata(_ text: String) -> String { "<![CDATA[" + text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>" }

    static func format(_ fraction: Double) -> String { MarkupText.number(fraction) }
}
