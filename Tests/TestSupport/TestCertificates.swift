import Foundation

/// A certificate authority made for one test and two server certificates it signed: `local`
/// for 127.0.0.1 and localhost, `other` for example.org (a certificate for another name).
public final class TestCertificates: @unchecked Sendable {
    public let folder = NSTemporaryDirectory() + "certificates-\(UUID().uuidString)"
    /// The authority's certificate (PEM), to trust.
    public var authority: String { folder + "/ca.pem" }
    /// The certificate and key for 127.0.0.1 and localhost.
    public var local: (cert: String, key: String) { (folder + "/local.pem", folder + "/local.key") }
    /// The certificate and key for example.org.
    public var other: (cert: String, key: String) { (folder + "/other.pem", folder + "/other.key") }

    public init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func openssl(_ arguments: [String]) throws {
            guard runCommand(["openssl"] + arguments) == 0 else { throw TestEnvironmentError("openssl \(arguments.first ?? "") failed: run scripts/deps.sh") }
        }
        try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test authority",
                     "-keyout", folder + "/ca.key", "-out", authority])
        for (name, names) in [("local", "IP:127.0.0.1,DNS:localhost"), ("other", "DNS:example.org")] {
            try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(name)", "-keyout", folder + "/\(name).key", "-out", folder + "/\(name).csr"])
            try String("subjectAltName=\(names)\n").write(toFile: folder + "/\(name).ext", atomically: true, encoding: .utf8)
            try openssl(["x509", "-req", "-in", folder + "/\(name).csr", "-CA", authority, "-CAkey", folder + "/ca.key", "-CAcreateserial",
                         "-days", "2", "-extfile", folder + "/\(name).ext", "-out", folder + "/\(name).pem"])
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
