import ExamData
import HTTPServer
import QuestionEngine

/// Reads an answer from a question form, in the shape the question's kind takes: `choice` values
/// (option indexes), a `position_<index>` for every step of an ordering, a `target_<index>` for
/// every prompt of a matching question, the typed `answer`, a hotspot's clicked `point_x` and
/// `point_y` (else its region chosen from the list, a `choice`), or a cloze question's `gap_<n>`
/// for each gap (numbered from 1; one not sent is left blank). Study sessions and live events
/// share it.
enum AnswerForm {
    /// A form that does not say an answer to the question is refused with the reason.
    static func response(_ form: FormFields, question: Question) throws(PageRefusal) -> AnswerResponse {
        switch question.kind.answerShape {
        case .oneOption, .someOptions:
            return .indexes(try choices(form))
        case .order:
            var placed: [(position: Int, option: Int)] = []
            for index in question.options.indices {
                guard let position = Int(form["position_\(index)"] ?? ""), (1...question.options.count).contains(position) else {
                    throw PageRefusal(.unprocessableContent, "sessions.order_incomplete", ["count": String(question.options.count)])
                }
                placed.append((position, index))
            }
            guard Set(placed.map(\.position)).count == placed.count else {
                throw PageRefusal(.unprocessableContent, "sessions.order_duplicate")
            }
            return .indexes(placed.sorted { $0.position < $1.position }.map(\.option))
        case .pairs:
            let targets = question.details.targets?.count ?? 0
            var pairs: [Int] = []
            for index in question.options.indices {
                // The select offers "choose" (empty) and the targets numbered from 1.
                guard let target = Int(form["target_\(index)"] ?? ""), (1...max(1, targets)).contains(target) else {
                    throw PageRefusal(.unprocessableContent, "sessions.match_incomplete", ["count": String(question.options.count)])
                }
                pairs.append(target - 1)
            }
            return .pairs(pairs)
        case .text:
            return .text(form["answer"] ?? "")
        case .gaps:
            return .gaps((question.details.gaps ?? []).indices.map { form["gap_\($0 + 1)"] ?? "" })
        case .region:
            if let (x, y) = point(form) { return .point(x: x, y: y) }
            return .indexes(try choices(form))
        }
    }

    /// The answer a question form holds when its fields alone say it — the options chosen,
    /// the text typed, every gap, a complete ordering or matching — without reading the
    /// question: the database then judges it against the question in the statement that stores
    /// it. Nil when the form needs the question to be read (a tapped point, an ordering or
    /// matching left incomplete, fields of two kinds, a choice that is not a number): the
    /// question's own reading then says what is wrong beside the form.
    static func responseByFields(_ form: FormFields) -> AnswerResponse? {
        var choices: [Int] = [], positions: [Int: Int] = [:], targets: [Int: Int] = [:], gaps: [Int: String] = [:]
        var text: String?
        var kinds = Set<String>()
        for (name, value) in form {
            if name == "choice" {
                guard let index = Int(value) else { return nil }
                choices.append(index)
                kinds.insert(name)
            } else if name == "answer" {
                text = value
                kinds.insert(name)
            } else if name == "point_x" || name == "point_y" {
                return nil
            } else if let number = numbered(name, "position_") {
                guard let position = Int(value), position >= 1, positions[number] == nil else { return nil }
                positions[number] = position
                kinds.insert("position")
            } else if let number = numbered(name, "target_") {
                guard let target = Int(value), target >= 1, targets[number] == nil else { return nil }
                targets[number] = target - 1
                kinds.insert("target")
            } else if let number = numbered(name, "gap_"), number >= 1 {
                gaps[number] = value
                kinds.insert("gap")
            }
        }
        guard kinds.count <= 1 else { return nil }
        if let text { return .text(text) }
        if !positions.isEmpty {
            // Every step placed, each in its own position from 1 to the count.
            guard positions.keys.sorted() == Array(0..<positions.count), Set(positions.values) == Set(1...positions.count) else { return nil }
            return .indexes(positions.sorted { $0.value < $1.value }.map(\.key))
        }
        if !targets.isEmpty {
            guard targets.keys.sorted() == Array(0..<targets.count) else { return nil }
            return .pairs(targets.sorted { $0.key < $1.key }.map(\.value))
        }
        if let last = gaps.keys.max() { return .gaps((1...last).map { gaps[$0] ?? "" }) }
        return .indexes(choices)
    }

    /// `7` for `position_7` and the prefix `position_`; nil for any other name.
    private static func numbered(_ name: String, _ prefix: String) -> Int? {
        guard name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)), number >= 0, number < 1_000 else { return nil }
        return number
    }

    /// An ordering's positions as sent, one per item (1 to `count`; 0 for one missing or out of range).
    static func positions(_ form: FormFields, count: Int) -> [Int] {
        (0..<count).map { index in Int(form["position_\(index)"] ?? "").flatMap { (1...count).contains($0) ? $0 : nil } ?? 0 }
    }

    /// A matching's targets as sent, one per item (1 to `targets`; 0 for one not matched).
    static func targets(_ form: FormFields, items: Int, targets: Int) -> [Int] {
        (0..<items).map { index in Int(form["target_\(index)"] ?? "").flatMap { (1...max(1, targets)).contains($0) ? $0 : nil } ?? 0 }
    }

    /// A hotspot's tapped point, when the form carries one (the page script sets it).
    static func point(_ form: FormFields) -> (x: Double, y: Double)? {
        guard let x = form["point_x"].flatMap(Double.init), let y = form["point_y"].flatMap(Double.init), x.isFinite, y.isFinite else { return nil }
        return (x, y)
    }

    private static func choices(_ form: FormFields) throws(PageRefusal) -> [Int] {
        var choices: [Int] = []
        for value in form.values("choice") {
            guard let index = Int(value) else { throw PageRefusal(.badRequest, "sessions.bad_choice", ["value": String(value.prefix(20))]) }
            choices.append(index)
        }
        return choices
    }
}
