import Foundation
import HTTPServer

/// The JSON answers of the offline API (`/offline/…`, `/api/…`): one encoding — sorted keys,
/// slashes as they are, dates in ISO 8601 — and one shape for a problem, `{"error": "…"}`, with
/// `current` naming a newer URL where there is one.
enum APIResponse {
    struct Problem: Encodable {
        var error: String
        var current: String?
    }

    static func json(_ value: some Encodable, status: HTTPStatus = .ok, cache: String) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var response = Response.json(Array(try encoder.encode(value)), status: status)
        response.headers.set("Content-Type", "application/json; charset=utf-8")
        response.headers.add("Cache-Control", cache)
        return response
    }

    static func problem(_ message: String, status: HTTPStatus, current: String? = nil, cache: String = "no-store") -> Response {
        // A struct of two strings always encodes.
        (try? json(Problem(error: message, current: current), status: status, cache: cache)) ?? Response.text(message + "\n", status: status)
    }

    /// The 404 for an exam that is not in the catalogue.
    static func noExam(region: String, slug: String, pages: PageRenderer, locale: String, cache: String = "no-store") -> Response {
        problem(pages.message("error.no_exam", locale: locale, ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))]), status: .notFound, cache: cache)
    }
}
