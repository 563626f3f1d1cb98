import ExamData
import Foundation
import HTTPServer
import Identifiers
import Interop
import QuestionEngine

/// The admin's question form, without JavaScript: the filled option rows and one blank one
/// (up to ten; "add another option" sends the form back with one more blank row and saves
/// nothing), each with its text, code, image, explanation, a place number (to reorder) and its
/// part of the key (a tick for choice and hotspot questions, a position for ordering, a target's
/// number for matching), and a hotspot's region. The kinds' own fields are the question's: a
/// matching question's targets and a fill-in question's accepted answers one per line, how
/// answers compare and the tolerance, a hotspot's image; a cloze question's gaps are written in
/// its text in Moodle's embedded-answers syntax (`EmbeddedAnswers`). A row left empty is no option; an
/// option is removed by emptying its row. A problem with one option is shown on its own row,
/// with its extra fields opened when the problem is in them.
struct QuestionForm {
    static let rows = 10
    static let statuses = ["draft", "published", "retired"]

    struct Row: Encodable {
        var index: Int
        /// The row's number as shown (1-based).
        var ordinal: Int
        var id: String
        var text: String
        var code: String
        var image: String
        var explanation: String
        var order: Int
        var isKey: Bool
        var keyPosition: String
        /// Matching: the number of this prompt's target (1-based).
        var target = ""
        /// Hotspot: the region's shape (one of the three flags, for the form's select) and its
        /// coordinates ("10, 10, 60, 40").
        var isRect = true
        var isCircle = false
        var isPolygon = false
        var coords = ""

        var shape: String {
            get { isCircle ? "circle" : isPolygon ? "polygon" : "rect" }
            set { (isRect, isCircle, isPolygon) = (newValue == "rect", newValue == "circle", newValue == "polygon") }
        }
        /// What is wrong with this option, shown on its row.
        var error: String?
        /// The image address is what is wrong (its field is inside "more", opened for it).
        var imageInvalid = false

        var isEmpty: Bool { (text + code + image + explanation + coords).isEmpty }

        static func blank(_ index: Int) -> Row {
            Row(index: index, ordinal: index + 1, id: "", text: "", code: "", image: "", explanation: "", order: index + 1, isKey: false, keyPosition: "")
        }
    }

    var question: EditableQuestion
    var rows: [Row]
    var errors: [String: String] = [:]
    /// The kinds' own fields as typed: targets and accepted answers one per line.
    var targets = ""
    var accepted = ""
    /// Partly right answers one per line: `answer | percent`, and `| tolerance` for a number.
    var partial = ""
    var match = FillInMatch.exact
    var tolerance = ""
    var hotspotImage = ""

    /// A partly right answer as the editor writes it: `york | 50`, `1822 | 50 | 2`.
    static func line(_ answer: PartialAnswer) -> String {
        ([answer.answer, number((answer.share * 1000).rounded() / 10)] + (answer.tolerance.map { [number($0)] } ?? [])).joined(separator: " | ")
    }

    /// A line of the editor's partly right answers read back; a share or tolerance that is not a
    /// number reads as one the validator refuses (it names the line).
    static func partialAnswer(_ line: String) -> PartialAnswer {
        var parts = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        func value(_ text: String) -> Double { Double(text.replacingOccurrences(of: ",", with: ".").replacingOccurrences(of: "%", with: "")) ?? -1 }
        var tolerance: Double?
        if parts.count >= 3 { tolerance = value(parts.removeLast()) }
        let share = parts.count >= 2 ? value(parts.removeLast()) / 100 : -1
        return PartialAnswer(answer: parts.joined(separator: "|"), share: share, tolerance: tolerance)
    }

    /// A coordinate or tolerance as typed back: whole when it is whole.
    static func number(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value) }

    /// The form for an existing question (or a new one), with blank rows to add options.
    init(_ question: EditableQuestion) {
        self.question = question
        let shape = question.type.answerShape
        var rows = question.options.enumerated().map { index, option in
            var row = Row(
                index: index, ordinal: index + 1, id: option.id, text: option.text, code: option.code ?? "", image: option.imageUrl ?? "",
                explanation: option.explanation ?? "", order: index + 1, isKey: shape.picksOptions && question.correct.contains(index),
                keyPosition: shape == .order ? question.correct.firstIndex(of: index).map { String($0 + 1) } ?? "" : "")
            if shape == .pairs, question.correct.indices.contains(index) { row.target = String(question.correct[index] + 1) }
            if let region = option.region {
                row.shape = region.shape.rawValue
                row.coords = region.coords.map(QuestionForm.number).joined(separator: ", ")
            }
            return row
        }
        targets = (question.details.targets ?? []).map(\.text).joined(separator: "\n")
        accepted = (question.details.accepted ?? []).joined(separator: "\n")
        partial = (question.details.partial ?? []).map(QuestionForm.line).joined(separator: "\n")
        match = question.details.match ?? .exact
        tolerance = question.details.tolerance.map(QuestionForm.number) ?? ""
        hotspotImage = question.details.imageUrl ?? ""
        // A new question starts with the two options every question needs; any other, with
        // its own options and one blank row.
        while rows.count < min(Self.rows, max(2, question.options.count + 1)) { rows.append(.blank(rows.count)) }
        self.rows = rows
    }

    /// The rows to show again after a refusal (or to add one): as sent up to the last filled
    /// one (so each keeps its number, which messages name), then empty ones up to `count` rows
    /// (two at least, ten at most).
    static func shown(_ rows: [Row], count: Int) -> [Row] {
        var kept = Array(rows.prefix((rows.lastIndex { !$0.isEmpty } ?? -1) + 1))
        while kept.count < min(Self.rows, max(2, count)) { kept.append(.blank(kept.count)) }
        return kept
    }

    /// Whether the form was sent by "add another option" (nothing is saved then).
    var addsRow = false

    /// Reads a submitted form; `errors` says what is wrong, field by field, in the catalogue's words.
    init(form: FormFields, id: UUID?, message: (String, [String: String]) -> String) {
        // The version the form was shown at (0: a new question), compared when it is saved.
        let version = Int(form["version"] ?? "") ?? 0
        var errors: [String: String] = [:]
        let type = QuestionKind(rawValue: form["type"] ?? "") ?? .singleChoice
        if QuestionKind(rawValue: form["type"] ?? "") == nil { errors["type"] = message("admin.edit.bad_type", [:]) }
        var stem = (form["stem"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if !(1...20_000).contains(stem.count) { errors["stem"] = message("admin.edit.bad_stem", [:]) }
        // A cloze question's gaps are read out of its text, which keeps their marks.
        var gaps: [ClozeGap] = []
        if type == .cloze {
            do throws(EmbeddedAnswers.Problem) {
                let reading = try EmbeddedAnswers.read(stem)
                (stem, gaps) = (reading.text, reading.gaps)
                if gaps.isEmpty { errors["stem"] = message("admin.edit.cloze_no_gaps", [:]) }
            } catch {
                errors["stem"] = error.reason
            }
        }
        let code = (form["code"] ?? "").trimmingCharacters(in: .newlines)
        let language = (form["code_language"] ?? "").trimmingCharacters(in: .whitespaces)
        if !language.isEmpty && !ContentImport.isCodeLanguage(language) { errors["code_language"] = message("admin.edit.bad_language", [:]) }
        let difficulty = Int(form["difficulty"] ?? "") ?? 0
        if !(1...5).contains(difficulty) { errors["difficulty"] = message("error.bad_difficulty", ["value": String((form["difficulty"] ?? "").prefix(10))]) }
        let status = form["status"] ?? ""
        if !Self.statuses.contains(status) { errors["status"] = message("admin.edit.bad_status", [:]) }
        let domainID = Int(form["domain"] ?? "") ?? 0

        var rows: [Row] = []
        for index in 0..<Self.rows {
            func field(_ name: String) -> String { (form["opt_\(name)_\(index)"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
            var row = Row(
                index: index, ordinal: index + 1, id: field("id"), text: field("text"), code: field("code"), image: field("image"), explanation: field("explanation"),
                order: Int(field("order")) ?? index + 1, isKey: form["opt_key_\(index)"] == "on", keyPosition: field("keypos"))
            if type == .hotspot {
                row.shape = HotspotRegion.Shape(rawValue: field("shape")).map(\.rawValue) ?? "rect"
                row.coords = field("coords")
            }
            row.target = field("target")
            rows.append(row)
        }
        // The kinds' own fields, one item per line.
        func lines(_ name: String) -> [String] {
            (form[name] ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        targets = lines("targets").joined(separator: "\n")
        accepted = lines("accepted").joined(separator: "\n")
        partial = lines("partial").joined(separator: "\n")
        match = FillInMatch(rawValue: form["match"] ?? "") ?? .exact
        tolerance = (form["tolerance"] ?? "").trimmingCharacters(in: .whitespaces)
        hotspotImage = (form["hotspot_image"] ?? "").trimmingCharacters(in: .whitespaces)
        // A problem with one option belongs to its row.
        for index in rows.indices where !rows[index].isEmpty {
            if rows[index].text.isEmpty {
                rows[index].error = message("admin.edit.option_no_text", ["number": String(rows[index].ordinal)])
            } else if !rows[index].image.isEmpty && !QuestionValidator.isSafeImageAddress(rows[index].image) {
                rows[index].error = message("admin.edit.option_bad_image", ["number": String(rows[index].ordinal)])
                rows[index].imageInvalid = true
            }
        }
        if let first = rows.first(where: { $0.error != nil }) {
            errors["options"] = message("admin.edit.option_rows", ["number": String(first.ordinal)])
        }
        // Rows with anything in them are options, in the order their place numbers give.
        let used = rows.filter { !$0.isEmpty }.sorted { ($0.order, $0.index) < ($1.order, $1.index) }
        var ids = Set<String>()
        let options = used.enumerated().map { position, row -> QuestionOption in
            var id = row.id.isEmpty ? "o\(position + 1)" : row.id
            while !ids.insert(id).inserted { id += "x" }
            // A region's coordinates as typed; a number that is not one makes the region refused.
            let numbers = row.coords.split(whereSeparator: { $0 == "," || $0 == " " }).map { Double($0) ?? -1 }
            return QuestionOption(
                id: id, text: row.text, imageUrl: row.image.isEmpty ? nil : row.image, code: row.code.isEmpty ? nil : row.code,
                explanation: row.explanation.isEmpty ? nil : row.explanation,
                region: type == .hotspot ? HotspotRegion(shape: HotspotRegion.Shape(rawValue: row.shape) ?? .rect, coords: numbers) : nil)
        }
        var correct: [Int] = []
        switch type.answerShape {
        case .order:
            let placed = used.enumerated().compactMap { position, row in Int(row.keyPosition).map { ($0, position) } }
            correct = placed.sorted { $0.0 < $1.0 }.map(\.1)
            if placed.count != used.count { errors["options"] = message("admin.edit.order_key", [:]) }
        case .pairs:
            correct = used.map { (Int($0.target) ?? 0) - 1 }
        case .oneOption, .someOptions, .region:
            correct = used.enumerated().filter { $0.element.isKey }.map(\.offset)
            // Said in an editor's words before the validator's (which has the last word): what to tick.
            if errors["options"] == nil {
                if used.count < 2 {
                    errors["options"] = message("admin.edit.two_options", [:])
                } else if type.answerShape == .oneOption && correct.isEmpty {
                    errors["options"] = message("admin.edit.tick_one", [:])
                } else if type == .codeSnippet && correct.count > 1 {
                    errors["options"] = message("admin.edit.tick_only_one", [:])
                } else if correct.isEmpty {
                    errors["options"] = message(type.answerShape == .region ? "admin.edit.tick_region" : "admin.edit.tick_some", [:])
                }
            }
        case .text, .gaps:
            correct = []
        }
        let details = QuestionDetails(
            targets: type == .matching ? lines("targets").enumerated().map { MatchTarget(id: "t\($0.offset + 1)", text: $0.element) } : nil,
            accepted: type == .fillIn ? lines("accepted") : nil, match: type == .fillIn ? match : nil,
            tolerance: type == .fillIn && match == .numeric && !tolerance.isEmpty ? Double(tolerance.replacingOccurrences(of: ",", with: ".")) ?? -1 : nil,
            partial: type == .fillIn && !lines("partial").isEmpty ? lines("partial").map(QuestionForm.partialAnswer) : nil,
            imageUrl: type == .hotspot ? hotspotImage : nil, gaps: type == .cloze ? gaps : nil)
        if errors["options"] == nil, type != .cloze || errors["stem"] == nil, let problem = QuestionValidator.problem(
            type: type.rawValue, options: (try? JSONValue(encoding: options)) ?? .array([]), correct: .array(correct.map { .number(Double($0)) }),
            details: (try? JSONValue(encoding: details)) ?? .object([:])) ?? (type == .cloze ? ClozeText.problem(stem, gaps: gaps.count) : nil) {
            // A cloze question's problems are in its text, where its gaps are written.
            errors[type == .cloze ? "stem" : "options"] = problem
        }
        let explanation = (form["explanation"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let markdown = form["markup"] == "markdown"
        if markdown, errors["stem"] == nil, errors["options"] == nil {
            // The same reading the save makes; its problem goes beside the field it is in.
            do throws(QuestionTexts.Problem) {
                _ = try QuestionTexts.read(stem: stem, explanation: explanation, options: options)
            } catch {
                let field = error.field.hasPrefix("options") ? "options" : error.field
                errors[field] = message("admin.edit.bad_markdown", ["field": error.field, "problem": error.message])
            }
        }
        question = EditableQuestion(
            id: id, domainID: domainID, type: type, stem: stem, code: code.isEmpty ? nil : code, codeLanguage: language.isEmpty ? nil : language,
            options: options, correct: correct, details: details, explanation: explanation,
            difficulty: difficulty, status: status, version: version, examOnly: form["exam_only"] == "on", markdown: markdown)
        // Shown again with the rows as typed (and their problems) and a blank one; "add
        // another option" adds one more blank row to those the form had.
        let lastFilled = (rows.lastIndex { !$0.isEmpty } ?? -1) + 1
        let sent = (0..<Self.rows).count { form["opt_id_\($0)"] != nil }
        addsRow = form["add_row"] != nil
        self.rows = Self.shown(rows, count: addsRow ? max(sent, lastFilled + 1) + 1 : lastFilled + 1)
        self.errors = errors
    }
}

/// The editor page.
struct QuestionEditPage: Encodable {
    struct Choice: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    var action: String
    var isNew: Bool
    var version: Int
    var stem: String
    var code: String
    var codeLanguage: String
    var explanation: String
    var types: [Choice]
    var statuses: [Choice]
    var examOnly: Bool
    /// The texts are markdown.
    var markdown: Bool
    var difficulties: [Choice]
    var domains: [Choice]
    var rows: [QuestionForm.Row]
    var isOrdering: Bool
    /// Which fields the chosen kind uses (the others are hidden).
    var fields: EditorFields.View
    /// The kinds' own fields: targets and accepted answers one per line, how answers compare,
    /// the tolerance, the hotspot's image.
    var targets: String
    var accepted: String
    var partial: String
    var matches: [Choice]
    var tolerance: String
    var hotspotImage: String
    /// Fewer than ten rows: "add another option" is offered.
    var canAddRow: Bool
    var errors: [String: String]
    var hasErrors: Bool
    /// "Preview": the question as a student sees it, with its key and explanation.
    var preview: QuestionPreview?
    /// A picture being added: its alt text kept when the picture was refused, and the notice
    /// once it stands in the stem.
    var pictureAlt = ""
    var pictureAdded: String?
    /// The form's one-time token: a save sent again (a reload, a double tap) saves nothing more.
    var formToken = SentOnce.newToken()
    /// Another admin saved the question after this form was shown: "saved since you opened it",
    /// and the lines their save changed.
    var savedSince: String?
    var changedSince: [LineDiff.Line] = []
    var hasChangedSince = false

    init(_ form: QuestionForm, domains: [(id: Int, label: String)], pages: PageRenderer, locale: String) {
        let question = form.question
        action = question.id.map { "/admin/questions/\($0.lowercasedText)/edit" } ?? "/admin/questions/new"
        isNew = question.id == nil
        version = question.version
        // A cloze question's gaps are edited where they stand, in the embedded-answers syntax.
        stem = question.type == .cloze ? EmbeddedAnswers.write(question.stem, gaps: question.details.gaps ?? []) : question.stem
        code = question.code ?? ""
        codeLanguage = question.codeLanguage ?? ""
        explanation = question.explanation
        types = QuestionKind.allCases.map {
            Choice(value: $0.rawValue, label: pages.message("admin.kind." + $0.rawValue, locale: locale), selected: $0 == question.type)
        }
        statuses = QuestionForm.statuses.map { Choice(value: $0, label: pages.message("admin.state." + $0, locale: locale), selected: $0 == question.status) }
        examOnly = question.examOnly
        markdown = question.markdown
        difficulties = (1...5).map { Choice(value: String($0), label: "\($0) · " + pages.message("difficulty.\($0)", locale: locale), selected: $0 == question.difficulty) }
        self.domains = domains.map { Choice(value: String($0.id), label: $0.label, selected: $0.id == question.domainID) }
        rows = form.rows
        canAddRow = form.rows.count < QuestionForm.rows
        isOrdering = question.type == .ordering
        fields = EditorFields.view(for: question.type)
        targets = form.targets
        accepted = form.accepted
        partial = form.partial
        matches = FillInMatch.allCases.map {
            Choice(value: $0.rawValue, label: pages.message("admin.edit.match." + $0.rawValue, locale: locale), selected: $0 == form.match)
        }
        tolerance = form.tolerance
        hotspotImage = form.hotspotImage
        errors = form.errors
        hasErrors = !form.errors.isEmpty
    }
}

/// The editor's preview: the question with its answer form, then its key and explanation, as
/// the pages students use render them.
struct QuestionPreview: Encodable {
    var question: LiveQuestionView
    var key: LiveQuestionView
    var explanation: String
    var explanationHTML: String?

    init(_ question: Question) {
        self.question = LiveQuestionView(question, language: "", revealKey: false)
        key = LiveQuestionView(question, language: "", revealKey: true)
        explanation = question.explanation
        explanationHTML = question.texts.map { RichTextHTML.render($0.explanation) }
    }
}
