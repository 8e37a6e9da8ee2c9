import ArgumentParser
import Foundation
import Glibc
import LV2Host
import SpkAudio

/// `spkhost bench-engine`: the engine behind a voice, called directly through its C API, with no
/// plugin in the process: the reference `bench` measures the plugin's offline throughput against.
///
/// It runs in a process of its own because espeak-ng is a process-wide singleton whose one synth
/// callback the plugin has claimed. The library is opened at run time (spkhost does not link the
/// engines; the plugins do). It reads a line per render from stdin and answers
/// `SECONDS SAMPLES RESAMPLE_SECONDS`, after a first line `ready SAMPLE_RATE`: the engine's time,
/// what it made, and what resampling that much audio to 48 kHz takes with the libsoxr setup the
/// plugin uses (SOXR_HQ, one thread, the renderer's 512-sample slices). The engine with that
/// resampling is the fair peer of the plugin at 48 kHz: no resampling host can beat it.
struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-engine", abstract: "Render a file with the engine's C API, timed (used by bench).", shouldDisplay: false)

    @Option(help: "Voice identifier.") var voice: String
    @Option(help: "Plain-text file to speak.") var input: String

    func run() throws {
        try failing {
            let engine = try DirectEngine(voice: voice)
            print("ready \(Int(engine.sampleRate))")
            fflush(stdout)
            while readLine() != nil {
                let start = PacedClock.monotonic()
                let samples = try engine.render(file: input)
                let rendered = PacedClock.monotonic() - start
                print(String(format: "%.6f %d %.6f", rendered, samples, try Self.resamplingSeconds(samples: samples, from: engine.sampleRate)))
                fflush(stdout)
            }
        }
    }

    /// What resampling `samples` samples to 48 kHz takes with the plugin's libsoxr setup.
    static func resamplingSeconds(samples: Int, from rate: Double) throws -> Double {
        // soxr's cost does not depend on what the samples are: as much audio as the engine made.
        let noise = (0..<512).map { _ in Float.random(in: -0.3...0.3) }
        let start = PacedClock.monotonic()
        let resampler = try Resampler(from: rate, to: 48000)
        var out: [Float] = []
        out.reserveCapacity(2048)
        for offset in stride(from: 0, to: samples, by: noise.count) {
            out.removeAll(keepingCapacity: true)
            try resampler.process(noise[..<min(noise.count, samples - offset)], final: offset + noise.count >= samples, into: &out)
        }
        return PacedClock.monotonic() - start
    }
}

/// espeak-ng or flite through the functions of their shared libraries.
struct DirectEngine {
    let sampleRate: Double
    let render: (String) throws -> Int

    func render(file: String) throws -> Int { try render(file) }

    init(voice: String) throws {
        let parts = voice.split(separator: ".", maxSplits: 2).map(String.init)
        guard parts.count == 3, parts[0] == "spk" else { throw HostError("voice '\(voice)' is not spk.<engine>.<name>") }
        switch parts[1] {
        case "espeak-ng": (sampleRate, render) = try Self.espeak(voice: parts[2])
        case "flite": (sampleRate, render) = try Self.flite(voice: parts[2])
        default: throw HostError("bench knows no direct C API for engine '\(parts[1])'")
        }
    }

    private static func open(_ library: String) throws -> UnsafeMutableRawPointer {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL) else {
            throw HostError("cannot open \(library): \(String(cString: dlerror()))")
        }
        return handle
    }

    private static func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, as: T.Type) throws -> T {
        guard let pointer = dlsym(handle, name) else { throw HostError("\(name) is missing from the engine's library") }
        return unsafeBitCast(pointer, to: T.self)
    }

    // espeak-ng: synchronous mode, 20 ms buffers and default parameters, as spk's adapter sets them;
    // the callback only counts what it is handed.
    private typealias EspeakCallback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutableRawPointer?) -> Int32

    private static func espeak(voice: String) throws -> (Double, (String) throws -> Int) {
        let library = try open("libespeak-ng.so.1")
        let initialize = try symbol(library, "espeak_Initialize", as: (@convention(c) (Int32, Int32, UnsafePointer<CChar>?, Int32) -> Int32).self)
        let setCallback = try symbol(library, "espeak_SetSynthCallback", as: (@convention(c) (EspeakCallback?) -> Void).self)
        let setVoice = try symbol(library, "espeak_SetVoiceByName", as: (@convention(c) (UnsafePointer<CChar>) -> Int32).self)
        let synth = try symbol(library, "espeak_Synth", as: (@convention(c) (UnsafeRawPointer, Int, UInt32, Int32, UInt32, UInt32,
                                                                             UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?) -> Int32).self)
        let synchronousOutput: Int32 = 2, dontExit: Int32 = 0x8000, positionCharacter: Int32 = 1, utf8: UInt32 = 1
        let rate = initialize(synchronousOutput, 20, nil, dontExit)
        guard rate > 0 else { throw HostError("espeak-ng could not start") }
        setCallback { _, count, _ in
            espeakSamples += Int(max(count, 0))
            return 0
        }
        guard setVoice(voice) == 0 else { throw HostError("espeak-ng has no voice '\(voice)'") }
        return (Double(rate), { path in
            let text = try String(contentsOfFile: path, encoding: .utf8)
            espeakSamples = 0
            let status = text.withCString { synth($0, strlen($0) + 1, 0, positionCharacter, 0, utf8, nil, nil) }
            guard status == 0 else { throw HostError("espeak_Synth failed (status \(status))") }
            return espeakSamples
        })
    }

    // flite: the voice's library registers it; flite_file_to_speech speaks a file utterance by
    // utterance, as flite's own command line does, and "none" discards the audio.
    private static func flite(voice: String) throws -> (Double, (String) throws -> Int) {
        let flite = try open("libflite.so.1")
        let voiceLibrary = try open("libflite_cmu_us_\(voice).so.1")
        let initialize = try symbol(flite, "flite_init", as: (@convention(c) () -> Int32).self)
        let register = try symbol(voiceLibrary, "register_cmu_us_\(voice)", as: (@convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?).self)
        let speakFile = try symbol(flite, "flite_file_to_speech", as: (@convention(c) (UnsafePointer<CChar>, OpaquePointer, UnsafePointer<CChar>) -> Float).self)
        _ = initialize()
        guard let handle = register(nil) else { throw HostError("flite could not register voice \(voice)") }
        // spk's flite engine delivers every voice at 16 kHz (kal's 8 kHz is raised to it).
        let rate = voice == "kal" ? 8000.0 : 16000.0
        return (16000, { path in Int((Double(speakFile(path, handle, "none")) * rate).rounded()) })
    }
}

nonisolated(unsafe) private var espeakSamples = 0
