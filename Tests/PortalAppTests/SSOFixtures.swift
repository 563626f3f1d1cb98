import ExamData
import Foundation
import HTTPClient
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// An identity provider registered with the portal, as the single sign-on tests use it.
enum SSOFixtures {
    final class Setup {
        let lti: LTIFixtures.Setup
        var site: PortalSite { lti.site }
        var idp: String { lti.idp }

        /// `secret`: the client secret to register; empty registers the provider for the
        /// portal's own key (private_key_jwt).
        init(domains: String = "", secret: String = "sso-secret") throws {
            lti = try LTIFixtures.Setup()
            let (admin, csrf) = try site.signedInAdmin()
            let saved = try admin.request("POST", "/admin/sso/providers", form: [
                "csrf_token": csrf, "issuer": idp, "slug": "school", "label": "School Login", "client_id": "portal-sso", "client_secret": secret,
                "domains": domains, "teacher_claim": "groups", "teacher_values": "teachers, staff",
            ])
            #expect(saved.status == 303, "\(saved.bodyText.prefix(3000))")
            // The agent fetches the new provider's key set.
            #expect(lti.agent.runOnce().keySets == 1)
        }

        /// The provider's user for the next sign-in.
        func user(_ claims: [String: JSONValue]) throws { try lti.control("user", ["claims": .object(claims)]) }

        /// Begins at the portal and follows the provider's redirect: the callback's path.
        func begin(_ browser: Browser, _ start: String = "/auth/school?next=%2Fme") throws -> String {
            let started = try browser.request("GET", start)
            #expect(started.status == 302)
            let authorize = try lti.client.send("GET", try #require(started.header("Location")))
            #expect(authorize.status == 302, "\(String(decoding: authorize.body, as: UTF8.self))")
            let callback = try #require(authorize.header("Location"))
            return String(callback.dropFirst(lti.tool.count))
        }

        /// The provider's answer taken to its end: the callback hands the code to the agent and
        /// answers a page that comes back by itself (`Refresh`), as a browser does, until the
        /// sign-in is finished or refused.
        func complete(_ browser: Browser, _ callback: String) throws -> RawHTTPClient.Response {
            var answer = try browser.request("GET", callback)
            var tries = 0
            while answer.status == 202, let refresh = answer.header("Refresh"), tries < 6 {
                #expect(refresh == "1; url=/auth/school/finish")
                lti.agent.runOnce()
                answer = try browser.request("GET", "/auth/school/finish")
                tries += 1
            }
            return answer
        }

        func signIn(_ browser: Browser) throws -> RawHTTPClient.Response { try complete(browser, try begin(browser)) }
    }
}
