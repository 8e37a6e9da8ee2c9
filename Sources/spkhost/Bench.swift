import ArgumentParser
import Foundation
import Glibc
import LV2Host
import SpkProtocol

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure how soon speech starts, what run() costs, and offline throughput, on this machine.",
        discussion: """
        The plugin runs as in a live host: its worker on its own thread, blocks paced at real \
        time (48 kHz) on a SCHED_FIFO thread where the system allows it. For each block size, \
        requests of three lengths are sent one at a time; blocks are counted from the block that \
        carried the request (1 = the very next block): to spk:Started, to the block holding the \
        request's first frame, and to its first non-zero frame (engines begin with some silence \
        of their own: espeak-ng with about 10 ms). run() is timed while speaking, as a share of \
        the block's time budget, and its allocations are counted when ordo-one's malloc \
        interposer can be preloaded (found beside spkhost, or named by SPK_MALLOC_INTERPOSER). \
        Throughput is an offline render of a fixed 500-word text through the plugin against the \
        same engine called directly through its C API (in a separate process), as a ratio of \
        their speeds (1 = as fast as the engine alone). For a neural voice the peer is Piper \
        itself, when SPK_PIPER_PEER names Benchmarks/piper-peer.py (after `piper-peer.py setup`): \
        each request is then also sent to Piper, in turns, and its first chunk's time shown beside \
        spk's; without it the neural voice is measured alone and throughput is skipped.
        """)

    @Option(help: "Voice identifier.") var voice: String?
    @Option(name: .customLong("block"), help: "Block size in frames (repeatable).") var blocks: [Int] = [64, 128, 256, 1024]
    @Option(help: "Requests per text and block size.") var requests: Int = 30
    @Option(help: "Offline renders of the 500-word text on each side of the throughput ratio (0 skips it).") var renders: Int = 3
    @Option(help: "Texts: 'standard' (a word, a sentence, a paragraph) or 'piper' (issue 21's rows: a word, a clause, sentences without and with a comma, a paragraph, 500 words).") var texts: String = "standard"
    @Flag(help: "Print JSON.") var json = false

    struct Row: Encodable {
        var voice: String
        var block: Int
        var text: String
        /// Blocks until the request's spk:Started.
        var startedBlocks: Percentiles
        /// Blocks until the block holding the request's first frame (its first non-zero frame
        /// less the engine's own lead-in silence, measured offline).
        var firstFrameBlocks: Percentiles
        /// Blocks until the first non-zero frame (the engine's own lead-in silence included).
        var firstAudioBlocks: Percentiles
        var firstAudioMs: Percentiles
        /// Every request's first-sound milliseconds, in order.
        var firstAudioMsValues: [Double]
        /// Piper itself on the same text, interleaved request by request (neural voices, with
        /// SPK_PIPER_PEER set): from `PiperVoice.synthesize` to its first audio chunk.
        var piperFirstAudioMs: Percentiles?
        var piperFirstAudioMsValues: [Double]?
        /// The engine's silence before its first sound, offline.
        var leadInMs: Double
        /// run() seconds while speaking, over the block's time budget.
        var runCostShare: Percentiles
        var runCalls: Int
        /// Allocations on the run() thread over every measured call; nil when they cannot be counted.
        var runAllocations: Int?
        /// Offline, 500 words at 48 kHz: the engine's C API time over the plugin's (1 = as fast).
        var throughputRatio: Double?
        /// The same with the plugin at the engine's own rate (no resampling).
        var throughputRatioNativeRate: Double?
        /// At 48 kHz against the fair peer: the engine's C API plus the same libsoxr resampling.
        var throughputRatioResampledPeer: Double?
        /// The seconds behind the ratios (medians): plugin at 48 kHz and at the engine's rate,
        /// engine alone, engine plus resampling. For a neural voice the engine is Piper.
        var throughputSeconds: Throughput.Seconds?
        var realTimeThread: Bool
    }

    func validate() throws {
        guard !blocks.isEmpty, blocks.allSatisfy({ (1...8192).contains($0) }) else { throw ValidationError("--block takes 1...8192") }
        guard requests > 0 else { throw ValidationError("--requests must be at least 1") }
        guard renders >= 0 else { throw ValidationError("--renders must be 0 or more") }
        guard ["standard", "piper"].contains(texts) else { throw ValidationError("--texts takes standard or piper") }
    }

    func run() throws {
        let counter = Self.allocationCounter()
        try failing {
            var input = RequestInput()
            input.voice = voice
            let uri = input.pluginURI
            let world = LV2World()
            let neural = voice?.hasPrefix("spk.neural.") ?? false
            let piper = neural ? try PiperPeer.start() : nil
            let textSet = texts == "piper" ? BenchmarkTexts.piperPeer : BenchmarkTexts.firstAudio
            // A neural voice's engine peer is Piper: without it there is nothing to compare with.
            let throughput = renders > 0 && (!neural || piper != nil)
                ? try Throughput.measure(world: world, uri: uri, voice: voice, renders: renders, piper: piper) : nil

            let realTime = RealTimePriority.promote()
            defer { if realTime { RealTimePriority.demote() } }
            var leadIns: [String: Int] = [:]
            for (name, text) in textSet { leadIns[name] = try Self.leadIn(world: world, uri: uri, text: text, voice: voice) }
            var rows: [Row] = []
            for block in blocks {
                let probe = try LiveProbe(world: world, uri: uri, block: block)
                probe.allocations = counter
                for (name, text) in textSet {
                    let leadIn = leadIns[name]!
                    try probe.warmUp(ssml: text, voice: voice)
                    var started: [Double] = [], firstFrame: [Double] = [], firstSound: [Double] = [], ms: [Double] = []
                    var allocations = 0, calls = 0
                    var piperMs: [Double] = []
                    if let piper { _ = try piper.firstSound(text) }
                    for _ in 0..<requests {
                        let first = try probe.firstAudio(ssml: text, voice: voice)
                        started.append(Double(first.startedBlocks ?? first.firstSoundBlocks))
                        firstFrame.append(Double(max(0, first.firstSoundFrames - leadIn) / block))
                        firstSound.append(Double(first.firstSoundBlocks))
                        ms.append(first.firstSoundSeconds * 1000)
                        allocations += first.runAllocations.reduce(0, +)
                        calls += first.runSeconds.count
                        if let piper { piperMs.append(try piper.firstSound(text) * 1000) }
                    }
                    let speaking = try probe.whileSpeaking(ssml: text, voice: voice, calls: max(200, Int(0.5 / probe.period)))
                    allocations += speaking.allocations.reduce(0, +)
                    rows.append(Row(voice: voice ?? "spk.espeak-ng.en-us", block: block, text: name,
                                    startedBlocks: Percentiles(started), firstFrameBlocks: Percentiles(firstFrame),
                                    firstAudioBlocks: Percentiles(firstSound), firstAudioMs: Percentiles(ms),
                                    firstAudioMsValues: ms,
                                    piperFirstAudioMs: piper == nil ? nil : Percentiles(piperMs),
                                    piperFirstAudioMsValues: piper == nil ? nil : piperMs,
                                    leadInMs: Double(leadIn) / 48,
                                    runCostShare: Percentiles(speaking.seconds.map { $0 / probe.period }),
                                    runCalls: speaking.seconds.count + calls,
                                    runAllocations: counter == nil ? nil : allocations,
                                    throughputRatio: throughput?.ratio, throughputRatioNativeRate: throughput?.nativeRatio,
                                    throughputRatioResampledPeer: throughput?.resampledPeerRatio, throughputSeconds: throughput?.seconds,
                                    realTimeThread: realTime))
                }
            }
            if json { return try printJSON(rows) }
            printTable(["BLOCK", "TEXT", "STARTED", "FIRST FRAME", "FIRST SOUND", "FIRST SOUND ms"] + (piper == nil ? [] : ["PIPER ms", "spk / PIPER"])
                       + ["LEAD-IN ms", "run() / BUDGET", "ALLOCATIONS"],
                       rows.map { r in
                           [String(r.block), r.text,
                            Self.blocks(r.startedBlocks), Self.blocks(r.firstFrameBlocks), Self.blocks(r.firstAudioBlocks),
                            String(format: "%.1f / %.1f", r.firstAudioMs.p50, r.firstAudioMs.p99)]
                           + (r.piperFirstAudioMs.map { p in
                               [String(format: "%.1f / %.1f", p.p50, p.p99), String(format: "%.2f / %.2f", r.firstAudioMs.p50 / p.p50, r.firstAudioMs.p99 / p.p99)]
                           } ?? []) + [
                            String(format: "%.1f", r.leadInMs),
                            String(format: "%.2f%% / %.2f%% / %.2f%%", r.runCostShare.p50 * 100, r.runCostShare.p99 * 100, r.runCostShare.max * 100),
                            r.runAllocations.map { "\($0) in \(r.runCalls) calls" } ?? "not counted"]
                       })
            print("blocks from the request (1 = the next block) p50 / p99 / max; ms and run() p50 / p99 (/ max); \(requests) requests each at 48 kHz; "
                  + (realTime ? "audio thread at SCHED_FIFO" : "audio thread at normal priority (SCHED_FIFO refused)"))
            if let t = throughput {
                print(String(format: "throughput, 500 words offline (median of %d): at the engine's own %.0f Hz the plugin runs at %.2f of the engine's C API (plugin %.3f s, engine %.3f s); at 48000 Hz at %.2f of the engine plus the same libsoxr resampling (plugin %.3f s, peer %.3f s = engine + %.3f s of resampling), %.2f of the engine alone",
                             renders, t.engineRate, t.nativeRatio, t.pluginNative, t.engine, t.resampledPeerRatio, t.plugin, t.engine + t.resampling, t.resampling, t.ratio))
            }
            if neural && piper == nil {
                print("Piper not compared (no throughput either): set \(PiperPeer.environment) to Benchmarks/piper-peer.py after `Benchmarks/piper-peer.py setup`")
            } else if piper != nil {
                print("PIPER ms: Piper 1.8.0 in its own process, PiperVoice.synthesize to its first chunk, interleaved with spk request by request; the engine in the throughput line is Piper")
            }
            if counter == nil {
                print("run() allocations not counted: preload libMallocInterposerSwift.so (or set SPK_MALLOC_INTERPOSER to it)")
            }
        }
    }

    private static func blocks(_ p: Percentiles) -> String { String(format: "%.0f / %.0f / %.0f", p.p50, p.p99, p.max) }

    /// The allocation counter. Without the malloc interposer in the process, bench runs itself
    /// again with it preloaded when it can find the library.
    private static func allocationCounter() -> RunAllocationCounter? {
        if let counter = RunAllocationCounter.make() { return counter }
        guard getenv("SPK_BENCH_PRELOADED") == nil, let library = RunAllocationCounter.interposerLibrary else { return nil }
        setenv("SPK_BENCH_PRELOADED", "1", 1)
        let preload = getenv("LD_PRELOAD").map { library + ":" + String(cString: $0) } ?? library
        setenv("LD_PRELOAD", preload, 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        return nil  // exec failed: go on without counting
    }

    /// Frames of silence before the engine's first sound for `text`, offline (where the worker
    /// works inside run(), so the request's first frame is frame 0).
    static func leadIn(world: LV2World, uri: String, text: String, voice: String?) throws -> Int {
        let synth = try SpeechSynth(world: world, uri: uri, sampleRate: 48000, block: 1024)
        let u = synth.plugin.urids.spk
        var frames = 0
        var send = true
        while frames < 48000 * 5 {
            try synth.runBlock(send: send ? { $0.speak(ssml: text, voice: voice, request: 1, u) } : nil) { _, _ in }
            send = false
            if let first = synth.output.firstIndex(where: { $0 != 0 }) { return frames + first }
            frames += synth.block
        }
        throw HostError("no sound in the first 5 s of '\(text)'")
    }
}

/// Offline throughput: the 500-word text rendered through the plugin (as `spkhost render` does,
/// in blocks of `SpeechSynth.offlineBlock`) against the engine's C API in a `spkhost
/// bench-engine` process, alternately.
struct Throughput {
    var plugin: Double, pluginNative: Double, engine: Double, resampling: Double, engineRate: Double
    var ratio: Double { engine / plugin }
    var nativeRatio: Double { engine / pluginNative }
    var resampledPeerRatio: Double { (engine + resampling) / plugin }

    struct Seconds: Encodable {
        var plugin, pluginNativeRate, engine, enginePlusResampling: Double
    }
    var seconds: Seconds { Seconds(plugin: plugin, pluginNativeRate: pluginNative, engine: engine, enginePlusResampling: engine + resampling) }

    static func measure(world: LV2World, uri: String, voice: String?, renders: Int, piper: PiperPeer? = nil) throws -> Throughput {
        let voiceID = voice ?? "spk.espeak-ng.en-us"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spk-bench-\(getpid()).txt")
        try BenchmarkTexts.fiveHundredWords.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // `spkhost bench-engine`: the engine's C API in a process of its own, a render per `go`;
        // for a neural voice, Piper in its own (which has no resampling of its own to add).
        let engine = piper != nil ? nil : try BenchChild(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                                         arguments: ["bench-engine", "--voice", voiceID, "--input", file.path], name: "the engine process")
        let engineRate = piper?.sampleRate ?? engine!.sampleRate
        func engineRender() throws -> (engine: Double, resampling: Double) {
            if let piper {
                let whole = try piper.whole(BenchmarkTexts.fiveHundredWords)
                return (whole.seconds, try BenchEngine.resamplingSeconds(samples: Int(whole.audio * engineRate), from: engineRate))
            }
            let answer = try engine!.ask("go")
            guard answer.count >= 3, let seconds = Double(answer[0]), let resampling = Double(answer[2]) else {
                throw HostError("the engine process failed (\(answer.joined(separator: " ")))")
            }
            return (seconds, resampling)
        }

        let atHostRate = try SpeechSynth(world: world, uri: uri, sampleRate: 48000, block: SpeechSynth.offlineBlock)
        let atEngineRate = try SpeechSynth(world: world, uri: uri, sampleRate: engineRate, block: SpeechSynth.offlineBlock)
        func render(_ synth: SpeechSynth, _ text: String) throws -> Double {
            let start = PacedClock.monotonic()
            var sum: Float = 0
            _ = try synth.render(ssml: text, voice: voice) { sum += $0.first ?? 0 }
            withExtendedLifetime(sum) {}
            return PacedClock.monotonic() - start
        }
        // Warm up each side once (voices loaded, caches filled).
        _ = try render(atHostRate, BenchmarkTexts.firstAudio[1].text)
        _ = try render(atEngineRate, BenchmarkTexts.firstAudio[1].text)
        _ = try engineRender()
        var plugin: [Double] = [], native: [Double] = [], direct: [Double] = [], resampling: [Double] = []
        for _ in 0..<renders {
            plugin.append(try render(atHostRate, BenchmarkTexts.fiveHundredWords))
            let peer = try engineRender()
            direct.append(peer.engine)
            resampling.append(peer.resampling)
            native.append(try render(atEngineRate, BenchmarkTexts.fiveHundredWords))
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        return Throughput(plugin: median(plugin), pluginNative: median(native), engine: median(direct),
                          resampling: median(resampling), engineRate: engineRate)
    }
}
