import ExamData
import Foundation
import HTTPServer

/// `GET /calendar/{token}.ics`: a student's reviews, exam days and assignment deadlines as an
/// iCalendar feed (RFC 5545) that a calendar application polls without signing in — the secret
/// token is the proof, checked by the database (`calendar_feed_data`), which keeps the text made
/// from the same facts so a poll between changes is a read. One event a day with reviews due,
/// at the student's study time, with an alarm; the exam days; class deadlines still ahead.
struct CalendarFeed: Sendable {
    let pages: PageRenderer
    let site: SiteAddress

    /// Days of reviews the feed looks ahead.
    static let days = 30

    /// A token as `Crypto.token()` makes it: 43 characters of base64url.
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43 && token.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }
    }

    func feed(_ request: PortalRequest, file: String) throws -> Response {
        let gone = PageRefusal(.notFound, "rhythm.feed_gone")
        guard file.hasSuffix(".ics"), case let token = String(file.dropLast(4)), Self.isWellFormed(token) else { throw gone }
        let store = StudyRhythmStore()
        let link = site.url("/me", for: request.head, peer: request.http.remoteAddress)
        let kept = try request.database.transaction { connection -> (body: String, tag: String, changed: Date)? in
            guard let facts = try store.calendarFacts(token: token, days: Self.days, connection) else { return nil }
            if facts.keptFor == facts.madeFor, let body = facts.kept, let changed = facts.changedAt {
                return (body, facts.madeFor, changed)
            }
            let body = render(facts, link: link)
            let changed = try store.keepCalendar(token: token, madeFor: facts.madeFor, body: body, connection) ?? Date()
            return (body, facts.madeFor, changed)
        }
        guard let kept else { throw gone }
        let etag = "\"\(kept.tag)\""
        // Calendar applications poll: they revalidate every time, and the answer is 304 until
        // the facts change.
        let headers: HTTPHeaders = [
            "Content-Type": "text/calendar; charset=utf-8", "ETag": etag, "Last-Modified": Self.httpDate(kept.changed),
            "Cache-Control": "private, no-cache",
        ]
        let unchanged = request.headers["If-None-Match"].map { StaticFiles.matches($0, etag: etag) }
            ?? request.headers["If-Modified-Since"].flatMap(Self.parseHTTPDate).map { kept.changed <= $0 } ?? false
        if unchanged { return Response(status: .notModified, headers: headers, body: .bytes([])) }
        return Response(status: .ok, headers: headers, body: .bytes(Array(kept.body.utf8)))
    }

    /// The feed's text for `facts`; `link` is where a review starts.
    func render(_ facts: CalendarFacts, link: String) -> String {
        let locale = facts.locale.flatMap { pages.templates.locales.contains($0) ? $0 : nil } ?? "en"
        let zone = TimeZone(identifier: facts.timeZone) ?? .gmt
        let stamp = ICalendarText.utc(facts.changedAt ?? Date(timeIntervalSince1970: 0))
        let owner = facts.user.uuidString.lowercased()
        var calendar = ICalendarText()
        calendar.line("BEGIN", "VCALENDAR")
        calendar.line("VERSION", "2.0")
        calendar.line("PRODID", "-//Study Portal//Study calendar//EN")
        calendar.line("CALSCALE", "GREGORIAN")
        calendar.line("METHOD", "PUBLISH")
        calendar.text("X-WR-CALNAME", pages.message("rhythm.feed_name", locale: locale))
        calendar.line("REFRESH-INTERVAL;VALUE=DURATION", "PT1H")
        calendar.line("X-PUBLISHED-TTL", "PT1H")
        for day in facts.days where day.reviews > 0 {
            guard let start = Self.moment(day: day.date, time: facts.studyTime, zone: zone) else { continue }
            let minutes = max(5, (day.reviews * facts.secondsPerReview + 59) / 60)
            let summary = pages.message("rhythm.feed_reviews", locale: locale, [
                "count": String(day.reviews), "minutes": String(minutes),
            ], count: Double(day.reviews))
            calendar.line("BEGIN", "VEVENT")
            calendar.line("UID", "review-\(day.date)-\(owner)@study-portal")
            calendar.line("DTSTAMP", stamp)
            calendar.line("DTSTART", ICalendarText.utc(start))
            calendar.line("DTEND", ICalendarText.utc(start.addingTimeInterval(Double(minutes) * 60)))
            calendar.text("SUMMARY", summary)
            calendar.text("DESCRIPTION", pages.message("rhythm.feed_reviews_why", locale: locale, ["link": link]))
            calendar.line("URL", link)
            calendar.line("TRANSP", "TRANSPARENT")
            calendar.alarm(summary, trigger: "PT0M")
            calendar.line("END", "VEVENT")
        }
        for exam in facts.exams {
            guard let day = LocalDates.midnight(of: exam.date) else { continue }
            let next = LocalDates.day(of: day.addingTimeInterval(86_400))
            let summary = pages.message("rhythm.feed_exam", locale: locale, ["exam": exam.title])
            calendar.line("BEGIN", "VEVENT")
            calendar.line("UID", "exam-\(exam.id)-\(owner)@study-portal")
            calendar.line("DTSTAMP", stamp)
            calendar.line("DTSTART;VALUE=DATE", ICalendarText.date(exam.date))
            calendar.line("DTEND;VALUE=DATE", ICalendarText.date(next))
            calendar.text("SUMMARY", summary)
            calendar.alarm(summary, trigger: "-PT12H")
            calendar.line("END", "VEVENT")
        }
        for deadline in facts.deadlines {
            let summary = pages.message("rhythm.feed_deadline", locale: locale, ["title": deadline.title, "class": deadline.class])
            calendar.line("BEGIN", "VEVENT")
            calendar.line("UID", "deadline-\(deadline.id.uuidString.lowercased())-\(owner)@study-portal")
            calendar.line("DTSTAMP", stamp)
            calendar.line("DTSTART", ICalendarText.utc(deadline.due.addingTimeInterval(-15 * 60)))
            calendar.line("DTEND", ICalendarText.utc(deadline.due))
            calendar.text("SUMMARY", summary)
            calendar.alarm(summary, trigger: "-P1D")
            calendar.line("END", "VEVENT")
        }
        calendar.line("END", "VCALENDAR")
        return calendar.text
    }

    /// `time` (`HH:MM`) on `day` (`YYYY-MM-DD`) in `zone`.
    static func moment(day: String, time: String, zone: TimeZone) -> Date? {
        let date = day.split(separator: "-").compactMap { Int($0) }, clock = time.split(separator: ":").compactMap { Int($0) }
        guard date.count == 3, clock.count == 2 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: date[0], month: date[1], day: date[2], hour: clock[0], minute: clock[1]))
    }

    private static func httpFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .gmt
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    /// An HTTP date (RFC 9110 §5.6.7): `Sat, 05 Dec 2026 17:00:00 GMT`.
    static func httpDate(_ date: Date) -> String { httpFormatter().string(from: date) }

    /// An HTTP date read back; nil for anything else.
    static func parseHTTPDate(_ text: String) -> Date? { httpFormatter().date(from: text) }
}
