import Glibc

/// Deadlines one period apart on the monotonic clock, like an audio interface's interrupts: a
/// host measuring a plugin live waits for each deadline before it runs the next block.
public struct PacedClock: Sendable {
    public let period: Double
    private var deadline: Double
    /// Deadlines that had already passed when they were waited for (the loop ran late).
    public private(set) var lateWakeUps = 0

    public init(period: Double) {
        self.period = period
        deadline = PacedClock.monotonic()
    }

    public var now: Double { PacedClock.monotonic() }

    /// Sleeps until the next deadline.
    public mutating func waitForNextPeriod() {
        deadline += period
        let late = now - deadline
        if late > 0 {
            lateWakeUps += 1
            if late > period * 4 { deadline = now }  // fell far behind (a busy machine): start over
            return
        }
        var target = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }

    public static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// Real-time scheduling for the calling thread, as real-time hosts give their audio thread
/// (JACK runs its process callback at SCHED_FIFO). Needs root or an rtprio limit.
public enum RealTimePriority {
    /// Switches the calling thread to SCHED_FIFO at `priority`; false when the system refuses.
    @discardableResult
    public static func promote(priority: Int32 = 70) -> Bool {
        var parameters = sched_param(sched_priority: priority)
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
    }

    /// Back to ordinary time sharing.
    public static func demote() {
        var parameters = sched_param(sched_priority: 0)
        _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &parameters)
    }
}

/// p50, p99 and max of a set of values (nearest rank).
public struct Percentiles: Sendable, Codable, Equatable {
    public var p50: Double, p99: Double, max: Double

    public init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ q: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)]
        }
        p50 = at(0.5)
        p99 = at(0.99)
        max = sorted.last ?? 0
    }
}
