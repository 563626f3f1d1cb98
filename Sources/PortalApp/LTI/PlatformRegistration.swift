import Foundation

/// A platform's registration as an admin or the owner gives it: checked the same way on the
/// admin page and on the command line.
struct PlatformRegistration: Sendable, Equatable {
    var issuer: String
    var clientID: String
    var deploymentIDs: [String]
    var authURL: String
    var tokenURL: String
    var jwksURL: String

    /// What is wrong: a message key (under `lti.admin_`) and its arguments.
    struct Problem: Equatable {
        var key: String
        var arguments: [String: String] = [:]
        /// The same in English for the command line, the field named by its flag.
        var commandLine: String {
            let flag = "--" + (arguments["field"] ?? "").replacingOccurrences(of: "_", with: "-")
            return key == "too_long" ? "\(flag) is too long" : "\(flag) must be an https:// address (http:// only for this machine)"
        }
    }

    var problem: Problem? {
        guard !issuer.isEmpty, !clientID.isEmpty, !deploymentIDs.isEmpty, !authURL.isEmpty, !tokenURL.isEmpty, !jwksURL.isEmpty else {
            return Problem(key: "missing")
        }
        if clientID.count > 200 { return Problem(key: "too_long", arguments: ["field": "client_id"]) }
        if deploymentIDs.contains(where: { $0.count > 200 }) { return Problem(key: "too_long", arguments: ["field": "deployment_id"]) }
        if issuer.count > 300 { return Problem(key: "too_long", arguments: ["field": "issuer"]) }
        // The platform's endpoints: HTTPS, or HTTP on this machine for a rehearsal.
        for (name, address) in [("issuer", issuer), ("auth_url", authURL), ("token_url", tokenURL), ("jwks_url", jwksURL)] {
            guard let parts = URLComponents(string: address), let host = parts.host, !host.isEmpty, !address.contains(where: \.isWhitespace),
                  parts.scheme == "https" || (parts.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host)) else {
                return Problem(key: "not_https", arguments: ["field": name])
            }
        }
        return nil
    }
}
