import ExamData
import QuestionEngine

/// A cloze question's text on a page: its gaps as the form's own fields where the text marks
/// them (a list of choices, or a box to type in), or, where nothing is answered, as numbered
/// blanks. Every page that shows a question's stem takes it from `stemHTML`, so a mark `{#n}`
/// is never shown as written.
enum ClozeView {
    /// The stem as HTML for the page (nil: plain text the template escapes itself): a markdown
    /// question's tree, and a cloze question's text with its gaps as numbered blanks.
    static func stemHTML(_ question: Question) -> String? {
        guard question.kind == .cloze else { return question.texts.map { RichTextHTML.render($0.stem) } }
        return ClozeText.filling(baseHTML(question)) { number in
            "<span class=\"gap-mark\"><span class=\"gap-number\">\(number)</span></span>"
        }
    }

    /// The text with a field for each gap, `given` the answers shown in them (a draft, the
    /// answer refused or saved). A field is named `gap_<n>` and labelled by the fieldset's
    /// legend and its number.
    static func formHTML(_ question: Question, given: [String]) -> String {
        let gaps = question.details.gaps ?? []
        return ClozeText.filling(baseHTML(question)) { number in
            guard gaps.indices.contains(number - 1) else { return ClozeText.mark(number) }
            let gap = gaps[number - 1], value = given.indices.contains(number - 1) ? given[number - 1] : ""
            let labels = "aria-labelledby=\"gaps-legend gap-\(number)-number\""
            var html = "<span class=\"gap\"><span class=\"gap-number\" id=\"gap-\(number)-number\">\(number)</span>"
            if let choices = gap.choices {
                html += "<select id=\"gap-\(number)\" name=\"gap_\(number)\" \(labels)><option value=\"\">…</option>"
                for choice in choices {
                    let selected = FillInRule.normalized(choice) == FillInRule.normalized(value) ? " selected" : ""
                    html += "<option value=\"\(RichTextHTML.escaped(choice))\"\(selected)>\(RichTextHTML.escaped(choice))</option>"
                }
                html += "</select>"
            } else {
                // As wide as the longest answer it takes, within reason.
                let width = min(30, max(4, (gap.accepted + (gap.partial ?? []).map(\.answer)).map(\.count).max() ?? 8))
                html += "<input type=\"text\" id=\"gap-\(number)\" name=\"gap_\(number)\" \(labels) value=\"\(RichTextHTML.escaped(value))\" size=\"\(width)\""
                html += " maxlength=\"500\" autocomplete=\"off\" autocapitalize=\"off\" spellcheck=\"false\"\(gap.match == .numeric ? " inputmode=\"decimal\"" : "")>"
            }
            return html + "</span>"
        }
    }

    /// The stem's HTML with its marks as written: the tree's, else the plain text's paragraphs.
    private static func baseHTML(_ question: Question) -> String {
        RichTextHTML.render(question.texts?.stem ?? RichText.words(question.stem))
    }
}
