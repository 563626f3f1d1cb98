import ExamData
import Foundation
import HTTPServer
import Identifiers

/// How a date reads on the teaching pages, in the page's language.
private func dateText(_ date: Date?, locale: String) -> String? {
    date.map { date in
        let formatter = LocalDates.formatter(locale: locale, zone: .gmt)
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter.string(from: date) + " UTC"
    }
}

/// A share link in a list, with its state.
struct LinkRow: Encodable {
    var id: String
    var title: String
    var examTitle: String
    var modeLabel: String
    var count: Int
    var due: String?
    var expires: String?
    var revoked: Bool
    /// "2 attempts each", when limited.
    var attempts: String?
    /// "20 minutes", a mock assignment's own time limit.
    var timeLimit: String?

    init(_ link: ShareLinkSummary, pages: PageRenderer, locale: String) {
        timeLimit = link.timeLimitMinutes.map { pages.message("exam.minutes", locale: locale, ["count": String($0)], count: Double($0)) }
        attempts = link.attempts.map { pages.message("school.attempts_each", locale: locale, ["count": String($0)], count: Double($0)) }
        id = link.id.lowercasedText
        title = link.title
        examTitle = link.examTitle
        modeLabel = pages.message("sessions.mode.\(link.mode)", locale: locale)
        count = link.questionCount
        due = dateText(link.dueAt, locale: locale)
        expires = dateText(link.expiresAt, locale: locale)
        revoked = link.revokedAt != nil
    }
}

/// `GET /teach`.
struct TeachPage: Encodable {
    struct Class: Encodable {
        var id: String
        var name: String
        var school: String?
        var code: String
        var members: Int
    }

    var classes: [Class]
    var hasClasses: Bool
    var links: [LinkRow]
    var hasLinks: Bool
    /// The new-class form: its one-time token, and what was typed when it comes back refused.
    var formToken = SentOnce.newToken()
    var className = ""
    var schoolName = ""
    var nameError: String?
    var schoolError: String?

    init(classes: [ClassSummary], links: [ShareLinkSummary], pages: PageRenderer, locale: String) {
        self.classes = classes.map { Class(id: $0.id.lowercasedText, name: $0.name, school: $0.schoolName, code: $0.joinCode, members: $0.members) }
        hasClasses = !classes.isEmpty
        self.links = links.map { LinkRow($0, pages: pages, locale: locale) }
        hasLinks = !links.isEmpty
    }
}

/// `GET /teach/classes/{id}`.
struct ClassPage: Encodable {
    /// A row of the roster: one line a pupil, their page a tap away.
    struct Member: Encodable {
        var userID: String
        var name: String
        var username: String
        var href: String
        var lastActive: String
        var done: String
        var accuracy: String
    }

    /// A column of the roster the reader can sort by, and the link that does.
    struct SortColumn: Encodable {
        var label: String
        var href: String
        /// `aria-sort`'s value on the column sorted by, nil on the others.
        var sorted: String?
    }

    struct Attempt: Encodable {
        var name: String
        var href: String
        var finished: Bool
        var percent: String?
        var passed: Bool
        var minutes: String?
        /// Sessions started from the link: the attempts used.
        var started: Int
    }

    struct Missed: Encodable {
        var stem: String
        var wrong: Int
        var answered: Int
    }

    struct Assignment: Encodable {
        var link: LinkRow
        var attempts: [Attempt]
        var finishedCount: Int
        var memberCount: Int
        var hasAttempts: Bool
        /// The finished attempts' mean score, when there is one.
        var average: String?
        var missed: [Missed]
        var hasMissed: Bool

        init(link: ShareLinkSummary, attempts: [AssignmentAttempt], missed: [MissedQuestion], classHref: String, pages: PageRenderer, locale: String) {
            self.link = LinkRow(link, pages: pages, locale: locale)
            self.attempts = attempts.map { attempt in
                Attempt(
                    name: attempt.displayName, href: classHref + "/members/" + attempt.userID.lowercasedText, finished: attempt.finishedAt != nil,
                    percent: attempt.scorePercent.map { Percentages.format($0 / 100, locale: locale) }, passed: attempt.passed ?? false,
                    minutes: attempt.secondsUsed.map { String(format: "%.1f", Double($0) / 60) }, started: attempt.started)
            }
            finishedCount = attempts.filter { $0.finishedAt != nil }.count
            memberCount = attempts.count
            hasAttempts = !attempts.isEmpty
            let scores = attempts.compactMap(\.scorePercent)
            average = scores.isEmpty ? nil : Percentages.format(scores.reduce(0, +) / Double(scores.count) / 100, locale: locale)
            self.missed = missed.map { Missed(stem: String($0.stem.prefix(160)), wrong: $0.wrong, answered: $0.answered) }
            hasMissed = !missed.isEmpty
        }
    }

    struct Progress: Encodable {
        var name: String
        var exam: String
        var language: String
        var domain: String
        var answered: Int
        var percent: Int
    }

    struct Standing: Encodable {
        var place: Int
        var name: String
        var points: Int
        var sessions: Int
    }

    var id: String
    var name: String
    var school: String?
    var code: String
    var joinURL: String
    var members: [Member]
    var hasMembers: Bool
    var sortColumns: [SortColumn]
    var assignments: [Assignment]
    var hasAssignments: Bool
    var hasProgress: Bool
    /// The whole class's right answers by domain, as a chart and its figures.
    var progressChart: String?
    var classDomains: [ClassDomain]

    struct ClassDomain: Encodable {
        var title: String
        var language: String
        var percent: String
        var answered: Int
    }
    var standings: [Standing]
    var hasStandings = false
    /// Places shown on the class leaderboard.
    static let standingsShown = 10
    /// The form token of the teacher's session, for the remove buttons.
    var csrfToken: String
    /// The class is an LMS course's, whose platform lists its roster.
    var hasCourseRoster = false
    /// The accounts the teacher made for the class may appear on public leaderboards.
    var publicBoards = false

    init(_ reading: ClassReading, joinBase: String, csrfToken: String, sort: RosterSort, pages: PageRenderer, locale: String) {
        let (summary, progress, standings) = (reading.summary, reading.progress, reading.standings)
        let classHref = "/teach/classes/" + summary.id.lowercasedText
        let assignments = reading.links.map { link in
            Assignment(
                link: link, attempts: reading.attempts[link.id] ?? [], missed: reading.missed[link.id] ?? [], classHref: classHref, pages: pages,
                locale: locale)
        }
        (hasCourseRoster, publicBoards) = (reading.hasCourseRoster, reading.publicBoards)
        self.csrfToken = csrfToken
        id = summary.id.lowercasedText
        name = summary.name
        school = summary.schoolName
        code = summary.joinCode
        joinURL = joinBase + summary.joinCode
        let never = pages.message("school.never_active", locale: locale), none = pages.message("school.nothing_answered", locale: locale)
        members = sort.ordered(reading.roster).map { entry in
            Member(
                userID: entry.member.userID.lowercasedText, name: entry.member.displayName, username: entry.member.username,
                href: classHref + "/members/" + entry.member.userID.lowercasedText,
                lastActive: entry.lastActive.map { pages.ago($0, locale: locale) } ?? never,
                done: pages.message("school.done_count", locale: locale, ["done": String(entry.assignmentsDone), "total": String(reading.links.count)]),
                accuracy: entry.answered == 0 ? none
                    : pages.message("school.accuracy_value", locale: locale, [
                        "percent": Percentages.format(Double(entry.correct) / Double(entry.answered), locale: locale)]))
        }
        hasMembers = !members.isEmpty
        sortColumns = RosterSort.allCases.map { column in
            SortColumn(
                label: pages.message("school.roster_\(column.rawValue)", locale: locale),
                href: classHref + (column == .name ? "" : "?sort=\(column.rawValue)") + "#members-heading",
                sorted: column == sort ? (column == .name ? "ascending" : "descending") : nil)
        }
        self.assignments = assignments
        hasAssignments = !assignments.isEmpty
        hasProgress = !progress.isEmpty
        // The class as one: each domain's right answers over all its students' answers.
        var totals: [String: (title: String, language: String, answered: Int, correct: Int)] = [:], order: [String] = []
        let exams = Set(progress.map(\.examTitle)).count
        for row in progress {
            let key = row.examTitle + "|" + row.domainTitle
            if totals[key] == nil {
                order.append(key)
                totals[key] = (exams > 1 ? row.examTitle + " · " + row.domainTitle : row.domainTitle, row.language, 0, 0)
            }
            totals[key]!.answered += row.answered
            totals[key]!.correct += row.correct
        }
        let domains = order.compactMap { totals[$0] }.filter { $0.answered > 0 }.map { total in
            (title: total.title, language: total.language, answered: total.answered, share: Double(total.correct) / Double(total.answered))
        }
        classDomains = domains.map { ClassDomain(title: $0.title, language: $0.language, percent: Percentages.format($0.share, locale: locale), answered: $0.answered) }
        progressChart = domains.isEmpty ? nil : domains.min { $0.share < $1.share }.map { weakest in
            BarChartSVG.rows(
                domains.map { (label: $0.title, share: $0.share, figure: Percentages.format($0.share, locale: locale)) }, mark: nil, markLabel: "",
                title: pages.message("school.chart_title", locale: locale),
                description: pages.message("school.chart_summary", locale: locale, [
                    "domain": weakest.title, "percent": Percentages.format(weakest.share, locale: locale),
                ]),
                id: "class-domains")
        }
        // The leaders only: a board of forty with most at nought says nothing.
        self.standings = standings.filter { $0.points > 0 }.prefix(Self.standingsShown).enumerated().map {
            Standing(place: $0.offset + 1, name: $0.element.displayName, points: $0.element.points, sessions: $0.element.sessions)
        }
        hasStandings = !self.standings.isEmpty
    }
}

extension Accommodation: PostedForm {
    /// The extra time a form asks for (`multiplier`, and `extra_minutes` and `extra_attempts`:
    /// empty means none) and read-aloud (`reads_aloud`, a checkbox); refused when it is not one
    /// a teacher may give.
    init(_ form: FormReader) throws(PageRefusal) {
        let minutes = form.trimmed("extra_minutes"), attempts = form.trimmed("extra_attempts")
        guard let multiplier = Double(form.text("multiplier")), Self.multipliers.contains(multiplier),
              let extraMinutes = minutes.isEmpty ? 0 : Int(minutes), (0...Self.maximumExtraMinutes).contains(extraMinutes),
              let extraAttempts = attempts.isEmpty ? 0 : Int(attempts), (0...Self.maximumExtraAttempts).contains(extraAttempts)
        else { throw PageRefusal(.unprocessableContent, "school.bad_accommodation") }
        self.init(multiplier: multiplier, extraMinutes: extraMinutes, extraAttempts: extraAttempts, readsAloud: form.isOn("reads_aloud"))
    }
}

/// A student's extra time as the class page and the accounts page show it, with the choices of
/// the form that changes it.
struct AccommodationForm: Encodable {
    struct Choice: Encodable {
        var value: String
        var label: String
        var selected: Bool
    }

    /// "1.5× time, 10 extra minutes", or "None".
    var current: String
    var multipliers: [Choice]
    var extraMinutes: Int
    var extraAttempts: Int
    var readsAloud: Bool

    init(_ accommodation: Accommodation?, pages: PageRenderer, locale: String) {
        let given = accommodation ?? Accommodation(multiplier: 1, extraMinutes: 0)
        current = given.isNone
            ? pages.message("school.accommodation_none", locale: locale) : given.describe(pages: pages, locale: locale)
        multipliers = Accommodation.multipliers.map { multiplier in
            let text = Accommodation.text(multiplier)
            return Choice(value: text, label: "\(text)×", selected: multiplier == given.multiplier)
        }
        extraMinutes = given.extraMinutes
        extraAttempts = given.extraAttempts
        readsAloud = given.readsAloud
    }
}

extension Accommodation {
    /// A multiplier as a form and the page write it: 1, 1.25, 1.5, 2.
    static func text(_ multiplier: Double) -> String {
        multiplier == multiplier.rounded() ? String(Int(multiplier)) : String(multiplier)
    }

    /// "1.5× time, 10 extra minutes": the parts there are.
    func describe(pages: PageRenderer, locale: String) -> String {
        var parts: [String] = []
        if multiplier != 1 {
            parts.append(pages.message("school.accommodation_multiplier", locale: locale, ["multiplier": Self.text(multiplier)]))
        }
        if extraMinutes > 0 {
            parts.append(pages.message("school.accommodation_minutes", locale: locale, ["count": String(extraMinutes)], count: Double(extraMinutes)))
        }
        if extraAttempts > 0 {
            parts.append(pages.message("school.accommodation_attempts", locale: locale, ["count": String(extraAttempts)], count: Double(extraAttempts)))
        }
        if readsAloud { parts.append(pages.message("school.accommodation_read_aloud", locale: locale)) }
        return parts.joined(separator: ", ")
    }
}

/// The page that shows a new share link, the one time its token is known.
struct LinkCreatedPage: Encodable {
    var title: String
    var url: String
    var back: String
    /// `region/slug`: the exam page lists the links made for it this browser session.
    var examKey: String
    /// The link as a QR code (SVG markup made here, never from input).
    var qrCode: String
}

/// `GET /s/{token}`: what was shared, by whom, and how to start.
struct SharePage: Encodable {
    var title: String
    var examTitle: String
    var language: String
    var sharedBy: String
    var className: String?
    var modeLabel: String
    var count: Int
    var difficulty: String
    var domains: String?
    var due: String?
    /// "20 minutes", when the assignment sets its own time limit.
    var timeLimit: String?
    var joinsClass: Bool
    var signedIn: Bool
    var path: String
    var nextQuery: String
    var description: String
    /// "You have used 1 of your 3 attempts.", when the link limits them.
    var attempts: String?
    /// Whether the reader may start it (always, unless their attempts are used up).
    var canStart: Bool
    /// The start form's one-time token: sent again, it leads to the session the first send began.
    var formToken = SentOnce.newToken()

    init(
        link: SharedExam, domainTitles: [String: String], path: String, signedIn: Bool, attempts: (allowed: Int?, used: Int),
        pages: PageRenderer, locale: String
    ) {
        if let allowed = attempts.allowed {
            self.attempts = attempts.used >= allowed
                ? pages.message("school.attempts_used_up", locale: locale, ["count": String(allowed)], count: Double(allowed))
                : pages.message("school.attempts_used", locale: locale, ["used": String(attempts.used), "count": String(allowed)], count: Double(allowed))
        }
        canStart = attempts.allowed.map { attempts.used < $0 } ?? true
        title = link.title
        examTitle = link.examTitle
        language = link.examLanguage
        sharedBy = link.sharedBy
        className = link.className
        modeLabel = pages.message("sessions.mode.\(link.mode.rawValue)", locale: locale)
        count = link.questionCount
        difficulty = "\(link.difficulty.lowerBound)–\(link.difficulty.upperBound)"
        // Domains by their titles, as the exam page names them.
        domains = link.domains.isEmpty ? nil : link.domains.map { domainTitles[$0] ?? $0 }.joined(separator: ", ")
        due = dateText(link.dueAt, locale: locale)
        timeLimit = link.timeLimitMinutes.map { pages.message("exam.minutes", locale: locale, ["count": String($0)], count: Double($0)) }
        joinsClass = link.joinsClass
        self.signedIn = signedIn
        self.path = path
        nextQuery = LocalPath.escaped(path)
        description = pages.message(
            "school.share_description", locale: locale, ["who": link.sharedBy, "exam": link.examTitle, "count": String(link.questionCount)], count: Double(link.questionCount))
    }
}

/// `GET /join/{code}`.
struct JoinPage: Encodable {
    var code: String
    var name: String
    var teacher: String
    var school: String?
    var signedIn: Bool
}
