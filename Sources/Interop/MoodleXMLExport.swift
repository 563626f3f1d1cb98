import Foundation
import QuestionEngine

/// An exam as Moodle XML: a category per domain (`$course$/exam/domain`), each question with
/// the portal's key as its `idnumber` (so importing it back, here or after Moodle, updates the
/// same question), choice questions as `multichoice` (several right: equal shares, each wrong
/// pick taking one share back — the portal's partial credit), orderings for the ordering
/// plugin, a code block as `<pre><code class="language-…">`, an option's picture as an image
/// in the answer with the file embedded (`@@PLUGINFILE@@`, base64), and the difficulty, status
/// and exam-only flag as tags Moodle keeps.
public enum MoodleXMLExport {
    public static func document(_ content: ContentDocument) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n"
        let pictures = ExportPictures(content)
        for region in content.regions {
            for exam in region.exams {
                for domain in exam.domains {
                    xml += "  <question type=\"category\">\n    <category><text>\(escape("$course$/\(exam.title)/\(domain.title)"))</text></category>\n  </question>\n"
                    for question in domain.questions { xml += self.question(question, pictures: pictures) }
                }
            }
        }
        return xml + "</quiz>\n"
    }

    /// The kinds Moodle has no question type for: left out, with a comment saying so.
    public static func leftOut(_ question: ContentDocument.Question) -> Bool { question.type == QuestionKind.hotspot.rawValue }

    static func question(_ question: ContentDocument.Question, pictures: ExportPictures) -> String {
        if leftOut(question) { return "  <!-- \(escape(question.key.replacingOccurrences(of: "--", with: "- -"))): a hotspot question, which Moodle XML has no type for -->\n" }
        let view = ChoiceView(question)
        let options = view.options, correct = view.correct
        let isOrdering = question.type == QuestionKind.ordering.rawValue
        let isMultiple = question.type == QuestionKind.multiChoice.rawValue
        var stem = "<p>" + html(question.stem) + "</p>"
        if let code = question.code {
            let language = question.codeLanguage.map { " class=\"language-\(escape($0))\"" } ?? ""
            stem += "<pre><code\(language)>" + escape(code) + "</code></pre>"
        }
        let moodleType = switch question.type {
        case QuestionKind.ordering.rawValue: "ordering"
        case QuestionKind.matching.rawValue: "matching"
        case QuestionKind.fillIn.rawValue: view.details.match == .numeric ? "numerical" : "shortanswer"
        default: "multichoice"
        }
        var xml = "  <question type=\"\(moodleType)\">\n"
        xml += "    <name><text>\(escape(String(question.stem.prefix(60))))</text></name>\n"
        xml += "    <idnumber>\(escape(question.key))</idnumber>\n"
        xml += "    <questiontext format=\"html\"><text>\(cdata(stem))</text></questiontext>\n"
        xml += "    <generalfeedback format=\"html\"><text>\(cdata(question.explanation.map { "<p>" + html($0) + "</p>" } ?? ""))</text></generalfeedback>\n"
        xml += "    <defaultgrade>1</defaultgrade>\n    <penalty>0</penalty>\n    <hidden>0</hidden>\n"
        if moodleType == "matching" {
            // An item per subquestion with its answer; a target no item has, as an answer without an item.
            let targets = view.details.targets ?? []
            xml += "    <shuffleanswers>true</shuffleanswers>\n"
            for (index, option) in options.enumerated() where correct.indices.contains(index) && targets.indices.contains(correct[index]) {
                xml += "    <subquestion format=\"html\"><text>\(cdata(html(option.text)))</text><answer><text>\(escape(targets[correct[index]].text))</text></answer></subquestion>\n"
            }
            for (index, target) in targets.enumerated() where !correct.contains(index) {
                xml += "    <subquestion format=\"html\"><text></text><answer><text>\(escape(target.text))</text></answer></subquestion>\n"
            }
        } else if moodleType == "numerical" {
            for answer in view.details.accepted ?? [] {
                xml += "    <answer fraction=\"100\"><text>\(escape(answer))</text><tolerance>\(format(view.details.tolerance ?? 0))</tolerance></answer>\n"
            }
        } else if moodleType == "shortanswer" {
            xml += "    <usecase>\(view.details.match == .caseInsensitive ? 0 : 1)</usecase>\n"
            for answer in view.details.accepted ?? [] { xml += "    <answer fraction=\"100\" format=\"moodle_auto_format\"><text>\(escape(answer))</text></answer>\n" }
        } else if isOrdering {
            // The plugin takes the steps in their right order.
            for (place, index) in correct.enumerated() where options.indices.contains(index) {
                xml += "    <answer fraction=\"\(place + 1)\" format=\"html\">\(answer(options[index].text, picture: pictures.picture(options[index].imageUrl)))</answer>\n"
            }
        } else {
            let share = 100.0 / Double(max(1, correct.count))
            xml += "    <single>\(isMultiple ? "false" : "true")</single>\n    <shuffleanswers>true</shuffleanswers>\n    <answernumbering>abc</answernumbering>\n"
            for (index, option) in options.enumerated() {
                let fraction = correct.contains(index) ? share : (isMultiple ? -share : 0)
                xml += "    <answer fraction=\"\(format(fraction))\" format=\"html\">\(answer(option.text, picture: pictures.picture(option.imageUrl)))"
                if let explanation = option.explanation {
                    xml += "<feedback format=\"html\"><text>\(cdata(html(explanation)))</text></feedback>"
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

    /// An answer's text, and its picture as an image with the file embedded.
    static func answer(_ text: String, picture: ExportPictures.Picture?) -> String {
        guard let picture else { return "<text>\(cdata(html(text)))</text>" }
        return "<text>\(cdata(html(text) + "<br><img src=\"@@PLUGINFILE@@/\(picture.name)\" alt=\"\">"))</text>"
            + "<file name=\"\(picture.name)\" path=\"/\" encoding=\"base64\">\(picture.data.base64EncodedString())</file>"
    }

    static func html(_ text: String) -> String { MarkupText.html(text) }
    static func escape(_ text: String) -> String { MarkupText.escape(text) }

    /// A CDATA section that survives a `]]>` inside.
    static func cdata(_ text: String) -> String { "<![CDATA[" + text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>" }

    static func format(_ fraction: Double) -> String { MarkupText.number(fraction) }
}
