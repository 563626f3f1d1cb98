import Foundation
import TestSupport

/// The steps most page tests take on the way to what they test — a signed-in account, a
/// session started from the mini exam's page, a question page's form, a class — shared here so
/// no suite borrows another's.

extension MiniExam {
    /// The mini exam's page.
    public static let path = "/exams/\(region)/\(exam)"
}

extension PortalSite {
    /// A signed-in browser for a new account (`name`, its role); the account's id and the
    /// session's form token (`csrf-<name>`).
    public func account(_ name: String, role: String, displayName: String? = nil) throws -> (Browser, UUID, String) {
        let account = try database.makeAccount(name, role: role, displayName: displayName ?? name.capitalized, csrf: "csrf-" + name)
        let browser = self.browser()
        browser.cookies["portal_session"] = account.token
        return (browser, account.id, "csrf-" + name)
    }

    /// A signed-in admin ("chief", Chief Editor) and their form token.
    public func signedInAdmin() throws -> (Browser, String) {
        let (browser, _, csrf) = try account("chief", role: "admin", displayName: "Chief Editor")
        return (browser, csrf)
    }
}

/// Where a response sends the browser (its `Location`), or "".
public func redirectLocation(_ response: RawHTTPClient.Response) -> String { response.header("Location") ?? "" }

/// Starts a session from the mini exam page's form; returns the response and the session's path.
@discardableResult
public func startSession(
    _ browser: Browser, mode: String = "practice", count: String = "7", extra: [(String, String)] = [], domains: [String] = ["alpha", "beta"]
) throws -> (RawHTTPClient.Response, String) {
    let token = browser.csrfToken(from: try browser.request("GET", MiniExam.path))
    var pairs = [("csrf_token", token), ("region", MiniExam.region), ("exam", MiniExam.exam), ("mode", mode), ("count", count)]
    pairs += domains.map { ("domain", $0) } + extra
    let response = try browser.request("POST", "/sessions", pairs: pairs)
    let path = response.header("Location")?.replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: "") ?? ""
    return (response, path)
}

/// A class made over HTTP from the teacher's page; its id and join code.
public func makeClass(_ teacher: Browser, csrf: String, name: String = "Year 10 networking", school: String = "Liceo Galilei") throws -> (id: String, code: String) {
    let formToken = teacher.formToken(from: try teacher.request("GET", "/teach"))
    let created = try teacher.request("POST", "/teach/classes", form: ["csrf_token": csrf, "form_token": formToken, "name": name, "school": school])
    let id = String(redirectLocation(created).split(separator: "/").last ?? "")
    let page = try teacher.request("GET", "/teach/classes/\(id)").bodyText
    let marker = "<strong class=\"code\">"
    let code = page.range(of: marker).map { String(page[$0.upperBound...].prefix(8)) } ?? ""
    return (id, code)
}

/// The hidden fields of a mini exam question page's answer form.
public struct QuestionForm {
    public var token: String
    public var answerID: String
    public var item: MiniExam.Item
    public var shownAt: String

    public init(_ page: RawHTTPClient.Response) throws {
        let html = page.bodyText
        func field(_ name: String) throws -> String {
            let marker = "name=\"\(name)\" value=\""
            guard let range = html.range(of: marker) else { throw TestEnvironmentError("the page has no \(name) field") }
            return String(html[range.upperBound...].prefix { $0 != "\"" })
        }
        token = try field("csrf_token")
        answerID = try field("answer_id")
        let question = try field("question")
        guard let item = UUID(uuidString: question).flatMap(MiniExam.item) else { throw TestEnvironmentError("\(question) is not a mini exam question") }
        self.item = item
        shownAt = try field("shown_at")
    }

    /// The form's fields answering with `response` (option indexes; for ordering, the order).
    public func pairs(_ response: [Int], answerID: String? = nil) -> [(String, String)] {
        var pairs = [("csrf_token", token), ("answer_id", answerID ?? self.answerID), ("question", item.id.uuidString.lowercased()), ("shown_at", shownAt)]
        if item.kind == "ordering" {
            for (place, option) in response.enumerated() { pairs.append(("position_\(option)", String(place + 1))) }
        } else {
            pairs += response.map { ("choice", String($0)) }
        }
        return pairs
    }
}

/// A share link made over HTTP from the mini exam page's form (two easy alpha questions called
/// "Alpha warm-up", for a class when `classID` is given, which its pupils join by it; a field of
/// `extra` replaces the default of its name); the link's token.
public func makeLink(_ teacher: Browser, csrf: String, classID: String?, extra: [(String, String)] = []) throws -> String {
    var pairs = [("csrf_token", csrf), ("region", MiniExam.region), ("exam", MiniExam.exam), ("title", "Alpha warm-up"), ("mode", "practice"),
                 ("domain", "alpha"), ("difficulty_from", "1"), ("difficulty_to", "2"), ("count", "2")]
    if let classID { pairs += [("class", classID), ("joins_class", "on")] }
    let replaced = Set(extra.map(\.0))
    pairs = pairs.filter { !replaced.contains($0.0) } + extra
    let page = try teacher.request("POST", "/teach/links", pairs: pairs).bodyText
    guard let range = page.range(of: "/s/") else { return "" }
    return String(page[range.upperBound...].prefix(43))
}
