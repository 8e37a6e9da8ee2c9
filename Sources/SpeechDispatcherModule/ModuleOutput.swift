import Glibc
import Synchronization

/// The module's stdout to the server. Replies and events are written whole, one at a time, so
/// an event from the speaking thread never lands inside a multi-line reply.
public final class ModuleOutput: Sendable {
    private let lock = Mutex(())
    private let sink: @Sendable ([UInt8]) -> Void

    /// Writes to a file descriptor (stdout by default).
    public init(fd: Int32 = STDOUT_FILENO) {
        sink = { bytes in
            bytes.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                    if n < 0 { if errno == EINTR { continue }; return }
                    done += n
                }
            }
        }
    }

    /// Hands every message to `sink` (tests).
    public init(sink: @escaping @Sendable ([UInt8]) -> Void) { self.sink = sink }

    public func send(_ bytes: [UInt8]) { lock.withLock { _ in sink(bytes) } }

    /// One or more lines, each ended with LF.
    public func lines(_ lines: String...) { send(Array(lines.map { $0 + "\n" }.joined().utf8)) }
}

/// Messages for the server's log: the module's stderr.
public enum ModuleLog {
    public static func write(_ message: String) {
        let line = "sd_spk: \(message)\n"
        _ = line.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
    }
}
