import Foundation
import PortalApp
import PortalTestSupport
import TestSupport
import Testing

/// `/privacy` says what is stored, why, for how long (this installation's own retention) and
/// which cookies — in every language — and every page's footer leads to it.
@Suite("The privacy notice", .onTestThreads)
struct PrivacyNoticeTests {
    @Test("in each of the seven languages, with this installation's retention and cookies, linked from every page's footer, valid HTML")
    func notice() throws {
        let site = try PortalSite(environment: ["GUEST_RETENTION_DAYS": "45"])
        var pages: [(String, [UInt8])] = []
        let titles = ["en": "Privacy", "de": "Datenschutz", "es": "Privacidad", "it": "Informativa sulla privacy", "ja": "プライバシー", "th": "ความเป็นส่วนตัว", "zh": "隐私"]
        for (language, title) in titles {
            let page = try site.browser().request("GET", "/privacy", extraHeaders: "Accept-Language: \(language)\r\n")
            #expect(page.status == 200 && page.bodyText.contains("<h1>\(title)</h1>"), "\(language)")
            #expect(page.bodyText.contains("45"), "\(language): the retention configured here")
            for cookie in ["portal_session", "portal_csrf", "portal_guest", "portal_lang"] { #expect(page.bodyText.contains(cookie)) }
            #expect(page.bodyText.contains(#"href="/me/data.zip""#) && page.bodyText.contains(#"href="/me/delete""#))
            pages.append((language, page.body))
        }
        #expect(!(try site.browser().request("GET", "/privacy").bodyText.contains("e-mail address, if you add one")), "no word of e-mail where none is sent")
        #expect(try site.browser().request("GET", "/").bodyText.contains(#"<a href="/privacy">Privacy</a>"#))
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }
}
