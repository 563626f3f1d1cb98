import ExamData
import Foundation
import Identifiers
import QuestionEngine

/// `GET /sessions/{id}/results`: the score, pass or fail, each domain's bar, the time used and
/// a review of every question with the student's answer beside the key.
struct ResultsPage: Encodable {
    struct Domain: Encodable {
        var title: String
        var correct: Int
        var total: Int
        var percent: Int
        /// A mock exam's band for the domain, as a vendor's score report gives it: "Meets the
        /// pass mark" or "Needs improvement" (nil in practice, or with no question of it).
        var band: String?
        var meets: Bool
    }

    struct Item: Encodable {
        var ordinal: Int
        var questionID: String
        var domainTitle: String
        var stem: String
        var stemHTML: String?
        var code: String?
        var codeLanguage: String?
        var answered: Bool
        var correct: Bool
        var partialPercent: Int?
        /// The answer beside the key, in the question's kind.
        var answer: AnswerView
        var explanation: String
        var explanationHTML: String?
    }

    /// The questions of one domain: the missed ones in full, those answered right folded.
    struct NextSteps: Encodable {
        /// The start form's fixed fields.
        var region: String
        var exam: String
        /// "Practise the 8 you missed": a practice of exactly those.
        var missed: String?
        /// "Practise Routing": a practice of the weakest domain of this session.
        var weakest: String?
        var weakestSlug: String?
        /// A signed-in student's review of what is due.
        var review: Bool
    }

    /// Sessions of up to this many questions show their missed ones open (longer ones folded).
    static let openReviewUpTo = 10

    struct Group: Encodable {
        var id: String
        var title: String
        /// "3 of 5 (60%)".
        var summary: String
        var missed: [Item]
        var right: [Item]
        var hasMissed: Bool
        var hasRight: Bool
        /// Shown open: a group with a question missed, in a short session or when the student
        /// asked for the missed ones (a long review comes folded by domain, a phone's few
        /// screens long instead of dozens).
        var isOpen: Bool
        /// "Show the 2 questions answered right".
        var showRight: String
    }

    var sessionID: String
    var examTitle: String
    var regionCode: String
    var examSlug: String
    var language: String
    var modeLabel: String
    var correct: Int
    var total: Int
    var answered: Int
    var percent: Int
    var passMark: Int
    var passed: Bool
    /// "742 (pass 700, scale 100–1000)": a mock exam's scaled score, when its exam reports one.
    var scaledScore: String?
    /// Pass or fail is a mock exam's; practice says what was answered and how much was right.
    var isMock: Bool
    /// "10 of 20 answered · 7 right" (practice and review).
    var practiceSummary: String
    /// The next steps, first after the score: the questions missed again, the weakest domain, review.
    var nextSteps: NextSteps
    var timeUsed: String
    var domains: [Domain]
    /// The questions by domain, the domains with a question missed first (each in the order
    /// the session asked them).
    var groups: [Group]
    /// Only the questions answered wrongly are listed: `?show=missed` (unanswered ones are
    /// counted apart).
    var onlyMissed: Bool
    var missedCount: Int
    var hasMissed: Bool
    var unansweredCount: Int
    var hasUnanswered: Bool
    var isGuest: Bool
    var notice: String?
    var reported: Bool
    /// The form for reporting each question; none for a guest.
    var report: ReportForm?

    /// The score report beside the percentage: a mock's scaled score, when its exam reports one,
    /// and each domain's bar with its band (a mock's only: it meets the exam's pass mark or needs
    /// improvement).
    static func report(
        _ session: StudySession, _ score: SessionScore, domainTitles: [String: String], pages: PageRenderer, locale: String
    ) -> (scaled: String?, domains: [Domain]) {
        let isMock = session.mode == .mock
        let scaled = isMock ? session.scaledScore.map { scale in
            pages.message("results.scaled_value", locale: locale, [
                "score": String(scale.scaled(percent: score.percent, passMark: session.passMark)), "pass": String(scale.pass),
                "min": String(scale.min), "max": String(scale.max)])
        } : nil
        let domains = score.domains.map { domain in
            let meets = domain.percent >= Double(session.passMark)
            return Domain(
                title: domainTitles[domain.domain] ?? domain.domain, correct: domain.correct, total: domain.total, percent: Int(domain.percent.rounded()),
                band: isMock && domain.total > 0 ? pages.message(meets ? "results.band_meets" : "results.band_improve", locale: locale) : nil, meets: meets)
        }
        return (scaled, domains)
    }

    init(
        session: StudySession, score: SessionScore, questions: [Question], answers: [UUID: RecordedAnswer], domainTitles: [String: String],
        isGuest: Bool, notice: String?, reported: Bool, onlyMissed: Bool, csrfToken: String, pages: PageRenderer, locale: String
    ) {
        sessionID = session.id.lowercasedText
        examTitle = session.examTitle
        regionCode = session.regionCode
        examSlug = session.examSlug
        language = session.examLanguage
        modeLabel = pages.message("sessions.mode.\(session.mode.rawValue)", locale: locale)
        correct = score.correct
        total = score.total
        answered = score.answered
        isMock = session.mode == .mock
        // Practice is not an exam: its figure is the share of what was answered that was right.
        percent = Int((isMock ? score.percent : Double(score.correct) * 100 / Double(max(score.answered, 1))).rounded())
        passMark = session.passMark
        passed = score.passed
        practiceSummary = pages.message("results.practice_summary", locale: locale, [
            "answered": String(score.answered), "total": String(score.total), "correct": String(score.correct)])
        let seconds = Int(score.timeUsed.rounded())
        timeUsed = pages.message("sessions.duration", locale: locale, ["minutes": String(seconds / 60), "seconds": String(format: "%02d", seconds % 60)])
        (scaledScore, domains) = Self.report(session, score, domainTitles: domainTitles, pages: pages, locale: locale)
        var items = questions.enumerated().map { index, question in
            let answer = answers[question.id]
            return Item(
                ordinal: index + 1, questionID: question.id.lowercasedText,
                domainTitle: domainTitles[question.domainSlug] ?? question.domainSlug, stem: question.stem,
                stemHTML: ClozeView.stemHTML(question), code: question.code,
                codeLanguage: question.codeLanguage, answered: answer != nil, correct: answer?.correct ?? false,
                partialPercent: answer.flatMap { $0.correct || $0.score == 0 ? nil : Int(($0.score * 100).rounded()) },
                answer: AnswerView(question, language: session.examLanguage, response: answer?.response, revealsKey: true, reviewsResponse: true),
                explanation: question.explanation, explanationHTML: question.texts.map { RichTextHTML.render($0.explanation) })
        }
        missedCount = items.count { $0.answered && !$0.correct }
        hasMissed = missedCount > 0
        unansweredCount = items.count { !$0.answered }
        hasUnanswered = unansweredCount > 0
        self.onlyMissed = onlyMissed && hasMissed
        if self.onlyMissed { items.removeAll { $0.correct || !$0.answered } }
        let weakest = score.domains.filter { $0.total > 0 && $0.percent < 100 }.min { $0.percent < $1.percent }
        nextSteps = NextSteps(
            region: session.regionCode, exam: session.examSlug,
            missed: hasMissed ? pages.message("results.practise_missed", locale: locale, ["count": String(missedCount)], count: Double(missedCount)) : nil,
            weakest: weakest.map { pages.message("results.practise_domain", locale: locale, ["domain": domainTitles[$0.domain] ?? $0.domain]) },
            weakestSlug: weakest?.domain, review: !isGuest)
        let byDomain = Dictionary(grouping: items, by: \.domainTitle)
        let order = items.map(\.domainTitle).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        groups = order.enumerated().map { index, title in
            let all = byDomain[title] ?? []
            let missed = all.filter { !$0.correct }, right = all.filter(\.correct)
            return Group(
                id: "domain-\(index + 1)", title: title,
                summary: pages.message("results.domain_value", locale: locale, [
                    "correct": String(right.count), "total": String(all.count),
                    "percent": String(Int((Double(right.count) * 100 / Double(max(all.count, 1))).rounded())),
                ]),
                missed: missed, right: right, hasMissed: !missed.isEmpty, hasRight: !right.isEmpty,
                isOpen: !missed.isEmpty && (items.count <= Self.openReviewUpTo || onlyMissed),
                showRight: pages.message("results.show_right", locale: locale, ["count": String(right.count)], count: Double(right.count)))
        }
        groups = groups.filter(\.hasMissed) + groups.filter { !$0.hasMissed }
        self.isGuest = isGuest
        self.notice = notice
        self.reported = reported
        report = isGuest ? nil : ReportForm(returnTo: "/sessions/\(sessionID)/results", csrfToken: csrfToken, pages: pages, locale: locale)
    }
}
