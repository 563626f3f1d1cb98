import ExamData
import HTTPServer

/// Limits guessing short codes (class join codes, live-event codes): the unknown codes tried
/// from one client address in ten minutes, counted in the database so that every instance
/// shares the count. A classroom behind one address opening a real code never counts.
struct CodeGuessLimit: Sendable {
    let bucket: String
    let limit: Int
    let pages: PageRenderer
    static let windowSeconds = 600

    /// 429 with `Retry-After` when the address has used up its misses.
    func check(_ request: PortalRequest) throws {
        let wait = try request.database.run {
            try AccountStore().rateLimit(bucket, key: request.clientAddress, limit: limit, window: Self.windowSeconds, take: false, $0)
        }
        guard wait == 0 else { throw refusal(request, wait: wait) }
    }

    /// Counts one unknown code (outside any transaction that the miss will roll back).
    func miss(_ request: PortalRequest) throws {
        _ = try request.database.run {
            try AccountStore().rateLimit(bucket, key: request.clientAddress, limit: limit, window: Self.windowSeconds, take: true, $0)
        }
    }

    private func refusal(_ request: PortalRequest, wait: Int) -> HTTPError {
        let text = pages.message("error.too_many_codes", locale: pages.locale(for: request), ["minutes": String((wait + 59) / 60)])
        return HTTPError(.tooManyRequests, text, headers: ["Retry-After": String(wait)])
    }
}
