import Foundation

/// A PostgreSQL cluster of its own, for a test that stops or restarts it without disturbing
/// others (`scripts/pg.sh` in a folder of its own).
public final class PrivateCluster {
    public let directory: String
    public let appURL: String
    public let adminURL: String

    public init() throws {
        let base = ProcessInfo.processInfo.environment["PORTAL_DATA_DIR"] ?? NSTemporaryDirectory()
        directory = base + "/restart-test-" + UUID().uuidString.prefix(8).lowercased()
        try Self.script("start", directory)
        // Started, the cluster is this object's to stop: one whose addresses cannot be read is
        // stopped here, not left running after the test that asked for it fails.
        do {
            let env = try String(contentsOfFile: directory + "/env", encoding: .utf8)
            func value(_ name: String) throws -> String {
                guard let line = env.split(separator: "\n").first(where: { $0.hasPrefix(name + "=") }) else {
                    throw TestEnvironmentError("scripts/pg.sh wrote no \(name)")
                }
                return String(line.dropFirst(name.count + 1))
            }
            appURL = try value("DATABASE_URL")
            adminURL = try value("DATABASE_ADMIN_URL")
        } catch {
            Self.remove(directory)
            throw error
        }
    }

    public func restart() throws { try Self.script("restart", directory) }
    public func stop() throws { try Self.script("stop", directory) }
    public func start() throws { try Self.script("start", directory) }

    public func destroy() { Self.remove(directory) }

    /// Stops the cluster in `directory` and removes it.
    static func remove(_ directory: String) {
        try? script("stop", directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func script(_ command: String, _ directory: String) throws {
        let status = runCommand(["/bin/bash", TestPaths.repository + "/scripts/pg.sh", command, directory])
        guard status == 0 else {
            throw TestEnvironmentError("scripts/pg.sh \(command) failed with status \(status)")
        }
    }
}
