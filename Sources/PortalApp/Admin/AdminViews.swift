import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine

/// `GET /admin/questions`: filters, matches and pages.
struct AdminQuestionList: Encodable {
    struct Choice: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    struct Item: Encodable {
        var id: String
        var href: String
        var exam: String
        /// The exam's language: the exam, domain and stem are marked with it.
        var language: String
        var domain: String
        var type: String
        var difficulty: Int
        var status: String
        var version: Int
        var stem: String
        var reports: Int
    }

    var exams: [Choice]
    var types: [Choice]
    var statuses: [Choice]
    var difficulties: [Choice]
    var domain: String
    var text: String
    var flagged: Bool
    /// How many filters besides the search are in use; the folded filters are open when any is.
    var activeFilters: Int
    var filtersOpen: Bool
    var items: [Item]
    var hasItems: Bool
    var total: Int
    var page: Int
    var pages: Int
    var previousHref: String?
    var nextHref: String?
    /// Only drafts listed: each may be chosen and the chosen published at once.
    var choosesDrafts: Bool
    /// "12 questions imported as drafts", "3 published".
    var notice: String?
    /// Drafts a bulk publish held back (a picture named only by its file's name).
    var heldNotice: String?

    init(
        regions: [RegionSummary], selectedExam: String, query: FormFields, items: [QuestionListItem], total: Int, page: Int, pages: PageRenderer,
        locale: String
    ) {
        func kind(_ value: String) -> String { pages.message("admin.kind." + value, locale: locale) }
        func state(_ value: String) -> String { pages.message("admin.state." + value, locale: locale) }
        func choices(_ values: [(String, String)], _ selected: String?) -> [Choice] {
            values.map { Choice(value: $0.0, label: $0.1, selected: $0.0 == selected) }
        }
        exams = choices(regions.flatMap { region in region.exams.map { ("\(region.code)/\($0.slug)", "\(region.name) · \($0.title)") } }, selectedExam)
        types = choices(QuestionKind.allCases.map { ($0.rawValue, kind($0.rawValue)) }, query["type"])
        statuses = choices(QuestionForm.statuses.map { ($0, state($0)) }, query["status"])
        difficulties = choices((1...5).map { (String($0), String($0)) }, query["difficulty"])
        domain = query["domain"] ?? ""
        text = query["q"] ?? ""
        flagged = query["flagged"] == "on"
        activeFilters = ["exam", "domain", "type", "difficulty", "status"].count { !(query[$0] ?? "").isEmpty } + (flagged ? 1 : 0)
        filtersOpen = activeFilters > 0
        self.items = items.map { item in
            Item(
                id: item.id.lowercasedText, href: "/admin/questions/\(item.id.lowercasedText)", exam: item.examTitle, language: item.language, domain: item.domainTitle, type: kind(item.type),
                difficulty: item.difficulty, status: state(item.status), version: item.version, stem: String(item.stem.prefix(140)), reports: item.openReports)
        }
        hasItems = !items.isEmpty
        choosesDrafts = query["status"] == "draft" && !items.isEmpty
        notice = query["imported"].flatMap(Int.init).map {
            pages.message(query["status"] == "draft" ? "admin.imported_drafts" : "admin.imported_published", locale: locale, ["count": String($0)], count: Double($0))
        } ?? query["published"].flatMap(Int.init).map { pages.message("admin.drafts_published", locale: locale, ["count": String($0)], count: Double($0)) }
        heldNotice = query["held"].flatMap(Int.init).map { pages.message("admin.drafts_held", locale: locale, ["count": String($0)], count: Double($0)) }
        self.total = total
        self.page = page
        self.pages = max(1, (total + 49) / 50)
        // The same filters, another page.
        let kept = query.fields.filter { $0.name != "page" && !$0.value.isEmpty }
            .map { "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        let prefix = "/admin/questions?" + (kept.isEmpty ? "" : kept + "&")
        previousHref = page > 1 ? prefix + "page=\(page - 1)" : nil
        nextHref = page < self.pages ? prefix + "page=\(page + 1)" : nil
    }
}

/// `GET /admin/questions/{id}`: the question as a student sees it, the key and explanations,
/// every version, and the reports filed on it.
struct AdminQuestionPage: Encodable {
    struct Version: Encodable {
        var version: Int
        var savedAt: String
        var snapshot: String
    }

    struct Report: Encodable {
        var reason: String
        var comment: String
        var resolution: String
        var at: String
    }

    var id: String
    /// The question's start, naming it in the breadcrumb.
    var crumb: String
    var kind: String
    var difficulty: Int
    var version: Int
    var preview: LiveQuestionView
    var key: LiveQuestionView
    var explanation: String
    var explanationHTML: String?
    var optionExplanations: [String]
    struct Statistics: Encodable {
        var attempts: Int
        var facility: String
        var discrimination: String
        var efficiency: String
        var averageSeconds: String
        var shares: [String]
        /// A fill-in question's wrong answers typed most: "192.168.1.0: 12%".
        var commonWrong: [String]
        var hasCommonWrong: Bool
        /// A cloze question's gaps: "Gap 2: 40% right · often instead: 1790 (30%)".
        var gaps: [String]
        var hasGaps: Bool
    }

    var versions: [Version]
    var reports: [Report]
    var hasReports: Bool
    var statistics: Statistics?
    var flags: [String]
    var hasFlags: Bool
    var saved = false
    /// Why the question stays a draft: a picture named only by its file's name.
    var unnamedPicture: String?

    init(
        question: Question, versions: [QuestionVersion], reports: [(reason: String, comment: String, resolution: String?, at: Date)],
        statistics: ItemStatistics?, language: String, pages: PageRenderer, locale: String, zone: TimeZone
    ) {
        func when(_ date: Date) -> String { LocalDates.dateTime(date, locale: locale, zone: zone) }
        id = question.id.lowercasedText
        crumb = question.stem.count > 60 ? String(question.stem.prefix(60)) + "…" : question.stem
        kind = question.kind.rawValue
        difficulty = question.difficulty
        version = question.version
        preview = LiveQuestionView(question, language: language, revealKey: false)
        key = LiveQuestionView(question, language: language, revealKey: true)
        explanation = question.explanation
        explanationHTML = question.texts.map { RichTextHTML.render($0.explanation) }
        optionExplanations = question.options.map { "\($0.text): \($0.explanation ?? "—")" }
        self.versions = versions.map { Version(version: $0.version, savedAt: when($0.savedAt), snapshot: $0.snapshot) }
        self.reports = reports.map {
            Report(reason: pages.message("report.reason.\($0.reason)", locale: locale), comment: $0.comment,
                   resolution: $0.resolution ?? pages.message("admin.open", locale: locale), at: when($0.at))
        }
        hasReports = !reports.isEmpty
        func figure(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "—" }
        self.statistics = statistics.map { item in
            Statistics(
                attempts: item.attempts, facility: figure(item.facility, "%.2f"), discrimination: figure(item.discrimination, "%.2f"),
                efficiency: item.efficiency.map { Percentages.format($0, locale: locale) } ?? "—", averageSeconds: figure(item.averageMilliseconds.map { $0 / 1000 }, "%.1f s"),
                shares: !question.kind.answerShape.picksOptions ? [] : question.options.enumerated().map { index, option in
                    "\(option.text): \(Percentages.format(item.optionShares[index] ?? 0, locale: locale))"
                },
                commonWrong: item.commonWrongAnswers.map { "\($0.answer): \(Percentages.format($0.share, locale: locale))" },
                hasCommonWrong: !item.commonWrongAnswers.isEmpty,
                gaps: item.gaps.enumerated().map { index, gap in
                    let right = pages.message("admin.gap_right", locale: locale, ["number": String(index + 1), "percent": String(Int((gap.facility * 100).rounded()))])
                    guard !gap.commonWrong.isEmpty else { return right }
                    let wrong = gap.commonWrong.map { "\($0.answer) (\(Percentages.format($0.share, locale: locale)))" }.joined(separator: ", ")
                    return right + " · " + pages.message("admin.gap_wrong", locale: locale, ["answers": wrong])
                },
                hasGaps: !item.gaps.isEmpty)
        }
        flags = ItemReview.flags(statistics, kind: question.kind, key: question.correct, optionTexts: question.options.map(\.text))
            .map { pages.message("admin.flag.\($0.rawValue)", locale: locale) }
        hasFlags = !flags.isEmpty
    }
}
