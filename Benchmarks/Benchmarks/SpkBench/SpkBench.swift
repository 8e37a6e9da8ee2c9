// spk's benchmarks: first-audio latency, run() cost, offline throughput against the engines
// themselves, and instances at once. Run them as BENCHMARKS.md says (release builds, the plugin
// bundles staged on LV2_PATH, the helper spk-engine-bench built beside this executable).
import Benchmark
import Foundation
import Glibc
import LV2Host
import SpkBenchSupport

let blockSizes = [64, 128, 256, 1024]
let instanceCounts = [1, 8, 16, 32, 64, 96, 128]
/// Two sentences (about five seconds), spoken over and over by every instance at once.
let instanceText = "The quick brown fox jumps over the lazy dog. Then it runs away into the woods and hides."

func metric(_ name: String, _ polarity: BenchmarkMetric.Polarity = .prefersSmaller) -> BenchmarkMetric {
    .custom(name, polarity: polarity, useScalingFactor: false)
}

func configuration(_ metrics: [BenchmarkMetric], iterations: Int, warmup: Int = 0, maxSeconds: Int = 900) -> Benchmark.Configuration {
    .init(metrics: metrics, timeUnits: .microseconds, units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, .count) }),
          warmupIterations: warmup, maxDuration: .seconds(maxSeconds), maxIterations: iterations)
}

/// lilv's world, loaded once from LV2_PATH.
let world = LV2World()

/// Offline lead-in and length per voice and text, made once.
final class Shapes: @unchecked Sendable {
    private var cache: [String: (leadIn: Int, length: Int)] = [:]
    func of(_ voice: BenchVoice, _ text: String) throws -> (leadIn: Int, length: Int) {
        let key = voice.identifier + "|" + text
        if let known = cache[key] { return known }
        let shape = try offlineShape(world: world, voice: voice, text: text)
        cache[key] = shape
        return shape
    }
}
let shapes = Shapes()

/// What a benchmark's setup makes and its closure uses.
final class Box<T>: @unchecked Sendable { var value: T?; init() {} }

/// After a cancel, the worker finishes the engine chunk it is making (flite: a whole sentence)
/// before it takes the next request: wait that out, so each request starts on an idle plugin.
func settle(_ voice: BenchVoice, _ text: String) -> Double {
    guard voice.engine == "flite", text == "paragraph" else { return 0.05 }
    return voice.name == "slt" ? 0.3 : 0.1
}

let benchmarks: @Sendable () -> Void = {
    // First audio: a request in block k, blocks until spk:Started, the request's first frame and
    // its first non-zero frame, and wall time to that frame. Live: worker thread, real-time pace.
    let started = metric("Started (blocks)"), firstFrame = metric("First frame (blocks)")
    let firstSound = metric("First sound (blocks)"), firstSoundTime = metric("First sound (us)")
    for voice in BenchVoice.all {
        for (textName, text) in BenchmarkTexts.firstAudio {
            for block in blockSizes {
                let probe = Box<LiveProbe>(), leadIn = Box<Int>()
                Benchmark("First audio \(voice.label) \(textName) \(block)",
                          configuration: configuration([started, firstFrame, firstSound, firstSoundTime], iterations: 200, warmup: 1)) { benchmark in
                    let rt = RealTimePriority.promote()
                    defer { if rt { RealTimePriority.demote() } }
                    let first = try probe.value!.firstAudio(ssml: text, voice: voice.identifier, settle: settle(voice, textName))
                    benchmark.measurement(started, first.startedBlocks ?? first.firstSoundBlocks)
                    benchmark.measurement(firstFrame, max(0, first.firstSoundFrames - leadIn.value!) / block)
                    benchmark.measurement(firstSound, first.firstSoundBlocks)
                    benchmark.measurement(firstSoundTime, Int(first.firstSoundSeconds * 1e6))
                } setup: {
                    leadIn.value = try shapes.of(voice, text).leadIn
                    probe.value = try LiveProbe(world: world, uri: voice.plugin, block: block)
                    try probe.value!.warmUp(ssml: text, voice: voice.identifier)
                } teardown: {
                    probe.value = nil
                }
            }
        }
    }

    // The engines' own first chunk (spk's adapter, and the C API), to judge first audio against.
    let adapterFirst = metric("Adapter first chunk (us)"), rawFirst = metric("C API first chunk (us)")
    for voice in BenchVoice.all {
        for (textName, text) in BenchmarkTexts.firstAudio {
            let helpers = Box<(raw: EngineHelper, adapter: EngineHelper, file: String)>()
            Benchmark("Engine first chunk \(voice.label) \(textName)",
                      configuration: configuration([adapterFirst, rawFirst], iterations: 200, warmup: 1)) { benchmark in
                let h = helpers.value!
                benchmark.measurement(adapterFirst, Int(try h.adapter.run("first \(h.file)").seconds * 1e6))
                benchmark.measurement(rawFirst, Int(try h.raw.run("first \(h.file)").seconds * 1e6))
            } setup: {
                helpers.value = (try EngineHelper(.raw, voice: voice.identifier), try EngineHelper(.adapter, voice: voice.identifier),
                                 try BenchFiles.write(text, name: "first-\(textName)"))
            } teardown: {
                helpers.value = nil
            }
        }
    }

    // run() while speaking: time per call and as a share of the period, allocations per call.
    let runTime = metric("run() (ns)"), runShare = metric("run() / budget (ppm)"), runAllocations = metric("Allocations per run()")
    let counter = Box<RunAllocationCounter>()
    for voice in BenchVoice.all {
        for block in blockSizes {
            let probe = Box<LiveProbe>()
            Benchmark("run() \(voice.label) \(block)",
                      configuration: configuration([runTime, runShare, runAllocations], iterations: 10, warmup: 1)) { benchmark in
                let rt = RealTimePriority.promote()
                defer { if rt { RealTimePriority.demote() } }
                let p = probe.value!
                let speaking = try p.whileSpeaking(ssml: BenchmarkTexts.firstAudio[2].text, voice: voice.identifier,
                                                   calls: Int(0.5 / p.period))
                for seconds in speaking.seconds {
                    benchmark.measurement(runTime, Int(seconds * 1e9))
                    benchmark.measurement(runShare, Int(seconds / p.period * 1e6))
                }
                for count in speaking.allocations { benchmark.measurement(runAllocations, count) }
            } setup: {
                if counter.value == nil {
                    guard let made = RunAllocationCounter.make() else {
                        throw HostError("the malloc interposer is not loaded: run through `swift package benchmark`, which preloads it")
                    }
                    counter.value = made
                }
                probe.value = try LiveProbe(world: world, uri: voice.plugin, block: block)
                probe.value!.allocations = counter.value
                try probe.value!.warmUp(ssml: BenchmarkTexts.firstAudio[2].text, voice: voice.identifier)
            } teardown: {
                probe.value = nil
            }
        }
    }

    // Throughput: 500 words offline through the plugin (at 48 kHz, and at the engine's own
    // rate), through spk's adapter and renderer without the plugin, through the engine's C API
    // and through its command line, alternately in each iteration.
    let plugin48 = metric("Plugin 48 kHz (ms)"), pluginNative = metric("Plugin engine rate (ms)")
    let renderer48 = metric("Renderer 48 kHz (ms)"), adapter = metric("Adapter (ms)"), raw = metric("C API (ms)")
    let cli = metric("Command line (ms)"), peer48 = metric("C API + soxr 48 kHz (ms)")
    let ratioPeer = metric("Plugin 48 kHz / C API + soxr (per mille)", .prefersLarger)
    let ratio48 = metric("Plugin 48 kHz / C API (per mille)", .prefersLarger)
    let ratioNative = metric("Plugin engine rate / C API (per mille)", .prefersLarger)
    let ratioAdapter = metric("Adapter / C API (per mille)", .prefersLarger)
    let ratioCLI = metric("Plugin 48 kHz / command line (per mille)", .prefersLarger)
    for voice in BenchVoice.all {
        final class Setup { var raw: EngineHelper; var adapter: EngineHelper; var at48: SpeechSynth; var native: SpeechSynth; var file: String
            init(raw: EngineHelper, adapter: EngineHelper, at48: SpeechSynth, native: SpeechSynth, file: String) {
                (self.raw, self.adapter, self.at48, self.native, self.file) = (raw, adapter, at48, native, file)
            }
        }
        let box = Box<Setup>()
        Benchmark("Throughput \(voice.label)",
                  configuration: configuration([plugin48, pluginNative, renderer48, adapter, raw, peer48, cli,
                                                ratio48, ratioNative, ratioPeer, ratioAdapter, ratioCLI],
                                               iterations: 15, warmup: 1)) { benchmark in
            let s = box.value!
            let text = BenchmarkTexts.fiveHundredWords
            let p48 = try timePluginRender(s.at48, text: text, voice: voice.identifier)
            let c = try s.raw.run("render \(s.file)").seconds
            let pN = try timePluginRender(s.native, text: text, voice: voice.identifier)
            let a = try s.adapter.run("render \(s.file)").seconds
            let r48 = try s.adapter.run("renderer \(s.file) 48000").seconds
            let peer = try s.raw.run("resampled \(s.file) 48000").seconds
            let command = try timeCommandLine(voice, file: s.file)
            for (m, seconds) in [(plugin48, p48), (pluginNative, pN), (renderer48, r48), (adapter, a), (raw, c), (peer48, peer), (cli, command)] {
                benchmark.measurement(m, Int(seconds * 1000))
            }
            benchmark.measurement(ratioPeer, Int(peer / p48 * 1000))
            benchmark.measurement(ratio48, Int(c / p48 * 1000))
            benchmark.measurement(ratioNative, Int(c / pN * 1000))
            benchmark.measurement(ratioAdapter, Int(c / a * 1000))
            benchmark.measurement(ratioCLI, Int(command / p48 * 1000))
        } setup: {
            let rawHelper = try EngineHelper(.raw, voice: voice.identifier)
            let adapterHelper = try EngineHelper(.adapter, voice: voice.identifier)
            box.value = Setup(raw: rawHelper, adapter: adapterHelper,
                              at48: try SpeechSynth(world: world, uri: voice.plugin, sampleRate: 48000, block: SpeechSynth.offlineBlock),
                              native: try SpeechSynth(world: world, uri: voice.plugin, sampleRate: adapterHelper.sampleRate, block: SpeechSynth.offlineBlock),
                              file: try BenchFiles.write(BenchmarkTexts.fiveHundredWords, name: "500-words"))
        } teardown: {
            if let file = box.value?.file { unlink(file) }
            box.value = nil
        }
    }

    // Instances speaking at once, all run() calls on one audio thread, 128-frame periods.
    let cycle = metric("All run() / budget (ppm)"), over = metric("Periods over budget"), stall = metric("Stall (frames)")
    let start = metric("Start (frames)"), late = metric("Late wake-ups")
    for voice in BenchVoice.all {
        for count in instanceCounts {
            Benchmark("Instances \(voice.label) \(count)",
                      configuration: configuration([cycle, over, stall, start, late], iterations: 1)) { benchmark in
                let length = try shapes.of(voice, instanceText).length
                let result = try InstanceLoad.run(world: world, voice: voice, count: count, text: instanceText, length: length,
                                                  block: 128, seconds: 10)
                for share in result.cycleShares { benchmark.measurement(cycle, Int(share * 1e6)) }
                benchmark.measurement(over, result.overBudget)
                for frames in result.stallFrames { benchmark.measurement(stall, max(0, frames)) }
                for frames in result.startFrames { benchmark.measurement(start, frames) }
                benchmark.measurement(late, result.lateWakeUps)
            }
        }
    }
}
