import HTTPServer
import Testing
import TestSupport

@Suite("Forms, multipart and cookies", .onTestThreads)
struct BodyParsingTests {
    @Test("url-encoded forms decode plus signs, escapes and repeated names")
    func urlEncoded() {
        let form = FormFields(urlEncoded: "name=Ada+Lovelace&city=K%C3%B6ln&tag=a&tag=b&empty=&bad=%zz")
        #expect(form["name"] == "Ada Lovelace")
        #expect(form["city"] == "Köln")
        #expect(form.values("tag") == ["a", "b"])
        #expect(form["empty"] == "")
        #expect(form["bad"] == nil)
    }

    @Test("fields written url-encoded read back the same, a plus, ampersand or equals sign in a value included")
    func urlEncodedRoundTrip() {
        let fields = FormFields(fields: [("hint", "a+b&c=d"), ("city", "Köln"), ("url", "https://lms.example/x?y=1#z"), ("tag", "a"), ("tag", "b")])
        let text = fields.urlEncoded
        #expect(text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: " ") })
        let read = FormFields(urlEncoded: text)
        #expect(read.fields.map(\.name) == fields.fields.map(\.name) && read.fields.map(\.value) == fields.fields.map(\.value))
    }

    @Test("multipart bodies split into fields and files")
    func multipart() throws {
        let body = Array((
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n日本語\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"exam.json\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n"
                + "--XyZ--\r\n").utf8)
        let parts = try Multipart.parse(body: body, contentType: "multipart/form-data; boundary=XyZ")
        #expect(parts.count == 2)
        #expect(parts[0].name == "title")
        #expect(String(decoding: parts[0].data, as: UTF8.self) == "日本語")
        #expect(parts[1].filename == "exam.json")
        #expect(parts[1].contentType == "application/json")
        #expect(String(decoding: parts[1].data, as: UTF8.self) == "{\"a\":1}")
    }

    @Test("a multipart body without its closing boundary is a 400")
    func truncatedMultipart() {
        let body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue".utf8)
        #expect(throws: HTTPError.self) { try Multipart.parse(body: body, contentType: "multipart/form-data; boundary=XyZ") }
        #expect(throws: HTTPError.self) { try Multipart.parse(body: body, contentType: "multipart/form-data") }
    }

    @Test("cookies parse leniently: junk is skipped, never an error")
    func cookies() {
        let cookies = Cookies.parse(["session=abc; theme=\"dark\"; junk; =novalue; session=second", String(repeating: "x", count: 10_000)])
        #expect(cookies["session"] == "abc")
        #expect(cookies["theme"] == "dark")
        #expect(cookies.count == 2)
        // One cookie asked for by name is the one the dictionary holds, whatever surrounds it.
        let headers = ["  a = 1 ;;b=\"\";c=\"; d\u{00e9}j\u{00e0}=vu; e=\u{65e5}\u{672c}; a=2", "f=\t6\t; b=late"]
        let all = Cookies.parse(headers)
        #expect(all == ["a": "1", "b": "", "c": "\"", "e": "\u{65e5}\u{672c}", "f": "6"])
        for name in ["a", "b", "c", "e", "f", "d\u{00e9}j\u{00e0}", "missing"] {
            #expect(Cookies.value(name, in: headers) == all[name], "\(name)")
        }
    }
}
