import ExamData
import Foundation
import HTTPServer
import QRCode
import QuestionEngine

/// `/me/rhythm`: how a student's reviews fall on their calendar — spread evenly or not, a
/// lighter or free day of the week, the time they study, holidays — and the calendar feed
/// that reminds them without an app. Every change that moves reviews reschedules their cards
/// from their history in the database; a holiday says what it cost.
struct StudyRhythmPages: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let estimates: WorkloadEstimates
    /// The portal sends mail: reminders by e-mail are offered.
    let mailEnabled: Bool

    struct Page: Encodable {
        struct Choice: Encodable {
            var value: String
            var label: String
            var selected: Bool
        }
        struct Weekday: Encodable {
            var field: String
            var name: String
            var choices: [Choice]
        }
        struct Holiday: Encodable {
            var id: String
            var dates: String
            var cost: String?
        }
        /// A feed address just made: shown once (only its hash is kept).
        struct NewFeed: Encodable {
            var https: String
            var webcal: String
            var qrCode: String
        }
        var balance: Bool
        var weekdays: [Weekday]
        var studyTime: String
        var today: String
        var latestStart: String
        var holidays: [Holiday]
        var hasHolidays = false
        var typedStart = ""
        var typedEnd = ""
        var feedSince: String?
        var newFeed: NewFeed?
        /// The feed form's one-time token: sent again, it makes no second address (which would
        /// end the one just shown).
        var feedFormToken = SentOnce.newToken()
        var estimates: WorkloadEstimates.View?
        /// Reminders by e-mail, when the portal sends mail.
        struct Reminders: Encodable {
            /// The account has a verified address to send them to.
            var hasAddress: Bool
            var choices: [Choice]
        }
        var reminders: Reminders?
        /// Devices that get reminders on the installed site.
        var pushDevices = 0
        var notice: String?
        var fieldErrors: [String: String] = [:]
    }

    /// `GET /me/rhythm`.
    func show(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let notice: String? = switch request.query["saved"] {
        case "week": "rhythm.saved_week"
        case "holiday": "rhythm.saved_holiday"
        case "removed": "rhythm.removed_holiday"
        case "feed-ended": "rhythm.feed_ended"
        case "reminders": "rhythm.saved_reminders"
        case "push-ended": "rhythm.push_ended"
        default: nil
        }
        return try render(request, user, notice: notice)
    }

    func render(
        _ request: PortalRequest, _ user: SessionUser, notice: String? = nil, fieldErrors: [String: String] = [:],
        typed: (start: String, end: String)? = nil, newFeed: Page.NewFeed? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        let locale = pages.locale(for: request)
        // Everything the page shows, in one transaction: the rhythm comes with the estimates' inputs.
        let mailEnabled = self.mailEnabled
        let read = try request.database.transaction { connection -> (WorkloadInputs, devices: Int, digest: (MailDigests.Frequency, Bool)?)? in
            guard let inputs = try StudyRhythmStore().workloadInputs(connection) else { return nil }
            let digest = mailEnabled ? (try MailDigests().frequency(connection), try EmailAddressStore().current(connection) != nil) : nil
            return (inputs, try PushReminders().devices(connection), digest)
        }
        guard let (inputs, devices, digest) = read else { throw PageRefusal(.notFound, "error.no_account") }
        let rhythm = inputs.rhythm
        let names = Self.weekdayNames(locale: locale)
        var page = Page(
            balance: rhythm.balance,
            weekdays: rhythm.week.enumerated().map { index, load in
                Page.Weekday(field: "day\(index + 1)", name: names[index], choices: StudyDayLoad.allCases.map { choice in
                    Page.Choice(value: String(choice.letter), label: pages.message("rhythm.load_\(choice.rawValue)", locale: locale), selected: choice == load)
                })
            },
            studyTime: rhythm.studyTime, today: rhythm.today,
            latestStart: LocalDates.midnight(of: rhythm.today).map { LocalDates.day(of: $0.addingTimeInterval(365 * 86_400)) } ?? rhythm.today,
            holidays: rhythm.holidays.map { holiday in
                Page.Holiday(
                    id: holiday.id.uuidString.lowercased(),
                    dates: pages.message("rhythm.holiday_dates", locale: locale, [
                        "from": LocalDates.day(holiday.startsOn, locale: locale), "to": LocalDates.day(holiday.endsOn, locale: locale),
                    ]),
                    cost: holiday.movedBefore + holiday.movedAfter == 0 ? nil : pages.message("rhythm.holiday_cost", locale: locale, [
                        "before": pages.message("rhythm.reviews", locale: locale, ["count": String(holiday.movedBefore)], count: Double(holiday.movedBefore)),
                        "after": pages.message("rhythm.reviews", locale: locale, ["count": String(holiday.movedAfter)], count: Double(holiday.movedAfter)),
                    ]))
            },
            typedStart: typed?.start ?? "", typedEnd: typed?.end ?? "",
            feedSince: rhythm.calendarFeedSince.map { LocalDates.dateTime($0, locale: locale, zone: TimeZone(identifier: rhythm.timeZone) ?? .gmt) },
            newFeed: newFeed, notice: notice.map { pages.message($0, locale: locale) }, fieldErrors: fieldErrors)
        page.hasHolidays = !page.holidays.isEmpty
        page.pushDevices = devices
        if let (frequency, hasAddress) = digest {
            page.reminders = Page.Reminders(hasAddress: hasAddress, choices: MailDigests.Frequency.allCases.map { choice in
                Page.Choice(value: choice.rawValue, label: pages.message("rhythm.digest_\(choice.rawValue)", locale: locale), selected: choice == frequency)
            })
        }
        page.estimates = estimates.view(for: user, inputs: inputs, locale: locale)
        return try pages.privatePage("me/rhythm", page, request, status: status)
    }

    /// The week's form: each day's load (`day1`…`day7`, by letter; nil for one not sent or not
    /// known), whether to spread reviews, and the time of day to study.
    struct WeekForm: PostedForm {
        let week: [StudyDayLoad?]
        let balance: Bool
        let studyTime: String

        init(_ form: FormReader) throws(PageRefusal) {
            week = (1...7).map { day in StudyDayLoad.allCases.first { String($0.letter) == form.optional("day\(day)") } }
            (balance, studyTime) = (form.isOn("balance"), form.text("study_time"))
        }
    }

    /// A holiday's first and last days, as typed (`YYYY-MM-DD`).
    struct HolidayForm: PostedForm {
        let start: String
        let end: String

        init(_ form: FormReader) throws(PageRefusal) {
            (start, end) = (form.quoted("starts_on", length: 10), form.quoted("ends_on", length: 10))
        }
    }

    /// `POST /me/rhythm`: spread, easy days, study time.
    func saveWeek(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(WeekForm.self)
        let (week, time) = (form.week, form.studyTime)
        var errors: [String: String] = [:]
        if week.contains(where: { $0 == nil }) { errors["week"] = pages.message("rhythm.week_invalid", for: request) }
        else if !week.contains(where: { $0 != StudyDayLoad.none }) { errors["week"] = pages.message("rhythm.week_all_off", for: request) }
        if !Self.isClockTime(time) { errors["study_time"] = pages.message("rhythm.time_invalid", for: request) }
        guard errors.isEmpty else { return try render(request, user, fieldErrors: errors, status: .unprocessableContent) }
        try request.database.transaction { connection in
            try StudyRhythmStore().save(balance: form.balance, week: week.compactMap { $0 }, studyTime: time, connection)
        }
        return .redirect(to: "/me/rhythm?saved=week#week")
    }

    /// `POST /me/holidays`.
    func addHoliday(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = try request.form(HolidayForm.self)
        let (start, end) = (form.start, form.end)
        let refuse = { (field: String, key: String) throws -> Response in
            try render(request, user, fieldErrors: [field: pages.message(key, for: request, ["days": String(StudyRhythmStore.longestHoliday)])],
                       typed: (start, end), status: .unprocessableContent)
        }
        guard Self.isDay(start) else { return try refuse("starts_on", "rhythm.holiday_date_invalid") }
        guard Self.isDay(end) else { return try refuse("ends_on", "rhythm.holiday_date_invalid") }
        let outcome = try request.database.transaction { try StudyRhythmStore().addHoliday(from: start, through: end, $0) }
        switch outcome {
        case .success: return .redirect(to: "/me/rhythm?saved=holiday#holidays")
        case .failure(.outOfOrder): return try refuse("ends_on", "rhythm.holiday_out_of_order")
        case .failure(.tooLong): return try refuse("ends_on", "rhythm.holiday_too_long")
        case .failure(.overlaps): return try refuse("starts_on", "rhythm.holiday_overlaps")
        case .failure(.tooMany): return try refuse("starts_on", "rhythm.holiday_too_many")
        }
    }

    /// `POST /me/holidays/{id}/remove`.
    func removeHoliday(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        guard try request.database.transaction({ try StudyRhythmStore().removeHoliday(id, $0) }) else {
            throw PageRefusal(.notFound, "rhythm.holiday_gone")
        }
        return .redirect(to: "/me/rhythm?saved=removed#holidays")
    }

    /// `POST /me/calendar`: a new secret address for the feed, shown once on this page.
    func startFeed(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let token = Crypto.token()
        let sent = try SentOnce.send(request) { connection -> String in
            try StudyRhythmStore().startCalendarFeed(token: token, connection)
            return "/me/rhythm#calendar"
        }
        // Sent again (its address was shown once), or a form from before tokens: the page, again.
        guard let sent, sent.madeNow else { return .redirect(to: sent?.location ?? "/me/rhythm#calendar") }
        let https = site.url("/calendar/\(token).ics", for: request.head, peer: request.http.remoteAddress)
        let webcal = "webcal://" + https.drop { $0 != ":" }.dropFirst(3)
        let feed = Page.NewFeed(
            https: https, webcal: webcal, qrCode: QRCode(text: webcal)?.svg(label: pages.message("rhythm.feed_qr", for: request)) ?? "")
        return try render(request, user, notice: "rhythm.feed_made", newFeed: feed)
    }

    /// `POST /me/calendar/end`.
    func endFeed(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try request.database.transaction { try StudyRhythmStore().endCalendarFeed($0) }
        return .redirect(to: "/me/rhythm?saved=feed-ended#calendar")
    }

    /// Monday … Sunday in `locale`.
    static func weekdayNames(locale: String) -> [String] {
        let symbols = LocalDates.formatter(locale: locale, zone: .gmt).standaloneWeekdaySymbols
        guard symbols.count == 7 else { return ["1", "2", "3", "4", "5", "6", "7"] }
        return Array(symbols[1...]) + [symbols[0]]
    }

    /// `HH:MM`, 00:00–23:59.
    static func isClockTime(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.utf8.count == 5, parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
              parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else { return false }
        return (0...23).contains(hour) && (0...59).contains(minute)
    }

    /// A real calendar day, `YYYY-MM-DD`.
    static func isDay(_ text: String) -> Bool {
        LocalDates.midnight(of: text).map { LocalDates.day(of: $0) == text } ?? false
    }
}
