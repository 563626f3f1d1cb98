import ExamData
import Foundation
import PostgresClient

/// `portal lti …`: registering platforms and rotating the tool's key, as the owner role.
enum LTICommands {
    static let usage = """
        usage: portal lti add-platform --issuer URL --client-id ID --deployment-id ID [--deployment-id ID …] --auth-url URL --token-url URL --jwks-url URL
               portal lti rotate-key
        """

    static func run(_ configuration: PortalConfiguration, arguments: [String]) throws {
        guard let url = configuration.databaseAdminURL else { throw ConfigurationError("set DATABASE_ADMIN_URL (the owner role) for portal lti") }
        switch arguments.first {
        case "add-platform": try addPlatform(try PostgresConnection(url: url), arguments: Array(arguments.dropFirst()))
        case "rotate-key":
            let (kid, key) = try LTIKeys.newKey()
            let (modulus, exponent) = key.publicComponents
            try LTIStore().rotate(kid: kid, pem: key.pem, modulus: modulus, exponent: exponent, try PostgresConnection(url: url))
            print("lti: key \(kid) signs from now on; the previous one stays published for a week")
        default: throw ConfigurationError(usage)
        }
    }

    static func addPlatform(_ connection: PostgresConnection, arguments: [String]) throws {
        var values: [String: String] = [:], deployments: [String] = []
        var rest = ArraySlice(arguments)
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst(), ["--issuer", "--client-id", "--deployment-id", "--auth-url", "--token-url", "--jwks-url"].contains(flag) else {
                throw ConfigurationError(usage)
            }
            if flag == "--deployment-id" { deployments.append(value) } else { values[flag] = value }
        }
        let registration = PlatformRegistration(
            issuer: values["--issuer"] ?? "", clientID: values["--client-id"] ?? "", deploymentIDs: deployments, authURL: values["--auth-url"] ?? "",
            tokenURL: values["--token-url"] ?? "", jwksURL: values["--jwks-url"] ?? "")
        if let problem = registration.problem { throw ConfigurationError(problem.key == "missing" ? usage : problem.commandLine) }
        let (issuer, clientID) = (registration.issuer, registration.clientID)
        let added = try connection.withTransaction { connection -> Bool in
            let saved = try LTIStore().addPlatform(
                issuer: issuer, clientID: clientID, authURL: registration.authURL, tokenURL: registration.tokenURL, jwksURL: registration.jwksURL,
                deploymentIDs: deployments, connection)
            if saved.changed {
                try AdminStore().audit(
                    actorName: "portal lti", action: "lti.platform", target: issuer,
                    details: ["client_id": clientID, "deployments": deployments.joined(separator: ","), "new": String(saved.added)], at: Date(), connection)
            }
            return saved.added
        }
        print("lti: \(added ? "registered" : "already registered, deployments added to") \(issuer) (client \(clientID)); deployments \(deployments.joined(separator: ", "))")
    }
}
