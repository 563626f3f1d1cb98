import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine

/// `/teach/quizzes`: quizzes of chosen questions. A teacher names a quiz for an exam, searches
/// the exam's published questions (words of the text, domain, kind, difficulty), adds and orders
/// them, previews each as a pupil sees it, and assigns the quiz to a class (a share link that
/// carries it, made by the share form's one path). The database keeps each quiz its teacher's and
/// each question one of the quiz's exam.
struct QuizPages: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date

    /// Questions a search shows at once.
    static let resultsShown = 30

    struct NewQuizForm: PostedForm {
        let region: String
        let slug: String
        let title: String

        init(_ form: FormReader) throws(PageRefusal) {
            let exam = form.text("exam").split(separator: "/", maxSplits: 1).map(String.init)
            guard exam.count == 2 else { throw PageRefusal(.unprocessableContent, "school.quiz_choose_exam") }
            (region, slug) = (exam[0], exam[1])
            title = form.trimmed("title")
            guard (1...120).contains(title.count) else { throw PageRefusal(.unprocessableContent, "school.quiz_bad_title") }
        }
    }

    struct TitleForm: PostedForm {
        let title: String

        init(_ form: FormReader) throws(PageRefusal) {
            title = form.trimmed("title")
            guard (1...120).contains(title.count) else { throw PageRefusal(.unprocessableContent, "school.quiz_bad_title") }
        }
    }

    /// A question to add, and the search it was found by (shown again afterwards).
    struct AddForm: PostedForm {
        let question: UUID
        let search: String

        init(_ form: FormReader) throws(PageRefusal) {
            guard let question = form.uuid("question") else { throw PageRefusal(.badRequest, "school.quiz_bad_question") }
            self.question = question
            search = QuizPage.searchNames.compactMap { name in
                form.optional(name).map { "\(name)=\(LocalPath.escaped($0))" }
            }.joined(separator: "&")
        }
    }

    struct MoveForm: PostedForm {
        let earlier: Bool

        init(_ form: FormReader) throws(PageRefusal) {
            switch form.text("direction") {
            case "up": earlier = true
            case "down": earlier = false
            default: throw PageRefusal(.badRequest, "school.quiz_bad_move")
            }
        }
    }

    // MARK: The list

    /// `GET /teach/quizzes`.
    func list(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let (quizzes, regions) = try request.database.transaction { connection in
            (try QuizStore().quizzes(connection), try ExamCatalog().regions(connection))
        }
        return try pages.privatePage("teach/quizzes", QuizListPage(quizzes, regions: regions, pages: pages, locale: pages.locale(for: request)), request)
    }

    /// `POST /teach/quizzes`: a new quiz, then its page to fill it.
    func create(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(NewQuizForm.self)
        let location = try SentOnce.send(request, form: request.formFields) { connection -> String in
            guard let exam = try ExamCatalog().exam(region: form.region, slug: form.slug, connection) else {
                throw PageRefusal.noExam(region: form.region, slug: form.slug)
            }
            return "/teach/quizzes/" + (try QuizStore().create(examID: exam.id, title: form.title, at: clock(), connection)).lowercasedText
        }?.location
        return .redirect(to: location ?? "/teach/quizzes")
    }

    // MARK: One quiz

    /// `GET /teach/quizzes/{id}`: the quiz's questions, a search of its exam, and the form that assigns it.
    func page(_ request: PortalRequest, _ user: SessionUser, quiz id: UUID) throws -> Response {
        let query = request.query
        let search = QuestionSearch(
            text: String((query["q"] ?? "").trimmingCharacters(in: .whitespaces).prefix(100)), domain: query["domain"].flatMap { $0.isEmpty ? nil : $0 },
            kind: query["kind"].flatMap { $0.isEmpty ? nil : $0 }, difficulty: query["difficulty"].flatMap { Int($0) },
            facility: query["facility"].flatMap(QuestionSearch.Facility.init(rawValue:)))
        let searched = QuizPage.searchNames.contains { query[$0] != nil }
        let store = QuizStore()
        let (quiz, exam, results, classes) = try request.database.transaction { connection in
            guard let quiz = try store.quiz(id, connection) else { throw PageRefusal(.notFound, "school.quiz_unknown") }
            let exam = try ExamCatalog().exam(region: quiz.regionCode, slug: quiz.examSlug, connection)
            let results = searched ? try store.search(examID: quiz.examID, search, excludingQuiz: id, limit: Self.resultsShown, connection) : []
            let classes = try SchoolStore.taughtClasses(connection.query(SchoolStore.taughtClassesStatement))
            return (quiz, exam, results, classes)
        }
        let page = QuizPage(
            quiz, domains: exam?.domains ?? [], search: search, searched: searched, results: results,
            classes: classes.map { ExamPage.ClassOption(id: $0.id.lowercasedText, name: $0.name) }, notice: query["added"] != nil ? "school.quiz_added" : nil,
            pages: pages, locale: pages.locale(for: request))
        return try pages.privatePage("teach/quiz", page, request)
    }

    /// `POST /teach/quizzes/{id}/questions`: adds one, back to the same search.
    func add(_ request: PortalRequest, _ user: SessionUser, quiz id: UUID) throws -> Response {
        let form = try request.form(AddForm.self)
        try request.database.transaction { connection in
            guard try QuizStore().quiz(id, connection) != nil else { throw PageRefusal(.notFound, "school.quiz_unknown") }
            do {
                _ = try QuizStore().add(question: form.question, to: id, connection)
            } catch let error as PostgresError where error.isCheckViolation {
                throw PageRefusal(.unprocessableContent, "school.quiz_not_this_exam")
            }
        }
        return .redirect(to: "/teach/quizzes/\(id.lowercasedText)?added=1" + (form.search.isEmpty ? "" : "&" + form.search) + "#results")
    }

    /// `POST /teach/quizzes/{id}/questions/{question}/remove`.
    func remove(_ request: PortalRequest, _ user: SessionUser, quiz id: UUID, question: UUID) throws -> Response {
        try request.database.transaction { connection in
            guard try QuizStore().quiz(id, connection) != nil else { throw PageRefusal(.notFound, "school.quiz_unknown") }
            try QuizStore().remove(question: question, from: id, connection)
        }
        return .redirect(to: "/teach/quizzes/\(id.lowercasedText)#chosen")
    }

    /// `POST /teach/quizzes/{id}/questions/{question}/move`: one place up or down.
    func move(_ request: PortalRequest, _ user: SessionUser, quiz id: UUID, question: UUID) throws -> Response {
        let form = try request.form(MoveForm.self)
        try request.database.transaction { connection in
            guard try QuizStore().quiz(id, connection) != nil else { throw PageRefusal(.notFound, "school.quiz_unknown") }
            try QuizStore().move(question: question, in: id, earlier: form.earlier, connection)
        }
        return .redirect(to: "/teach/quizzes/\(id.lowercasedText)#item-\(question.lowercasedText)")
    }

    /// `POST /teach/quizzes/{id}/title`.
    func rename(_ request: PortalRequest, _ user: SessionUser, quiz id: UUID) throws -> Response {
        let form = try request.form(TitleForm.self)
        guard try request.database.run({ try QuizStore().rename(id, title: form.title, $0) }) else { throw PageRefusal(.notFound, "school.quiz_unknown") }
        return .redirect(to: "/teach/quizzes/\(id.lowercasedText)")
    }

    /// `GET /teach/quizzes/{id}/preview[?n=k]`: question k (from 1) as a pupil sees it, one at a
    /// time, with the way to the next and the one before.
    func preview(_ request: PortalRequest, _ user: SessionUser, quiz id: UUID) throws -> Response {
        let number = max(1, Int(request.query["n"] ?? "1") ?? 1)
        let (quiz, questions) = try request.database.transaction { connection -> (Quiz, [Question]) in
            guard let quiz = try QuizStore().quiz(id, connection) else { throw PageRefusal(.notFound, "school.quiz_unknown") }
            let live = quiz.items.filter { !$0.retired }.map(\.id)
            let byID = Dictionary(uniqueKeysWithValues: try ExamCatalog().publishedQuestions(examID: quiz.examID, only: live, connection).map { ($0.id, $0) })
            return (quiz, live.compactMap { byID[$0] })
        }
        guard !questions.isEmpty else { return .redirect(to: "/teach/quizzes/\(id.lowercasedText)") }
        let index = min(number, questions.count) - 1
        let base = "/teach/quizzes/\(id.lowercasedText)"
        let page = QuizPreviewPage(
            quizTitle: quiz.title, quizHref: base, number: index + 1, total: questions.count,
            previous: index > 0 ? base + "/preview?n=\(index)" : nil, next: index + 1 < questions.count ? base + "/preview?n=\(index + 2)" : nil,
            question: LiveQuestionView(questions[index], language: quiz.examLanguage, revealKey: false), language: quiz.examLanguage)
        return try pages.privatePage("teach/quiz-preview", page, request)
    }
}
