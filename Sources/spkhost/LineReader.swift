import Glibc

/// Lines from standard input without blocking the caller for long: a terminal or a pipe.
struct LineReader {
    private var buffer: [UInt8] = []
    private(set) var closed = false

    /// Waits up to `timeout` seconds for input and returns the complete lines that arrived.
    mutating func lines(timeout: Double) -> [String] {
        var lines = takeLines()
        guard lines.isEmpty, !closed else { return lines }
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
        lines = takeLines()
        return lines
    }

    private mutating func takeLines() -> [String] {
        var lines: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        return lines
    }
}
