import ExamData
import Foundation
import HTTPServer
import QuestionEngine

/// The admin's question form, without JavaScript: up to ten option rows, each with its text,
/// code, image, explanation, a place number (to reorder) and its part of the key (a tick for
/// choice questions, a position for ordering). A row left empty is no option; an option is
/// removed by emptying its row.
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
    }

    var question: EditableQuestion
    var rows: [Row]
    var errors: [String: String] = [:]

    /// The form for an existing question (or a new one), with blank rows to add options.
    init(_ question: EditableQuestion) {
        self.question = question
        var rows = question.options.enumerated().map { index, option in
            Row(
                index: index, ordinal: index + 1, id: option.id, text: option.text, code: option.code ?? "", image: option.imageUrl ?? "",
                explanation: option.explanation ?? "", order: index + 1, isKey: question.type != .ordering && question.correct.contains(index),
                keyPosition: question.type == .ordering ? question.correct.firstIndex(of: index).map { String($0 + 1) } ?? "" : "")
        }
        while rows.count < min(Self.rows, max(4, question.options.count + 2)) {
            rows.append(Row(index: rows.count, ordinal: rows.count + 1, id: "", text: "", code: "", image: "", explanation: "", order: rows.count + 1, isKey: false, keyPosition: ""))
        }
        self.rows = rows
    }

    /// Reads a submitted form; `errors` says what is wrong, field by field, in the catalogue's words.
    init(form: FormFields, id: UUID?, version: Int, message: (String, [String: String]) -> String) {
        var errors: [String: String] = [:]
        let type = QuestionKind(rawValue: form["type"] ?? "") ?? .singleChoice
        if QuestionKind(rawValue: form["type"] ?? "") == nil { errors["type"] = message("admin.edit.bad_type", [:]) }
        let stem = (form["stem"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if !(1...20_000).contains(stem.count) { errors["stem"] = message("admin.edit.bad_stem", [:]) }
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
            rows.append(Row(
                index: index, ordinal: index + 1, id: field("id"), text: field("text"), code: field("code"), image: field("image"), explanation: field("explanation"),
                order: Int(field("order")) ?? index + 1, isKey: form["opt_key_\(index)"] == "on", keyPosition: field("keypos")))
        }
        // Rows with anything in them are options, in the order their place numbers give.
        let used = rows.filter { !($0.text + $0.code + $0.image + $0.explanation).isEmpty }.sorted { ($0.order, $0.index) < ($1.order, $1.index) }
        var ids = Set<String>()
        let options = used.enumerated().map { position, row -> QuestionOption in
            var id = row.id.isEmpty ? "o\(position + 1)" : row.id
            while !ids.insert(id).inserted { id += "x" }
            return QuestionOption(
                id: id, text: row.text, imageUrl: row.image.isEmpty ? nil : row.image, code: row.code.isEmpty ? nil : row.code,
                explanation: row.explanation.isEmpty ? nil : row.explanation)
        }
        var correct: [Int] = []
        if type == .ordering {
            let placed = used.enumerated().compactMap { position, row in Int(row.keyPosition).map { ($0, position) } }
            correct = placed.sorted { $0.0 < $1.0 }.map(\.1)
            if placed.count != used.count { errors["options"] = message("admin.edit.order_key", [:]) }
        } else {
            correct = used.enumerated().filter { $0.element.isKey }.map(\.offset)
        }
        if errors["options"] == nil, let problem = QuestionValidator.problem(
            type: type.rawValue, options: JSONValue.array(options.map(Self.json)), correct: .array(correct.map { .number(Double($0)) })) {
            errors["options"] = problem
        }
        question = EditableQuestion(
            id: id, domainID: domainID, type: type, stem: stem, code: code.isEmpty ? nil : code, codeLanguage: language.isEmpty ? nil : language,
            options: options, correct: correct, explanation: (form["explanation"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines),
            difficulty: difficulty, status: status, version: version, examOnly: form["exam_only"] == "on")
        self.rows = rows
        self.errors = errors
    }

    static func json(_ option: QuestionOption) -> JSONValue {
        var fields: [String: JSONValue] = ["id": .string(option.id), "text": .string(option.text)]
        if let image = option.imageUrl { fields["imageUrl"] = .string(image) }
        if let code = option.code { fields["code"] = .string(code) }
        if let explanation = option.explanation { fields["explanation"] = .string(explanation) }
        return .object(fields)
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
    var difficulties: [Choice]
    var domains: [Choice]
    var rows: [QuestionForm.Row]
    var isOrdering: Bool
    var errors: [String: String]
    var hasErrors: Bool

    init(_ form: QuestionForm, domains: [(id: Int, label: String)], pages: PageRenderer, locale: String) {
        let question = form.question
        action = question.id.map { "/admin/questions/\($0.uuidString.lowercased())/edit" } ?? "/admin/questions/new"
        isNew = question.id == nil
        version = question.version
        stem = question.stem
        code = question.code ?? ""
        codeLanguage = question.codeLanguage ?? ""
        explanation = question.explanation
        types = QuestionKind.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0 == question.type) }
        statuses = QuestionForm.statuses.map { Choice(value: $0, label: $0, selected: $0 == question.status) }
        examOnly = question.examOnly
        difficulties = (1...5).map { Choice(value: String($0), label: "\($0) · " + pages.message("difficulty.\($0)", locale: locale), selected: $0 == question.difficulty) }
        self.domains = domains.map { Choice(value: String($0.id), label: $0.label, selected: $0.id == question.domainID) }
        rows = form.rows
        isOrdering = question.type == .ordering
        errors = form.errors
        hasErrors = !form.errors.isEmpty
    }
}
