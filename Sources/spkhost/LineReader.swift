import Glibc

/// Lines from standard input without blocking the caller for long: a terminal or a pipe.
struct LineReader {
    private var buffer: [UInt8] = []
    private(set) var closed = false

    /// Whether the input has ended and every line of it has been taken.
    var isFinished: Bool { closed && buffer.isEmpty }

    /// Waits up to `timeout` seconds for input and returns at most `limit` of the complete
    /// lines that arrived; the rest wait here, and nothing more is read while any wait, so a
    /// fast writer is held back by the pipe (backpressure) instead of lines being dropped.
    mutating func lines(timeout: Double, limit: Int = .max) -> [String] {
        guard limit > 0 else {
            usleep(UInt32(timeout * 1_000_000))
            return []
        }
        var lines = takeLines(limit)
        guard lines.isEmpty, !closed, !buffer.contains(UInt8(ascii: "\n")) else { return lines }
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = read(0, &chunk, chunk.count)
        if n <= 0 {
            closed = true
            if !buffer.isEmpty { buffer.append(UInt8(ascii: "\n")) }  // a last line without newline
        } else {
            buffer += chunk[..<n]
        }
        lines = takeLines(limit)
        return lines
    }

    private mutating func takeLines(_ limit: Int) -> [String] {
        var lines: [String] = []
        while lines.count < limit, let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        return lines
    }
}
