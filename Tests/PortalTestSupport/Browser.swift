import Foundation
import TestSupport

/// A browser of sorts: keeps cookies, sends forms with their CSRF token.
public final class Browser {
    public let port: Int
    public var cookies: [String: String] = [:]
    public var origin: String?
    public var userAgent = "test-browser"

    public init(port: Int) { self.port = port }

    @discardableResult
    public func request(_ method: String, _ path: String, form: [String: String]? = nil, extraHeaders: String = "") throws -> RawHTTPClient.Response {
        try request(method, path, pairs: form.map { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }, extraHeaders: extraHeaders)
    }

    /// A file in a multipart form: its field, file name, type and bytes.
    public struct Upload {
        public var field: String
        public var filename: String
        public var contentType: String
        public var bytes: [UInt8]

        public init(field: String, filename: String, contentType: String, bytes: [UInt8]) {
            (self.field, self.filename, self.contentType, self.bytes) = (field, filename, contentType, bytes)
        }
    }

    /// A form sent as `multipart/form-data`, as a browser sends one with a file input.
    @discardableResult
    public func request(_ method: String, _ path: String, multipart form: [String: String], files: [Upload]) throws -> RawHTTPClient.Response {
        let boundary = "----portal-test-\(UUID().uuidString)"
        var body: [UInt8] = []
        for (name, value) in form.sorted(by: { $0.key < $1.key }) {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.field)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.contentType)\r\n\r\n".utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try request(method, path, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// A request whose form may repeat a field (checkboxes).
    @discardableResult
    public func request(_ method: String, _ path: String, pairs form: [(String, String)]?, extraHeaders: String = "") throws -> RawHTTPClient.Response {
        guard let form else { return try request(method, path, body: nil, contentType: nil, extraHeaders: extraHeaders) }
        let body = Array(form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&").utf8)
        return try request(method, path, body: body, contentType: "application/x-www-form-urlencoded", extraHeaders: extraHeaders)
    }

    /// A request carrying a JSON body, as a page's script sends one.
    @discardableResult
    public func request(_ method: String, _ path: String, json body: String, extraHeaders: String = "") throws -> RawHTTPClient.Response {
        try request(method, path, body: Array(body.utf8), contentType: "application/json", extraHeaders: extraHeaders)
    }

    /// A request with `body` of `contentType` (none without a body), its cookies kept.
    private func request(_ method: String, _ path: String, body: [UInt8]?, contentType: String?, extraHeaders: String = "") throws -> RawHTTPClient.Response {
        // A page waits as long as a patient reader would: on a 2-core machine running six tests at
        // once, a debug build's heavier pages (a sheet of 30 QR codes) take seconds.
        let client = try RawHTTPClient(port: port, timeout: 60)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nUser-Agent: \(userAgent)\r\n"
        if !cookies.isEmpty { head += "Cookie: " + cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") + "\r\n" }
        if let origin { head += "Origin: \(origin)\r\n" }
        head += extraHeaders
        if let body, let contentType { head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n" }
        client.send(Array((head + "\r\n").utf8) + (body ?? []))
        guard let response = client.readResponse() else { throw NoResponse(method: method, path: path) }
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let cookieName = String(pair[0]), cookieValue = pair.count > 1 ? String(pair[1]) : ""
            if value.contains("Max-Age=0") { cookies[cookieName] = nil } else { cookies[cookieName] = cookieValue }
        }
        return response
    }

    /// The CSRF token the page's forms carry.
    public func csrfToken(from page: RawHTTPClient.Response) -> String { hiddenValue("csrf_token", from: page) }

    /// The one-time token of the page's first form that makes something (`form_token`).
    public func formToken(from page: RawHTTPClient.Response) -> String { hiddenValue("form_token", from: page) }

    /// The value of the page's first field called `name` (empty when there is none).
    public func hiddenValue(_ name: String, from page: RawHTTPClient.Response) -> String {
        guard let range = page.bodyText.range(of: "name=\"\(name)\" value=\"") else { return "" }
        return String(page.bodyText[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Fetches `formPage`, then posts `form` to `action` with the page's tokens (its CSRF token,
    /// and its one-time form token when it has one).
    @discardableResult
    public func submit(_ formPage: String, to action: String, _ form: [String: String]) throws -> RawHTTPClient.Response {
        let page = try request("GET", formPage)
        var sent = form.merging(["csrf_token": csrfToken(from: page)]) { $1 }
        if form[SentOnceField.name] == nil, case let once = formToken(from: page), !once.isEmpty { sent[SentOnceField.name] = once }
        return try request("POST", action, form: sent)
    }

    @discardableResult
    public func register(_ username: String, password: String = "correct horse battery", timeZone: String = "UTC") throws -> RawHTTPClient.Response {
        // The form's zone list always sends a zone (the browser's, chosen by its script).
        try submit("/register", to: "/register", [
            "username": username, "display_name": username.capitalized, "password": password, "password_confirmation": password, "time_zone": timeZone])
    }

    @discardableResult
    public func login(_ username: String, password: String = "correct horse battery") throws -> RawHTTPClient.Response {
        try submit("/login", to: "/login", ["username": username, "password": password])
    }
}

/// The server closed the connection without answering.
public struct NoResponse: Error, CustomStringConvertible {
    public let method: String
    public let path: String
    public var description: String { "\(method) \(path): the server closed the connection without a response" }
}

/// The field that carries a form's one-time token.
enum SentOnceField {
    static let name = "form_token"
}
