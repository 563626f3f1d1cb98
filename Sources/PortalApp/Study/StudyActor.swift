import ExamData
import Foundation
import HTTPServer

/// Whose study sessions a request works with: a signed-in student's, or a guest's, known to the
/// database only by the hash of a random cookie's token. Guests practise without an account;
/// nothing of theirs reaches review cards, the dashboard or a leaderboard.
struct StudyActor: Sendable {
    var user: SessionUser?
    /// A guest token just made, to set as a cookie on the response.
    var newGuestToken: String?

    var isGuest: Bool { user == nil }

    /// The actor behind a request; nil for a visitor without a guest cookie unless
    /// `createGuest`, which makes a token and has the request's database act as its holder.
    static func resolve(_ request: PortalRequest, settings: SessionSettings, createGuest: Bool) -> StudyActor? {
        if let user = request.user { return StudyActor(user: user) }
        if request.database.guestToken != nil { return StudyActor() }
        guard createGuest else { return nil }
        let token = Crypto.token()
        request.database.use(guestToken: token)
        return StudyActor(newGuestToken: token)
    }
}
