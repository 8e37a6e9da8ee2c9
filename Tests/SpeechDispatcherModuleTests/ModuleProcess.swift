import Foundation
import SpeechDispatcherModule
import XCTest

/// sd_spk run as speech-dispatcher runs it (commands on stdin, replies and events on stdout),
/// with a reader that keeps everything it says, in order.
final class ModuleProcess: @unchecked Sendable {
    enum Message: Equatable {
        case line(String)
        /// A 705 AUDIO event's PCM samples.
        case audio([Int16])
    }

    private let process = Process()
    private let input = Pipe(), output = Pipe()
    private let lock = NSLock()
    private var received: [Message] = []
    private var reader: Thread?

    init(environment: [String: String], config: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: ModuleFixture.sdSpk)
        process.arguments = config.map { [$0] } ?? []
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        let thread = Thread { [weak self] in
            var pending = Data()
            var header: [String] = []
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending.append(data)
                while let newline = pending.firstIndex(of: 0x0a) {
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[(newline + 1)...])
                    if line.starts(with: Array("705-AUDIO".utf8) + [0]) {
                        let bytes = AudioBlock.unescape(line.dropFirst(10))
                        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
                        self?.append(.audio(samples))
                        header = []
                    } else {
                        let text = String(decoding: line, as: UTF8.self)
                        if text.hasPrefix("705-") { header.append(text); continue }
                        if text == "705 AUDIO" { continue }
                        self?.append(.line(text))
                    }
                }
            }
        }
        reader = thread
        thread.start()
    }

    private func append(_ m: Message) {
        lock.lock(); received.append(m); lock.unlock()
    }

    var messages: [Message] { lock.lock(); defer { lock.unlock() }; return received }
    var lines: [String] { messages.compactMap { if case .line(let l) = $0 { l } else { nil } } }

    func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Waits up to `timeout` seconds for a message that satisfies `condition`.
    @discardableResult
    func wait(timeout: Double = 20, for condition: ([Message]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(messages) { return true }
            usleep(5_000)
        }
        return condition(messages)
    }

    func waitForLine(_ line: String, timeout: Double = 20) -> Bool {
        wait(timeout: timeout) { $0.contains(.line(line)) }
    }

    var exitStatus: Int32? {
        process.isRunning ? nil : process.terminationStatus
    }

    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return exitStatus
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            for _ in 0..<50 where process.isRunning { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    deinit { stop() }
}
