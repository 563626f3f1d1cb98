import ExamData
import Foundation
import Identifiers
import QuestionEngine

/// `GET /teach/quizzes`: the teacher's quizzes and the form that starts one.
struct QuizListPage: Encodable {
    struct Row: Encodable {
        var href: String
        var title: String
        var exam: String
        var language: String
        var questions: String
    }

    struct ExamChoice: Encodable {
        var value: String
        var label: String
    }

    var quizzes: [Row]
    var hasQuizzes: Bool
    var exams: [ExamChoice]
    /// A quiz is made once per showing of the form.
    var formToken = SentOnce.newToken()

    init(_ quizzes: [QuizSummary], regions: [RegionSummary], pages: PageRenderer, locale: String) {
        self.quizzes = quizzes.map { quiz in
            Row(href: "/teach/quizzes/" + quiz.id.lowercasedText, title: quiz.title, exam: quiz.examTitle, language: quiz.examLanguage,
                questions: pages.message("dashboard.questions", locale: locale, ["count": String(quiz.questions)], count: Double(quiz.questions)))
        }
        hasQuizzes = !quizzes.isEmpty
        exams = regions.flatMap { region in
            region.exams.filter { $0.publishedQuestions > 0 }.map { ExamChoice(value: "\(region.code)/\($0.slug)", label: "\(region.name) · \($0.title)") }
        }
    }
}

/// `GET /teach/quizzes/{id}`: the quiz's questions in order with their controls, the search of
/// its exam with what it found, and the form that assigns the quiz to a class.
struct QuizPage: Encodable {
    struct Item: Encodable {
        var id: String
        var stem: String
        var domain: String
        var kind: String
        var difficulty: Int
        /// "Right in 72% of first mocks", or nil until ten students have had it.
        var facility: String?
        var retired: Bool
        var first: Bool
        var last: Bool
        var number: Int
    }

    struct Choice: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    var id: String
    var href: String
    var title: String
    var examTitle: String
    var examLanguage: String
    var regionCode: String
    var examSlug: String
    var items: [Item]
    var hasItems: Bool
    /// Questions retired since they were chosen: kept here, left out of what pupils get.
    var retiredNotice: String?
    var liveCount: Int
    var query: String
    var domains: [Choice]
    var kinds: [Choice]
    var levels: [Choice]
    var facilities: [Choice]
    var searched: Bool
    var results: [Item]
    var hasResults: Bool
    /// The search as hidden fields of each result's add button.
    var searchFields: [Choice]
    var classes: [ExamPage.ClassOption]
    var hasClasses: Bool
    var notice: String?

    init(
        _ quiz: Quiz, domains: [DomainSummary], search: QuestionSearch, searched: Bool, results: [Quiz.Item], classes: [ExamPage.ClassOption],
        notice: String?, pages: PageRenderer, locale: String
    ) {
        func item(_ item: Quiz.Item, _ index: Int, _ count: Int) -> Item {
            Item(
                id: item.id.lowercasedText, stem: item.retired ? pages.message("school.quiz_retired_item", locale: locale) : String(item.stem.prefix(240)),
                domain: item.domainTitle, kind: item.kind.isEmpty ? "" : pages.message("admin.kind." + item.kind, locale: locale),
                difficulty: item.difficulty,
                facility: item.facility.map { pages.message("school.quiz_facility_shown", locale: locale, ["percent": String(Int(($0 * 100).rounded()))]) },
                retired: item.retired,
                first: index == 0, last: index == count - 1, number: index + 1)
        }
        id = quiz.id.lowercasedText
        href = "/teach/quizzes/" + id
        title = quiz.title
        (examTitle, examLanguage, regionCode, examSlug) = (quiz.examTitle, quiz.examLanguage, quiz.regionCode, quiz.examSlug)
        items = quiz.items.enumerated().map { item($1, $0, quiz.items.count) }
        hasItems = !items.isEmpty
        let retired = quiz.items.count - quiz.liveCount
        retiredNotice = retired == 0 ? nil
            : pages.message("school.quiz_retired", locale: locale, ["count": String(retired)], count: Double(retired))
        liveCount = quiz.liveCount
        query = search.text
        self.domains = domains.map { Choice(value: $0.slug, label: $0.title, selected: $0.slug == search.domain) }
        kinds = QuestionKind.allCases.map {
            Choice(value: $0.rawValue, label: pages.message("admin.kind." + $0.rawValue, locale: locale), selected: $0.rawValue == search.kind)
        }
        levels = (1...5).map { Choice(value: String($0), label: pages.message("difficulty.\($0)", locale: locale), selected: $0 == search.difficulty) }
        facilities = QuestionSearch.Facility.allCases.map {
            Choice(value: $0.rawValue, label: pages.message("school.quiz_facility_band." + $0.rawValue, locale: locale), selected: $0 == search.facility)
        }
        self.searched = searched
        self.results = results.enumerated().map { item($1, $0, results.count) }
        hasResults = !results.isEmpty
        searchFields = [("q", search.text), ("domain", search.domain ?? ""), ("kind", search.kind ?? ""), ("difficulty", search.difficulty.map(String.init) ?? ""),
                        ("facility", search.facility?.rawValue ?? "")]
            .map { Choice(value: $0.1, label: $0.0, selected: false) }
        self.classes = classes
        hasClasses = !classes.isEmpty
        self.notice = notice.map { pages.message($0, locale: locale) }
    }
}

extension QuizPage {
    /// The search's fields, as the page's query and as each add button carries them back.
    static let searchNames = ["q", "domain", "kind", "difficulty", "facility"]
}

/// `GET /teach/quizzes/{id}/preview`: one question of the quiz as its pupils see it.
struct QuizPreviewPage: Encodable {
    var quizTitle: String
    var quizHref: String
    var number: Int
    var total: Int
    var previous: String?
    var next: String?
    var question: LiveQuestionView
    var language: String
}
