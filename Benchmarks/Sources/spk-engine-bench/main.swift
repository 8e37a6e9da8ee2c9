// spk-engine-bench: an engine called directly, timed, for the Benchmarks' throughput and
// first-chunk references. It never loads a plugin: espeak-ng is a process-wide singleton whose
// one synth callback the plugin (or spk's adapter) claims, so each way of calling an engine
// gets a process of its own.
//
//   spk-engine-bench raw VOICE       the engine's C API (espeak_Synth; flite_file_to_speech)
//   spk-engine-bench adapter VOICE   spk's SpeechEngines adapter (EspeakEngine, FliteEngine)
//
// It prints `ready RATE` (the rate the adapter delivers), then answers each line on stdin:
//   render FILE          speak the file's text whole:      SECONDS SAMPLES
//   first FILE           time until the first audio chunk: SECONDS SAMPLES
//   renderer FILE RATE   (adapter) spk's ProgramRenderer: SSML, the adapter, resampling to RATE
//   resampled FILE RATE  the text whole, then as much audio resampled to RATE with the libsoxr
//                        setup spk uses (SOXR_HQ, 512-sample slices): the plugin's fair peer at
//                        a host rate, which no resampling host can beat
import CEspeakNG
import CFlite
import Glibc
import SpeechEngines
import SpkAudio
import SpkProtocol

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func fail(_ message: String) -> Never {
    fputs("spk-engine-bench: \(message)\n", stderr)
    exit(1)
}

func readText(_ path: String) -> String {
    guard let file = fopen(path, "r") else { fail("cannot read \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes += buffer[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// One way of calling an engine.
protocol Runner {
    var sampleRate: Double { get }
    /// Speaks `text` whole; the samples made.
    func render(_ text: String) throws -> Int
    /// Speaks `text` until its first chunk of audio; the samples in it.
    func first(_ text: String) throws -> Int
    func renderer(_ text: String, rate: Double) throws -> Int
}

// MARK: the C APIs

nonisolated(unsafe) var espeakSamples = 0
nonisolated(unsafe) var espeakStopAtFirst = false

struct RawEspeak: Runner {
    let sampleRate: Double
    init(voice: String) {
        // As spk's adapter: synchronous, 20 ms buffers, espeak's default rate and pitch.
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 20, nil, espeakINITIALIZE_DONT_EXIT)
        guard rate > 0 else { fail("espeak-ng could not start") }
        sampleRate = Double(rate)
        espeak_SetSynthCallback { _, count, _ in
            espeakSamples += Int(max(count, 0))
            return espeakStopAtFirst && espeakSamples > 0 ? 1 : 0
        }
        guard espeak_SetVoiceByName(voice) == EE_OK else { fail("espeak-ng has no voice \(voice)") }
    }
    private func synth(_ text: String, stopAtFirst: Bool) throws -> Int {
        espeakSamples = 0
        espeakStopAtFirst = stopAtFirst
        let status = text.withCString { espeak_Synth($0, strlen($0) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil) }
        guard status == EE_OK || (stopAtFirst && espeakSamples > 0) else { throw SpeechError("espeak_Synth: \(status.rawValue)") }
        return espeakSamples
    }
    func render(_ text: String) throws -> Int { try synth(text, stopAtFirst: false) }
    func first(_ text: String) throws -> Int { try synth(text, stopAtFirst: true) }
    func renderer(_ text: String, rate: Double) throws -> Int { throw SpeechError("renderer is an adapter command") }
}

struct RawFlite: Runner {
    let sampleRate: Double
    let voice: UnsafeMutablePointer<cst_voice>
    let rate: Double
    init(voice name: String) {
        flite_init()
        let registers: [String: (UnsafePointer<CChar>?) -> UnsafeMutablePointer<cst_voice>?] = [
            "slt": register_cmu_us_slt, "awb": register_cmu_us_awb, "rms": register_cmu_us_rms,
            "kal16": register_cmu_us_kal16, "kal": register_cmu_us_kal,
        ]
        guard let register = registers[name], let voice = register(nil) else { fail("flite has no voice \(name)") }
        self.voice = voice
        rate = name == "kal" ? 8000 : 16000
        sampleRate = 16000
    }
    /// The whole text utterance by utterance, as flite's command line speaks a file.
    func render(_ text: String) throws -> Int {
        let path = "/tmp/spk-engine-bench-\(getpid()).txt"
        guard let file = fopen(path, "w") else { throw SpeechError("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
        defer { unlink(path) }
        return Int((Double(flite_file_to_speech(path, voice, "none")) * rate).rounded())
    }
    /// flite makes its first audio once the first utterance (sentence) is synthesized.
    func first(_ text: String) throws -> Int {
        let sentence = text.firstRange(of: ". ").map { String(text[..<$0.upperBound]) } ?? text
        return Int((Double(flite_text_to_speech(sentence, voice, "none")) * rate).rounded())
    }
    func renderer(_ text: String, rate: Double) throws -> Int { throw SpeechError("renderer is an adapter command") }
}

// MARK: spk's adapters

struct Adapter: Runner {
    let engine: SpeechEngine
    let voice: Voice
    var sampleRate: Double { engine.sampleRate }
    init(voice identifier: String) {
        do {
            engine = identifier.hasPrefix("spk.flite.") ? try FliteEngine.shared() : try EspeakEngine.shared()
            voice = try engine.requireVoice(named: identifier)
        } catch {
            fail("\(error)")
        }
    }
    func render(_ text: String) throws -> Int {
        var samples = 0
        try engine.synthesize(SynthesisText(text: text), voice: voice, prosody: EngineProsody()) { chunk in
            samples += chunk.samples.count
            return true
        }
        return samples
    }
    func first(_ text: String) throws -> Int {
        var samples = 0
        try engine.synthesize(SynthesisText(text: text), voice: voice, prosody: EngineProsody()) { chunk in
            samples += chunk.samples.count
            return samples == 0
        }
        return samples
    }
    /// What the plugin's worker does with a request, without the plugin: SSML, the adapter,
    /// resampling to the host rate.
    func renderer(_ text: String, rate: Double) throws -> Int {
        let renderer = try ProgramRenderer(request: SpeechRequest(id: 1, ssml: text, voice: voice.identifier),
                                           engine: engine, outputRate: rate, defaultVoice: voice.identifier)
        var frames = 0
        while !renderer.isFinished {
            try renderer.next { chunk in frames += chunk.samples.count }
        }
        return frames
    }
}

// MARK: main

let arguments = CommandLine.arguments
guard arguments.count == 3, ["raw", "adapter"].contains(arguments[1]) else {
    fputs("usage: spk-engine-bench raw|adapter VOICE (spk.espeak-ng.en-us, spk.flite.slt, ...)\n", stderr)
    exit(2)
}
let identifier = arguments[2]
let runner: Runner
if arguments[1] == "adapter" {
    runner = Adapter(voice: identifier)
} else if identifier.hasPrefix("spk.espeak-ng.") {
    runner = RawEspeak(voice: String(identifier.dropFirst("spk.espeak-ng.".count)))
} else if identifier.hasPrefix("spk.flite.") {
    runner = RawFlite(voice: String(identifier.dropFirst("spk.flite.".count)))
} else {
    fail("no engine for \(identifier)")
}
print("ready \(Int(runner.sampleRate))")
fflush(stdout)
var texts: [String: String] = [:]
while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    guard words.count >= 2 else { fail("bad command '\(line)'") }
    let text = texts[words[1]] ?? readText(words[1])
    texts[words[1]] = text
    let start = now()
    let samples: Int
    do {
        switch words[0] {
        case "render": samples = try runner.render(text)
        case "first": samples = try runner.first(text)
        case "renderer" where words.count == 3: samples = try runner.renderer(text, rate: Double(words[2]) ?? 48000)
        case "resampled" where words.count == 3:
            samples = try runner.render(text)
            // soxr's cost does not depend on what the samples are: as much audio as the engine made.
            let resampler = try Resampler(from: runner.sampleRate, to: Double(words[2]) ?? 48000)
            let slice = [Float](repeating: 0.1, count: 512)
            var out: [Float] = []
            for offset in stride(from: 0, to: samples, by: slice.count) {
                out.removeAll(keepingCapacity: true)
                try resampler.process(slice[..<min(slice.count, samples - offset)], final: offset + slice.count >= samples, into: &out)
            }
        default: fail("bad command '\(line)'")
        }
    } catch {
        fail("\(error)")
    }
    print("\(now() - start) \(samples)")
    fflush(stdout)
}
