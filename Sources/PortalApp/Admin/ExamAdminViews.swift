import ExamData
import Foundation

/// `GET /admin/exams`: every region with its exams (drafts marked), and the forms that make a
/// region and a draft exam.
struct ExamListPage: Encodable {
    struct Exam: Encodable {
        var href: String
        var title: String
        var draft: Bool
    }

    struct Region: Encodable {
        var code: String
        var name: String
        var exams: [Exam]
        var hasExams: Bool
    }

    struct Choice: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    /// What the forms show, as typed.
    struct Values: Encodable {
        var regionCode = ""
        var regionName = ""
        var region = ""
        var slug = ""
        var title = ""
        var description = ""
        var language = "en"
        var passMark = 70
        var timeLimit = 60
        var questionCount = 40
        var scale = ScaleFields(nil)

        init() {}

        init(settings: ExamSettings, region: String, slug: String, scale: ScaleFields? = nil) {
            (self.region, self.slug) = (region, slug)
            (title, description, language) = (settings.title, settings.description, settings.language)
            (passMark, timeLimit, questionCount) = (settings.passMark, settings.timeLimitSeconds / 60, settings.questionCount)
            self.scale = scale ?? ScaleFields(settings.scaledScore)
        }
    }

    var regions: [Region]
    var hasRegions: Bool
    var regionChoices: [Choice]
    var values: Values
    var fieldErrors: [String: String]
    var hasErrors: Bool
    var notice: String?
    var formToken = SentOnce.newToken()

    init(
        regions: [(code: String, name: String, exams: [(slug: String, title: String, published: Bool)])], values: Values, problems: [FormProblem],
        made: String?, pages: PageRenderer, locale: String
    ) {
        self.regions = regions.map { region in
            Region(code: region.code, name: region.name, exams: region.exams.map {
                Exam(href: "/admin/exams/\(region.code)/\($0.slug)", title: $0.title, draft: !$0.published)
            }, hasExams: !region.exams.isEmpty)
        }
        hasRegions = !regions.isEmpty
        let selected = values.region.isEmpty ? (made ?? regions.first?.code ?? "") : values.region
        regionChoices = regions.map { Choice(value: $0.code, label: $0.name, selected: $0.code == selected) }
        self.values = values
        fieldErrors = pages.fieldErrors(problems, locale: locale)
        hasErrors = !problems.isEmpty
        notice = made.map { pages.message("admin.exams.region_made", locale: locale, ["code": String($0.prefix(40))]) }
    }
}

/// `GET /admin/exams/{region}/{exam}`: the exam's settings, its blueprint (one row a domain with
/// its questions, two blank rows for new ones, the total) and whether students see it.
struct ExamAdminPage: Encodable {
    struct Row: Encodable {
        var index: Int
        var id: String?
        var slug: String
        var title: String
        var weight: String
        var questions: Int
        var isNew: Bool
        var slugError: String?
        var titleError: String?
        var weightError: String?
    }

    var href: String
    var studentHref: String
    var regionName: String
    var title: String
    var description: String
    var language: String
    var passMark: Int
    var timeLimit: Int
    var questionCount: Int
    var scale: ScaleFields
    var published: Bool
    var rows: [Row]
    var rowCount: Int
    var total: Int
    var totalError: String?
    var fieldErrors: [String: String]
    var hasErrors: Bool
    var notice: String?
    var heading: String

    /// Blank rows offered for new domains.
    static let newRows = 2

    init(_ exam: ShapedExam, notice: String?, pages: PageRenderer, locale: String) {
        href = "/admin/exams/\(exam.regionCode)/\(exam.slug)"
        studentHref = "/exams/\(exam.regionCode)/\(exam.slug)"
        regionName = exam.regionName
        heading = exam.settings.title
        (title, description, language) = (exam.settings.title, exam.settings.description, exam.settings.language)
        (passMark, timeLimit, questionCount) = (exam.settings.passMark, exam.settings.timeLimitSeconds / 60, exam.settings.questionCount)
        scale = ScaleFields(exam.settings.scaledScore)
        published = exam.published
        rows = exam.domains.enumerated().map { index, domain in
            Row(index: index, id: domain.id.map(String.init), slug: domain.slug, title: domain.title, weight: String(domain.weight),
                questions: domain.questions, isNew: false)
        }
        rows += (0..<Self.newRows).map { Row(index: exam.domains.count + $0, id: nil, slug: "", title: "", weight: "", questions: 0, isNew: true) }
        rowCount = rows.count
        total = exam.domains.map(\.weight).reduce(0, +)
        fieldErrors = [:]
        hasErrors = false
        self.notice = notice.map { pages.message($0, locale: locale) }
    }

    /// The settings as typed, with their refusals.
    mutating func typed(_ form: ExamAdminForms.Settings, pages: PageRenderer, locale: String) {
        let (settings, problems) = (form.settings, form.problems)
        (title, description, language) = (settings.title, settings.description, settings.language)
        (passMark, timeLimit, questionCount) = (settings.passMark, settings.timeLimitSeconds / 60, settings.questionCount)
        scale = form.scale
        fieldErrors = pages.fieldErrors(problems, locale: locale)
        hasErrors = true
    }

    /// The blueprint as typed, with its refusals beside its rows and its total.
    mutating func typed(_ form: ExamAdminForms.BlueprintRows, pages: PageRenderer, locale: String) {
        let errors = pages.fieldErrors(form.problems, locale: locale)
        let questions = Dictionary(rows.compactMap { row in row.id.map { ($0, row.questions) } }, uniquingKeysWith: { first, _ in first })
        rows = form.rows.enumerated().map { index, row in
            Row(index: index, id: row.id.map(String.init), slug: row.slug, title: row.title, weight: row.weight,
                questions: row.id.flatMap { questions[String($0)] } ?? 0, isNew: row.id == nil,
                slugError: errors["slug_\(index)"], titleError: errors["title_\(index)"], weightError: errors["weight_\(index)"])
        }
        rowCount = rows.count
        total = form.rows.compactMap { Int($0.weight) }.reduce(0, +)
        totalError = errors["total"]
        hasErrors = true
    }
}
