import ExamData
import Foundation
import HTTPServer
import QRCode
import QuestionEngine

/// What every live page shows of where the event stands, and when the page should look again
/// (a `<meta http-equiv="refresh">` without JavaScript; the event stream with it).
struct LivePhaseView: Encodable {
    var waiting = false
    var starting = false
    var open = false
    var reveal = false
    var ended = false
    var number = 0
    var total: Int
    var secondsLeft = 0
    var refreshSeconds: Int

    init(event: LiveEvent, now: Date) {
        total = event.questionIDs.count
        refreshSeconds = 5
        guard let schedule = event.schedule else {
            waiting = true
            return
        }
        let next = schedule.nextChange(after: now)
        secondsLeft = next.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) } ?? 0
        refreshSeconds = next.map { min(30, max(1, Int($0.timeIntervalSince(now).rounded(.up)))) } ?? 30
        switch schedule.phase(at: now) {
        case .waiting: starting = true
        case .open(let index, _, _):
            open = true
            number = index + 1
        case .reveal(let index, _):
            reveal = true
            number = index + 1
        case .ended: ended = true
        }
    }
}

/// A question as a live page (and the admin's preview) shows it: the stem, and its answer form
/// or, during the reveal, its key.
struct LiveQuestionView: Encodable {
    var stem: String
    /// The stem as HTML when it is written in markdown.
    var stemHTML: String?
    var questionCode: String?
    var answer: AnswerView

    init(_ question: Question, language: String, revealKey: Bool) {
        stem = question.stem
        stemHTML = ClozeView.stemHTML(question)
        questionCode = question.code
        answer = AnswerView(question, language: language, response: nil, revealsKey: revealKey, reviewsResponse: false)
    }
}

/// A line of a scoreboard.
struct LiveScoreLine: Encodable {
    var place: Int
    var name: String
    var points: Int
    var correct: Int?
    var isYou: Bool
}

/// `GET /live/new`: the host's form.
struct LiveNewPage: Encodable {
    struct Exam: Encodable {
        var value: String
        var label: String
    }

    var exams: [Exam]
    /// The form's one-time token: the event is made once however often the form is sent.
    var formToken = SentOnce.newToken()

    init(regions: [RegionSummary]) {
        exams = regions.flatMap { region in
            region.exams.map { Exam(value: "\(region.code)/\($0.slug)", label: "\(region.name) · \($0.title)") }
        }
    }
}

/// `GET /live/{code}/host`: the code to share, who has joined, the start button.
struct LiveHostPage: Encodable {
    var code: String
    var title: String
    var examTitle: String
    var language: String
    var joinURL: String
    var started: Bool
    var phase: LivePhaseView
    var participants: [String]
    var count: Int
    var seconds: Int
    var results: [LiveScoreLine]
    var hasResults: Bool

    init(event: LiveEvent, participants: [LiveParticipant], results: [LiveResult], links joinURL: String, now: Date) {
        code = event.code
        title = event.title
        examTitle = event.examTitle
        language = event.examLanguage
        self.joinURL = joinURL
        started = event.startsAt != nil
        phase = LivePhaseView(event: event, now: now)
        self.participants = participants.map(\.nickname)
        count = participants.count
        seconds = event.secondsPerQuestion
        self.results = results.map { LiveScoreLine(place: $0.rank, name: $0.nickname, points: $0.points, correct: $0.correct, isYou: false) }
        hasResults = !results.isEmpty
    }
}

/// `GET /live/{code}`: joining, the open question, the reveal, the final ranking.
struct LivePlayPage: Encodable {
    var code: String
    var title: String
    var examTitle: String
    var language: String
    var joined: Bool
    var nickname: String
    var suggestedNickname: String
    /// Why the nickname typed was refused, shown beside the field.
    var nicknameError: String?
    var phase: LivePhaseView
    var question: LiveQuestionView?
    var answered: Bool
    var revealedRight = false
    var revealedWrong = false
    var revealedNone = false
    var canAnswer: Bool
    var index: Int
    var place: Int?
    var points: Int?
    var top: [LiveScoreLine]
    var results: [LiveScoreLine]
    var myResult: LiveScoreLine?
    var hasResults: Bool

    init(
        event: LiveEvent, participant: LiveParticipant?, answered correctness: Bool?, question: Question?, results: [LiveResult],
        standing: (place: Int, points: Int)?, top: [(nickname: String, points: Int)], signedInName: String?, now: Date
    ) {
        code = event.code
        title = event.title
        examTitle = event.examTitle
        language = event.examLanguage
        joined = participant != nil
        nickname = participant?.nickname ?? ""
        suggestedNickname = signedInName ?? ""
        let phase = LivePhaseView(event: event, now: now)
        self.phase = phase
        self.question = question.map { LiveQuestionView($0, language: event.examLanguage, revealKey: phase.reveal) }
        answered = correctness != nil
        canAnswer = joined && phase.open && !answered
        // Once the answer is shown, each player is told how their own answer did.
        if phase.reveal && joined {
            revealedRight = correctness == true
            revealedWrong = correctness == false
            revealedNone = correctness == nil
        }
        index = max(0, phase.number - 1)
        place = standing?.place
        points = standing?.points
        self.top = top.enumerated().map { LiveScoreLine(place: $0.offset + 1, name: $0.element.nickname, points: $0.element.points, isYou: $0.element.nickname == participant?.nickname) }
        self.results = results.map { LiveScoreLine(place: $0.rank, name: $0.nickname, points: $0.points, correct: $0.correct, isYou: $0.participantID == participant?.id) }
        myResult = self.results.first { $0.isYou }
        hasResults = !results.isEmpty
    }
}

/// `GET /live/{code}/screen`: the projector view.
struct LiveScreenPage: Encodable {
    var code: String
    var title: String
    var examTitle: String
    var language: String
    var joinURL: String
    var joined: Int
    var phase: LivePhaseView
    var question: LiveQuestionView?
    var top: [LiveScoreLine]
    var results: [LiveScoreLine]
    var hasResults: Bool
    /// The projector shows no site menu: nothing on the big screen but the event.
    let projector = true
    /// The join address as a QR code (SVG markup made here, never from input).
    var qrCode: String

    init(
        event: LiveEvent, question: Question?, results: [LiveResult], top: [(nickname: String, points: Int)], joined: Int, links joinURL: String,
        qrLabel: String, now: Date
    ) {
        code = event.code
        title = event.title
        examTitle = event.examTitle
        language = event.examLanguage
        self.joinURL = joinURL
        self.joined = joined
        let phase = LivePhaseView(event: event, now: now)
        self.phase = phase
        self.question = question.map { LiveQuestionView($0, language: event.examLanguage, revealKey: phase.reveal) }
        self.top = top.enumerated().map { LiveScoreLine(place: $0.offset + 1, name: $0.element.nickname, points: $0.element.points, isYou: false) }
        self.results = results.map { LiveScoreLine(place: $0.rank, name: $0.nickname, points: $0.points, correct: $0.correct, isYou: false) }
        hasResults = !results.isEmpty
        qrCode = QRCode(text: joinURL)?.svg(label: qrLabel) ?? ""
    }
}
