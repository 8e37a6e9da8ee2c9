import Foundation
import Glibc
import LV2Host

/// A voice the benchmarks measure, with the plugin that speaks it and the engine's own command
/// line for the same voice.
public struct BenchVoice: Sendable {
    public var identifier: String
    public var plugin: String
    /// The engine's command line speaking FILE to OUT (a WAV file) or to stdout.
    public var commandLine: @Sendable (_ file: String, _ out: String) -> (program: String, arguments: [String], stdoutFile: String?)

    public var engine: String { identifier.split(separator: ".")[1].description }
    public var name: String { identifier.split(separator: ".").dropFirst(2).joined(separator: ".") }
    /// Short label: `espeak-ng en-us`, `flite slt`.
    public var label: String { "\(engine) \(name)" }

    public static let espeakEnUS = BenchVoice(identifier: "spk.espeak-ng.en-us", plugin: "urn:spk:synth:espeak-ng") { file, out in
        ("espeak-ng", ["-v", "en-us", "-f", file, "--stdout"], out)
    }
    public static let fliteSLT = BenchVoice(identifier: "spk.flite.slt", plugin: "urn:spk:synth:flite") { file, out in
        ("flite", ["-voice", "slt", "-f", file, "-o", out], nil)
    }
    public static let fliteKal16 = BenchVoice(identifier: "spk.flite.kal16", plugin: "urn:spk:synth:flite") { file, out in
        ("flite", ["-voice", "kal16", "-f", file, "-o", out], nil)
    }
    public static let all = [espeakEnUS, fliteSLT, fliteKal16]
}

public enum BenchFiles {
    /// The directory of the running executable: the helper `spk-engine-bench` is built beside
    /// the benchmarks.
    public static var executableDirectory: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// A temporary file holding `text`, for the processes that read one.
    public static func write(_ text: String, name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spk-bench-\(getpid())-\(name).txt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    public static func scratchWAV(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("spk-bench-\(getpid())-\(name).wav").path
    }
}

/// `spk-engine-bench raw|adapter VOICE`: an engine called directly, in a process of its own.
public final class EngineHelper {
    private let child: BenchChild
    public var sampleRate: Double { child.sampleRate }

    public enum Mode: String { case raw, adapter }

    public init(_ mode: Mode, voice: String) throws {
        let helper = BenchFiles.executableDirectory + "/spk-engine-bench"
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            throw HostError("\(helper) is not built: build the Benchmarks package first (swift build -c release)")
        }
        child = try BenchChild(executable: URL(fileURLWithPath: helper), arguments: [mode.rawValue, voice],
                               name: "spk-engine-bench \(mode.rawValue) \(voice)")
    }

    /// Sends one command (`render FILE`, `first FILE`, `renderer FILE RATE`); the helper's own
    /// time for it in seconds, and the samples it made.
    public func run(_ command: String) throws -> (seconds: Double, samples: Int) {
        let answer = try child.ask(command)
        guard answer.count == 2, let seconds = Double(answer[0]), let samples = Int(answer[1]) else {
            throw HostError("spk-engine-bench failed on '\(command)'")
        }
        return (seconds, samples)
    }
}

/// Runs the engine's own command line to its end; wall time, process start included. Spawned
/// and waited for directly: Foundation's Process notices an exit only every 50 ms or so here.
public func timeCommandLine(_ voice: BenchVoice, file: String) throws -> Double {
    let out = BenchFiles.scratchWAV(voice.name)
    defer { unlink(out) }
    let (program, arguments, stdoutFile) = voice.commandLine(file, out)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdoutFile ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let start = PacedClock.monotonic()
    let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
    guard spawned == 0 else { throw HostError("cannot run \(program): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let seconds = PacedClock.monotonic() - start
    guard status == 0 else { throw HostError("\(program) failed (wait status \(status))") }
    return seconds
}

/// Renders `text` offline through the plugin (the worker inside run(), as `spkhost render`
/// does); seconds.
public func timePluginRender(_ synth: SpeechSynth, text: String, voice: String) throws -> Double {
    var sum: Float = 0
    let start = PacedClock.monotonic()
    _ = try synth.render(ssml: text, voice: voice) { sum += $0.first ?? 0 }
    let seconds = PacedClock.monotonic() - start
    withExtendedLifetime(sum) {}
    return seconds
}

/// Frames of silence before the engine's first sound for `text`, and the length of the request
/// from spk:Started to spk:Finished, rendered offline at 48 kHz.
public func offlineShape(world: LV2World, voice: BenchVoice, text: String) throws -> (leadIn: Int, length: Int) {
    let synth = try SpeechSynth(world: world, uri: voice.plugin, sampleRate: 48000, block: 1024)
    var frames = 0
    var leadIn: Int?
    let events = try synth.render(ssml: text, voice: voice.identifier) { audio in
        if leadIn == nil, let first = audio.firstIndex(where: { $0 != 0 }) { leadIn = frames + first }
        frames += audio.count
    }
    guard let finished = events.first(where: { if case .finished = $0.event { return true } else { return false } }) else {
        throw HostError("'\(text)' did not finish")
    }
    return (leadIn ?? 0, Int(finished.frame))
}
