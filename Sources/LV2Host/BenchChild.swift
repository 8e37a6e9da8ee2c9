import Foundation

/// A benchmark's peer in a process of its own (an engine called directly: espeak-ng is one per
/// process, and a plugin in the measuring process has claimed it). Started, the child answers
/// `ready RATE`; then it answers each command line with one line.
public final class BenchChild {
    /// The engine's sample rate, from the child's `ready` line.
    public private(set) var sampleRate: Double = 0
    private let name: String
    private let process = Process()
    private let toChild = Pipe(), fromChild = Pipe()
    private var buffered: [UInt8] = []

    public init(executable: URL, arguments: [String], name: String) throws {
        self.name = name
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = toChild
        process.standardOutput = fromChild
        try process.run()
        let ready = readLine()
        guard ready.hasPrefix("ready "), let rate = Double(ready.dropFirst(6)) else {
            throw HostError("\(name) did not start (\(ready.isEmpty ? "no answer" : ready))")
        }
        sampleRate = rate
    }

    deinit {
        try? toChild.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends one command line; the answer's words, or an error naming the child and the command.
    public func ask(_ command: String) throws -> [Substring] {
        toChild.fileHandleForWriting.write(Data((command + "\n").utf8))
        let answer = readLine()
        guard !answer.isEmpty else { throw HostError("\(name) gave no answer to '\(command)'") }
        return answer.split(separator: " ")
    }

    private func readLine() -> String {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let data = fromChild.fileHandleForReading.availableData
            if data.isEmpty { return String(decoding: buffered, as: UTF8.self) }
            buffered += data
        }
    }
}
