import Glibc

/// Runs a program to completion with the test's environment and returns its exit status.
/// (posix_spawn and waitpid directly: nothing else reaps the child, so the wait cannot miss it.)
public func runCommand(_ arguments: [String]) -> Int32 {
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let status = posix_spawnp(&pid, arguments[0], nil, nil, argv, environ)
    guard status == 0 else { return -1 }
    var exitStatus: Int32 = 0
    while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
    return exitStatus & 0x7f == 0 ? (exitStatus >> 8) & 0xff : -1
}
