import ExamData
import Foundation
import HTTPServer
import QuestionEngine

/// The forms of the admin's exam pages, each read once with its refusals beside their fields.
enum ExamAdminForms {
    /// A key as regions, exams and domains have: lower-case letters, digits and hyphens.
    static func isKey(_ text: String, maximum: Int) -> Bool {
        (1...maximum).contains(text.count) && text.first.map { $0.isASCII && ($0.isLowercase || $0.isNumber) } == true
            && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }

    /// A new region.
    struct Region: PostedForm {
        let code: String
        let name: String
        var problems: [FormProblem] = []

        init(_ form: FormReader) throws(PageRefusal) {
            code = form.trimmed("code")
            name = form.trimmed("name")
            if !ExamAdminForms.isKey(code, maximum: 40) { problems.append(FormProblem("region_code", "admin.exams.bad_key", ["max": "40"])) }
            if !(1...200).contains(name.count) { problems.append(FormProblem("region_name", "admin.exams.bad_name", ["max": "200"])) }
        }
    }

    /// An exam's settings, as made and as edited.
    struct Settings: PostedForm {
        let settings: ExamSettings
        /// The scaled score's three fields as typed (shown again when refused).
        let scale: ScaleFields
        var problems: [FormProblem] = []

        init(_ form: FormReader) throws(PageRefusal) {
            let title = form.trimmed("title"), description = form.trimmed("description"), language = form.trimmed("language")
            let passMark = form.int("pass_mark"), minutes = form.int("time_limit"), count = form.int("question_count")
            if !(1...300).contains(title.count) { problems.append(FormProblem("title", "admin.exams.bad_name", ["max": "300"])) }
            if description.count > 2000 { problems.append(FormProblem("description", "admin.exams.too_long", ["max": "2000"])) }
            if language.range(of: "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$", options: .regularExpression) == nil {
                problems.append(FormProblem("language", "admin.exams.bad_language"))
            }
            if !(1...100).contains(passMark ?? 0) { problems.append(FormProblem("pass_mark", "admin.exams.bad_number", ["min": "1", "max": "100"])) }
            if !(1...1440).contains(minutes ?? 0) { problems.append(FormProblem("time_limit", "admin.exams.bad_number", ["min": "1", "max": "1440"])) }
            if !(1...500).contains(count ?? 0) { problems.append(FormProblem("question_count", "admin.exams.bad_number", ["min": "1", "max": "500"])) }
            // A scaled score: all three scores, or none.
            scale = ScaleFields(min: form.trimmed("scaled_min"), pass: form.trimmed("scaled_pass"), max: form.trimmed("scaled_max"))
            var scaledScore: ScaledScore?
            if !(scale.min.isEmpty && scale.pass.isEmpty && scale.max.isEmpty) {
                if let min = Int(scale.min), let pass = Int(scale.pass), let max = Int(scale.max), ScaledScore(min: min, pass: pass, max: max).problem == nil {
                    scaledScore = ScaledScore(min: min, pass: pass, max: max)
                } else {
                    problems.append(FormProblem("scaled_score", "admin.exams.bad_scale", ["max": String(ScaledScore.largest)]))
                }
            }
            settings = ExamSettings(
                title: title, description: description, language: language, passMark: passMark ?? 0, timeLimitSeconds: (minutes ?? 0) * 60,
                questionCount: count ?? 0, scaledScore: scaledScore)
        }
    }

    /// A new exam: its region and slug, and its settings.
    struct NewExam: PostedForm {
        let region: String
        let slug: String
        let settings: Settings

        init(_ form: FormReader) throws(PageRefusal) {
            region = form.text("region")
            slug = form.trimmed("slug")
            var settings = try Settings(form)
            if !ExamAdminForms.isKey(slug, maximum: 80) { settings.problems.append(FormProblem("slug", "admin.exams.bad_key", ["max": "80"])) }
            self.settings = settings
        }
    }

    /// The blueprint, whole: one row a domain (`id_N` for those that exist, `slug_N`, `title_N`,
    /// `weight_N`), `rows` of them; a new row left blank is no domain.
    struct BlueprintRows: PostedForm {
        /// As typed, for the form shown again.
        let rows: [(id: Int?, slug: String, title: String, weight: String)]
        let domains: [BlueprintDomain]
        /// By row, the field at fault; `total` for the sum.
        var problems: [FormProblem] = []

        init(_ form: FormReader) throws(PageRefusal) {
            guard let count = form.int("rows"), (0...60).contains(count) else { throw PageRefusal(.badRequest, "admin.exams.bad_blueprint") }
            var rows: [(id: Int?, slug: String, title: String, weight: String)] = []
            var domains: [BlueprintDomain] = [], slugs = Set<String>()
            for index in 0..<count {
                let id = form.int("id_\(index)"), slug = form.trimmed("slug_\(index)"), title = form.trimmed("title_\(index)")
                let weightText = form.trimmed("weight_\(index)")
                rows.append((id, slug, title, weightText))
                if id == nil && slug.isEmpty && title.isEmpty && weightText.isEmpty { continue }
                if id == nil && !ExamAdminForms.isKey(slug, maximum: 80) { problems.append(FormProblem("slug_\(index)", "admin.exams.bad_key", ["max": "80"])) }
                if id == nil && !slugs.insert(slug).inserted { problems.append(FormProblem("slug_\(index)", "admin.exams.slug_twice")) }
                if !(1...300).contains(title.count) { problems.append(FormProblem("title_\(index)", "admin.exams.bad_name", ["max": "300"])) }
                guard let weight = Int(weightText), (1...100).contains(weight) else {
                    problems.append(FormProblem("weight_\(index)", "admin.exams.bad_number", ["min": "1", "max": "100"]))
                    continue
                }
                domains.append(BlueprintDomain(id: id, slug: slug, title: title, weight: weight))
            }
            if problems.isEmpty, !Blueprint.isWhole(domains.map(\.weight)) {
                problems.append(FormProblem("total", "admin.exams.weights_total", ["total": String(domains.map(\.weight).reduce(0, +))]))
            }
            self.rows = rows
            self.domains = domains
        }
    }

    /// Publishing or taking back.
    struct Publication: PostedForm {
        let published: Bool

        init(_ form: FormReader) throws(PageRefusal) {
            switch form.text("published") {
            case "1": published = true
            case "0": published = false
            default: throw PageRefusal(.badRequest, "admin.exams.bad_publication")
            }
        }
    }
}

/// An exam's scaled score in the settings form: its three fields as typed, empty for none.
struct ScaleFields: Encodable, Equatable {
    var min = ""
    var pass = ""
    var max = ""

    init(min: String, pass: String, max: String) {
        (self.min, self.pass, self.max) = (min, pass, max)
    }

    /// The fields of a stored scale (empty for none).
    init(_ scale: ScaledScore?) {
        self.init(min: scale.map { String($0.min) } ?? "", pass: scale.map { String($0.pass) } ?? "", max: scale.map { String($0.max) } ?? "")
    }
}
