import Glibc

/// Small facts about the machine and the clock.
public enum System {
    /// The number of online processors.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Monotonic nanoseconds, for timeouts and latency (never the wall clock).
    @inline(__always) static func monotonicNanos() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

extension Duration {
    var nanoseconds: UInt64 {
        let parts = components
        return UInt64(max(0, parts.seconds)) * 1_000_000_000 + UInt64(max(0, parts.attoseconds) / 1_000_000_000)
    }
}
