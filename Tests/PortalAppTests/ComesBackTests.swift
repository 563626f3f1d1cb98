import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// After a practice answer the student learns when the question comes back, from the review
/// card the database has just scheduled for them.
@Suite("When a question comes back", .onTestThreads)
struct ComesBackTests {
    @Test("practice feedback says when the question is next due, as the database scheduled its card; a guest, who has no card, is told nothing")
    func saidAfterTheAnswer() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("kai")
        let (_, path) = try startSession(browser, count: "3")
        let form = try QuestionForm(try browser.request("GET", path))
        let answered = try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        let feedback = try browser.request("GET", redirectLocation(answered)).bodyText
        let due = try site.admin {
            try $0.query("SELECT c.due FROM review_cards c JOIN users u ON u.id = c.user_id WHERE u.username = 'kai' AND c.question_id = \(form.item.id)")
                .single().decode("due", as: Date.self)
        }
        // The student's zone is UTC: the card's day and time said as the page's reader would.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let now = site.clock.read()
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: due)).day ?? -1
        let minutes = Int((due.timeIntervalSince(now) / 60).rounded(.up))
        let said = try #require(feedback.range(of: #"<p class="comes-back">[^<]+</p>"#, options: .regularExpression).map { String(feedback[$0]) })
        switch days {
        case 0 where minutes < 60: #expect(said.contains("Back in \(minutes) minute"), "\(said) for \(due)")
        case 0: #expect(said.contains("Back today at "), "\(said) for \(due)")
        case 1: #expect(said.contains("Back tomorrow."), "\(said) for \(due)")
        default: #expect(said.contains("Back in \(days) days — "), "\(said) for \(due)")
        }

        let guest = site.browser()
        let (_, guestPath) = try startSession(guest, count: "3")
        let guestForm = try QuestionForm(try guest.request("GET", guestPath))
        let guestAnswer = try guest.request("POST", guestPath + "/answers", pairs: guestForm.pairs(guestForm.item.key))
        let guestFeedback = try guest.request("GET", redirectLocation(guestAnswer)).bodyText
        #expect(guestFeedback.contains(#"class="feedback"#) && !guestFeedback.contains("comes-back"))
    }
}
