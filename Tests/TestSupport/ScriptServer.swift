import Foundation
import Glibc

/// A test server written as a script (`Tests/Fixtures/…`), started on a free loopback port and
/// stopped by its process id when the value goes. The script writes its port to the file named
/// by its first argument.
public final class ScriptServer: @unchecked Sendable {
    public let pid: pid_t
    public let port: Int

    /// `interpreter`: a path, or a name found on `PATH`.
    public init(script: String, arguments: [String] = [], interpreter: String = "python3") throws {
        let portFile = NSTemporaryDirectory() + "script-server-port-\(UUID().uuidString)"
        let argv = ([interpreter, TestPaths.repository + "/Tests/Fixtures/" + script, portFile] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard withSignalsUnblocked({ posix_spawnp(&pid, interpreter, nil, &$0, argv, environ) }) == 0 else {
            throw TestEnvironmentError("\(interpreter) is needed for \(script): run scripts/deps.sh")
        }
        self.pid = pid
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: portFile) && Date() < deadline { usleep(20_000) }
        guard let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) else {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw TestEnvironmentError("\(script) did not start (its packages: scripts/deps.sh)")
        }
        self.port = port
        try? FileManager.default.removeItem(atPath: portFile)
    }

    deinit {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// Runs `spawn` with spawn attributes that start the child with no signal blocked: a test runs
/// on a pool thread whose blocked signals a child would inherit, and SIGTERM must reach it.
public func withSignalsUnblocked<Result>(_ spawn: (inout posix_spawnattr_t) -> Result) -> Result {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    return spawn(&attributes)
}
