import ExamData
import Foundation
import Identifiers
import QuestionEngine

/// `GET /sessions/{id}`: one question of a session, with the answer form; in practice, once
/// answered, whether it was right and why; in a mock exam, the countdown and the question list.
struct QuestionPage: Encodable {
    struct Session: Encodable {
        var id: String
        var examTitle: String
        var regionCode: String
        var examSlug: String
        var language: String
        var modeLabel: String
        var isMock: Bool
        var isGuest: Bool
        /// A guest is told what studying as a guest means once they have answered (before it, the
        /// question comes first on a phone's screen).
        var guestNotice: Bool
        var total: Int
        var answered: Int
        /// Whole seconds to the deadline, as the countdown's data attribute carries them.
        var secondsLeft: String?
        var minutesLeft: Int?
        var deadline: String?
        /// The deadline as a time of day in the student's zone ("14:35 CET"): what a page
        /// without the live countdown shows.
        var endsAt: String?
        /// Whether the deadline includes the student's extra time (an accommodation).
        var extraTime: Bool
    }

    struct Feedback: Encodable {
        var correct: Bool
        var partialPercent: Int?
        var explanation: String
        /// The explanation as HTML when it is written in markdown.
        var explanationHTML: String?
        /// When the question comes back for this student (`ComesBack`); none for a guest.
        var backIn: String?
    }

    struct NavItem: Encodable {
        var ordinal: Int
        var href: String
        var answered: Bool
        var flagged: Bool
        var current: Bool
    }

    var session: Session
    var ordinal: Int
    var questionID: String
    var stem: String
    /// The stem as HTML when it is written in markdown (or has gaps).
    var stemHTML: String?
    /// A cloze question's text is its answer form's, while it can be answered.
    var hidesStem: Bool
    var code: String?
    var codeLanguage: String?
    var difficultyLabel: String
    /// The form in the question's kind, and once answered in practice its review.
    var answer: AnswerView
    var answerID: String
    /// When the question was shown, signed by the server (`FormClock`).
    var shownAt: String
    var feedback: Feedback?
    var flagged: Bool
    var nav: [NavItem]
    var previousHref: String?
    var nextHref: String?
    /// The questions "Previous" and "Next" lead to, for the buttons that send the form with them.
    var previousNumber: Int?
    var nextNumber: Int?
    var canAnswer: Bool
    /// A mock exam's flag button belongs to the answer form, so a choice not yet saved goes with it.
    var flagInForm: Bool
    /// The form for reporting the question; none for a guest.
    var report: ReportForm?
    var reported: Bool
    var notice: String?
    var error: String?
    /// The reader's form token, for the forms inside the question's fragment (which sees only
    /// its own value).
    var csrfToken: String

    init(
        session stored: StudySession, question: Question, number: Int, answers: [UUID: RecordedAnswer], isGuest: Bool, now: Date,
        shownStamp: String, draft: AnswerResponse?, notice: String?, error: String?, reported: Bool, pages: PageRenderer, locale: String,
        refused: RefusedAnswer? = nil, timeZone: String = "UTC", csrfToken: String, cardDue: Date? = nil
    ) {
        let base = "/sessions/" + stored.id.lowercasedText
        let answer = answers[question.id]
        let showsFeedback = stored.mode.showsFeedback && answer != nil
        session = Self.sessionView(stored, answers: answers, isGuest: isGuest, now: now, pages: pages, locale: locale, timeZone: timeZone)
        ordinal = number
        questionID = question.id.lowercasedText
        stem = question.stem
        stemHTML = ClozeView.stemHTML(question)
        code = question.code
        codeLanguage = question.codeLanguage
        difficultyLabel = "\(question.difficulty) · " + pages.message("difficulty.\(question.difficulty)", locale: locale)
        // A refused answer comes back as it was chosen: the options ticked, or for an ordering or
        // matching the position or target given to each item (even two the same, or none).
        let positional = question.kind.answerShape == .order || question.kind.answerShape == .pairs
        let shown = (positional ? nil : refused.map { AnswerResponse.indexes($0.chosen) }) ?? draft ?? answer?.response
        self.answer = AnswerView(
            question, language: session.language, response: shown, positions: positional ? refused?.chosen : nil,
            revealsKey: showsFeedback, reviewsResponse: showsFeedback)
        if stored.mode == .mock, stored.finishedAt == nil, question.kind.answerShape == .oneOption || question.kind.answerShape == .someOptions {
            let struck = stored.struck[question.id] ?? []
            self.answer.strikes = true
            for index in self.answer.options.indices where struck.contains(index) { self.answer.options[index].struck = true }
        }
        feedback = showsFeedback ? answer.map { answer in
            Feedback(
                correct: answer.correct, partialPercent: answer.correct || answer.score == 0 ? nil : Int((answer.score * 100).rounded()),
                explanation: question.explanation, explanationHTML: question.texts.map { RichTextHTML.render($0.explanation) },
                backIn: isGuest ? nil : cardDue.map {
                    ComesBack.text(due: $0, now: now, zone: TimeZone(identifier: timeZone) ?? .gmt, pages: pages, locale: locale)
                })
        } : nil
        answerID = Crypto.randomUUID().lowercasedText
        shownAt = shownStamp
        flagged = stored.flagged.contains(question.id)
        nav = stored.mode == .mock ? stored.questionIDs.enumerated().map { index, id in
            NavItem(ordinal: index + 1, href: "\(base)?q=\(index + 1)", answered: answers[id] != nil, flagged: stored.flagged.contains(id), current: index + 1 == number)
        } : []
        previousNumber = number > 1 ? number - 1 : nil
        nextNumber = number < stored.questionIDs.count ? number + 1 : nil
        previousHref = previousNumber.map { "\(base)?q=\($0)" }
        nextHref = nextNumber.map { "\(base)?q=\($0)" }
        canAnswer = stored.mode == .mock || answer == nil
        hidesStem = canAnswer && question.kind == .cloze
        flagInForm = canAnswer && stored.mode == .mock
        report = isGuest ? nil : ReportForm(returnTo: "\(base)?q=\(number)", csrfToken: csrfToken, pages: pages, locale: locale)
        self.reported = reported
        self.notice = notice
        self.error = refused?.message(question: question, pages: pages, locale: locale) ?? error
        self.csrfToken = csrfToken
    }
}

extension QuestionPage {
    /// Whole seconds to a mock exam's deadline (none without one): to the nearest second, as
    /// the stored deadline is exact only to the microsecond.
    static func secondsLeft(_ deadline: Date?, now: Date) -> Int? {
        deadline.map { max(0, Int($0.timeIntervalSince(now).rounded())) }
    }

    /// The countdown's whole minutes, rounded up.
    static func minutesLeft(_ secondsLeft: Int?) -> Int? { secondsLeft.map { ($0 + 59) / 60 } }

    /// The session as the page's bar and title show it.
    static func sessionView(
        _ stored: StudySession, answers: [UUID: RecordedAnswer], isGuest: Bool, now: Date, pages: PageRenderer, locale: String, timeZone: String
    ) -> Session {
        let secondsLeft = secondsLeft(stored.deadline, now: now)
        return Session(
            id: stored.id.lowercasedText, examTitle: stored.examTitle, regionCode: stored.regionCode, examSlug: stored.examSlug,
            language: stored.examLanguage, modeLabel: pages.message("sessions.mode.\(stored.mode.rawValue)", locale: locale),
            isMock: stored.mode == .mock, isGuest: isGuest, guestNotice: isGuest && !answers.isEmpty, total: stored.questionIDs.count,
            answered: stored.questionIDs.filter { answers[$0] != nil }.count, secondsLeft: secondsLeft.map(String.init),
            minutesLeft: minutesLeft(secondsLeft),
            deadline: stored.deadline.map { $0.ISO8601Format() }, endsAt: stored.deadline.map { clockTime($0, zone: timeZone) },
            extraTime: stored.deadline.map { $0.timeIntervalSince(stored.startedAt) > TimeInterval(stored.timeLimitSeconds) + 1 } ?? false)
    }

    /// A moment as a time of day in the zone named (UTC when the name is unknown), with the
    /// zone's abbreviation so nobody mistakes whose clock it is.
    static func clockTime(_ date: Date, zone: String) -> String {
        let timeZone = TimeZone(identifier: zone) ?? .gmt
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let abbreviation = timeZone.abbreviation(for: date) ?? zone
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0) + " " + abbreviation
    }
}

/// What a question page shows around its question fragment: the session's bar, what this visit
/// says, and the form's fields that change each time (the answer's id, the signed "shown at"),
/// which a kept page leaves as holes (`withMarkers`).
struct QuestionShell: Encodable {
    /// Where a kept page has holes for what each showing fills in (`SessionPages.show`): the
    /// answer's id, the signed "shown at" stamp and the countdown's seconds. Control characters
    /// pass through the template's escaping as they are, and no content contains them.
    static let answerMarker = "\u{1}answer-id\u{1}", stampMarker = "\u{1}shown-at\u{1}", secondsMarker = "\u{1}seconds-left\u{1}"
    static let markers = [answerMarker, stampMarker, secondsMarker]

    var session: QuestionPage.Session
    var ordinal: Int
    var answerID: String
    var shownAt: String
    var notice: String?
    var error: String?
    var reported: Bool
    var canAnswer: Bool

    /// This shell as a kept page's: its per-showing values replaced by the markers.
    var withMarkers: QuestionShell {
        var shell = self
        shell.answerID = Self.answerMarker
        shell.shownAt = Self.stampMarker
        if shell.session.secondsLeft != nil { shell.session.secondsLeft = Self.secondsMarker }
        return shell
    }

    /// What fills the markers' holes, in their order (none needs escaping: hex digits, dots
    /// and a hyphenated id).
    static func markerValues(answerID: String, stamp: String, secondsLeft: Int?) -> [[UInt8]] {
        [answerID, stamp, secondsLeft.map(String.init) ?? ""].map { Array($0.utf8) }
    }

    init(_ page: QuestionPage) {
        session = page.session
        ordinal = page.ordinal
        answerID = page.answerID
        shownAt = page.shownAt
        notice = page.notice
        error = page.error
        reported = page.reported
        canAnswer = page.canAnswer
    }

    /// Without the question's page, which is its own fragment.
    init(
        session stored: StudySession, question: Question, number: Int, answers: [UUID: RecordedAnswer], isGuest: Bool, now: Date,
        shownStamp: String, notice: String?, reported: Bool, refused: RefusedAnswer?, pages: PageRenderer, locale: String, timeZone: String
    ) {
        session = QuestionPage.sessionView(stored, answers: answers, isGuest: isGuest, now: now, pages: pages, locale: locale, timeZone: timeZone)
        ordinal = number
        answerID = Crypto.randomUUID().lowercasedText
        shownAt = shownStamp
        self.notice = notice
        error = refused?.message(question: question, pages: pages, locale: locale)
        self.reported = reported
        canAnswer = stored.mode == .mock || answers[question.id] == nil
    }
}
