import Foundation
import HTTPServer
import Identifiers

/// A form a page posts, decoded once from the request's body into typed fields: each field's
/// name is written in one place (its form type, beside the handler that takes it), and what the
/// form cannot take at all is refused there (`PageRefusal`), so no handler reads a field by its
/// name. A form a page shows again with a sentence beside a field says so with `FormProblem`s.
protocol PostedForm {
    init(_ fields: FormReader) throws(PageRefusal)
}

/// A field a form refused and the catalogue's key (and arguments) for the sentence shown beside
/// it when the page shows the form again, with what was typed.
struct FormProblem: Sendable, Equatable {
    let field: String
    let key: String
    let arguments: [String: String]

    init(_ field: String, _ key: String, _ arguments: [String: String] = [:]) {
        (self.field, self.key, self.arguments) = (field, key, arguments)
    }
}

extension PageRenderer {
    /// Each problem's sentence in `locale`, by its field (the first for a field): what a form
    /// shown again says beside its fields.
    func fieldErrors(_ problems: [FormProblem], locale: String) -> [String: String] {
        var errors: [String: String] = [:]
        for problem in problems where errors[problem.field] == nil {
            errors[problem.field] = message(problem.key, locale: locale, problem.arguments)
        }
        return errors
    }
}

/// A posted form's fields, read as the types forms take.
struct FormReader {
    let fields: FormFields

    /// The field as sent ("" when absent).
    func text(_ name: String) -> String { fields[name] ?? "" }

    /// The field without the spaces and line ends around it ("" when absent).
    func trimmed(_ name: String) -> String { text(name).trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The field as sent, nil when absent (a field a form may leave out, keeping what is saved).
    func optional(_ name: String) -> String? { fields[name] }

    /// Whether the form sent the field at all (a button's name, a hidden marker).
    func has(_ name: String) -> Bool { fields[name] != nil }

    /// Whether a checkbox is ticked (browsers send `on`).
    func isOn(_ name: String) -> Bool { fields[name] == "on" }

    /// Every value of a field sent several times (checkboxes, multi-selects), in order.
    func values(_ name: String) -> [String] { fields.values(name) }

    /// The field as a UUID; nil when absent or not one.
    func uuid(_ name: String) -> UUID? { fields[name].flatMap { UUID(uuidString: $0) } }

    /// The field as a whole number; nil when absent or not one.
    func int(_ name: String) -> Int? { fields[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    /// The field as a whole number, `absent` when it was left out; nil when sent but not one.
    func int(_ name: String, absent: Int) -> Int? { has(name) ? int(name) : absent }

    /// A range of difficulty levels from two fields (every level, 1 to 5, for a field left
    /// out); nil when either is not a level or they are the wrong way round.
    func levels(_ from: String, _ to: String) -> ClosedRange<Int>? {
        guard let low = int(from, absent: 1), let high = int(to, absent: 5), (1...5).contains(low), (1...5).contains(high), low <= high else { return nil }
        return low...high
    }

    /// What was sent in `name`, shortened for quoting in a message.
    func quoted(_ name: String, length: Int = 20) -> String { String(text(name).prefix(length)) }
}

extension PortalRequest {
    /// The body's form, decoded into `Form`.
    func form<Form: PostedForm>(_ type: Form.Type) throws(PageRefusal) -> Form {
        try Form(FormReader(fields: FormFields(body: body)))
    }

    /// The body's fields as sent, for what takes a form whole (the one-send check, an answer's
    /// kind-shaped fields).
    var formFields: FormFields { FormFields(body: body) }
}
