import Foundation
import HTTPServer
import Testing
import TestSupport

@Suite("Routing", .onTestThreads)
struct RouterTests {
    private func head(_ method: HTTPMethod, _ path: String) -> RequestHead {
        RequestHead(
            method: method, target: path, path: path, query: "", version: .http1_1, headers: ["Host": "a"],
            keepAlive: true, expectsContinue: false, bodyFraming: .none)
    }

    private func call(_ router: Router, _ method: HTTPMethod, _ path: String) throws -> Response? {
        guard case .found(let endpoint) = router.match(method, path: path) else { return nil }
        return try endpoint.handler(Request(head: head(method, path), parameters: endpoint.parameters))
    }

    private func text(_ response: Response?) -> String? {
        guard let response, case .bytes(let bytes) = response.body else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("named parameters, literal segments and the root are told apart")
    func patterns() throws {
        var router = Router()
        router.get("/") { _ in .text("home") }
        router.get("/exams/:region/:exam") { request in .text("exam \(request.parameter("region")) \(request.parameter("exam"))") }
        router.get("/exams/:region/:exam/leaderboard") { request in .text("board \(request.parameter("exam"))") }
        #expect(text(try call(router, .GET, "/")) == "home")
        #expect(text(try call(router, .GET, "/exams/eu/aws")) == "exam eu aws")
        #expect(text(try call(router, .GET, "/exams/eu/aws/leaderboard")) == "board aws")
        #expect(try call(router, .GET, "/exams/eu") == nil)
        #expect(try call(router, .GET, "/exams//aws") == nil)
    }

    @Test("HEAD falls back to GET; other methods get 405 with the allowed list")
    func methods() {
        var router = Router()
        router.get("/sessions/:id") { _ in .text("session") }
        router.post("/sessions/:id") { _ in .text("answered") }
        guard case .found = router.match(.HEAD, path: "/sessions/1") else { Issue.record("HEAD did not fall back to GET"); return }
        guard case .methodNotAllowed(let allowed) = router.match(.DELETE, path: "/sessions/1") else { Issue.record("no 405"); return }
        #expect(allowed == [.GET, .HEAD, .POST])
    }

    @Test("a parameter typed (uuid) matches only a UUID: anything else is not found, before the handler")
    func typedParameters() throws {
        var router = Router()
        router.get("/sessions/:id(uuid)") { request in .text(request.uuid("id")?.uuidString.lowercased() ?? "no uuid") }
        router.get("/sessions/new") { _ in .text("the form") }
        let id = "6f1c2f2e-8a3d-4c57-9d1e-2b8f0f6a4c11"
        #expect(text(try call(router, .GET, "/sessions/\(id)")) == id)
        #expect(text(try call(router, .GET, "/sessions/\(id.uppercased())")) == id)
        #expect(text(try call(router, .GET, "/sessions/new")) == "the form", "a literal still wins")
        for malformed in ["/sessions/42", "/sessions/6f1c2f2e-8a3d-4c57-9d1e-2b8f0f6a4c1", "/sessions/%27%20OR%201=1", "/sessions/\(id)x"] {
            guard case .notFound = router.match(.GET, path: malformed) else { Issue.record("\(malformed) reached a handler"); continue }
        }
        #expect(router.descriptions.map(\.pattern) == ["/sessions/:id(uuid)", "/sessions/new"])
        // The router's own test of a UUID agrees with Foundation's reading on the near misses.
        let candidates = [
            id, id.uppercased(), String(id.dropLast()) + "g", String(id.dropLast()) + "G", id.replacingOccurrences(of: "-", with: ""),
            "{" + id + "}", id + "0", " " + id, String(id.prefix(8)) + "_" + String(id.dropFirst(9)), "6f1c2f2e-8a3d-4c57-9d1e-2b8f0f6a4c1é",
            "00000000-0000-0000-0000-000000000000", "6F1C2F2E-8A3D-4C57-9D1E-2B8F0F6A4C11", "6f1c2f2e-8a3d4-c57-9d1e-2b8f0f6a4c11",
        ]
        for candidate in candidates {
            let encoded = candidate.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))!
            let found: Bool
            if case .found = router.match(.GET, path: "/sessions/" + encoded) { found = true } else { found = false }
            #expect(found == (UUID(uuidString: candidate) != nil), "\(candidate): the router says \(found)")
        }
    }

    @Test("__Host- cookies are Secure with Path=/ by construction")
    func hostCookie() {
        let cookie = SetCookie(name: "__Host-session", value: "t", secure: true)
        #expect(cookie.headerValue == "__Host-session=t; Path=/; HttpOnly; Secure; SameSite=Lax")
        #expect(SetCookie.expired(name: "session").headerValue == "session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
    }
}
