import ArgumentParser
import Foundation
import LV2Host
import SpkProtocol

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure how soon speech starts and what run() costs, on this machine.",
        discussion: """
        The plugin runs as in a live host: its worker on its own thread, blocks paced at real \
        time (48 kHz). For each block size, requests of three lengths are sent one at a time; \
        first audio is counted from the block that carried the request (1 = the very next block). \
        run() is timed while speaking, as a share of the block's time budget.
        """)

    @Option(help: "Voice identifier.") var voice: String?
    @Option(name: .customLong("block"), help: "Block size in frames (repeatable).") var blocks: [Int] = [64, 128, 256, 1024]
    @Option(help: "Requests per text and block size.") var requests: Int = 30
    @Flag(help: "Print JSON.") var json = false

    struct Row: Encodable {
        var voice: String
        var block: Int
        var text: String
        /// Blocks until the request's audio starts (its spk:Started frame).
        var startBlocks: Percentiles
        /// Blocks until the first non-zero frame (the engine's own lead-in silence included).
        var firstAudioBlocks: Percentiles
        var firstAudioMs: Percentiles
        var runCostShare: Percentiles
    }

    static let texts = [
        ("word", "Hello."),
        ("sentence", "The quick brown fox jumps over the lazy dog."),
        ("paragraph", String(repeating: "Speech synthesis turns written text into sound, one sentence after another, for as long as there is text. ", count: 6)),
    ]

    func run() throws {
        try failing {
            var input = RequestInput()
            input.voice = voice
            let world = LV2World()
            var rows: [Row] = []
            for block in blocks {
                let probe = try FirstAudioProbe(world: world, uri: input.pluginURI, block: block)
                for (name, text) in Self.texts {
                    let result = try probe.measure(text: text, voice: voice, requests: requests)
                    rows.append(Row(voice: voice ?? "default", block: block, text: name,
                                    startBlocks: Percentiles(result.startBlocks.map(Double.init)),
                                    firstAudioBlocks: Percentiles(result.blocks.map(Double.init)),
                                    firstAudioMs: Percentiles(result.milliseconds),
                                    runCostShare: Percentiles(result.runShares)))
                }
            }
            if json { return try printJSON(rows) }
            printTable(["BLOCK", "TEXT", "STARTED (blocks p50/p99/max)", "FIRST SOUND (blocks p50/p99/max)", "FIRST SOUND (ms p50/p99)", "run() share of budget (p50/p99/max)"],
                       rows.map { r in
                           [String(r.block), r.text,
                            String(format: "%.0f / %.0f / %.0f", r.startBlocks.p50, r.startBlocks.p99, r.startBlocks.max),
                            String(format: "%.0f / %.0f / %.0f", r.firstAudioBlocks.p50, r.firstAudioBlocks.p99, r.firstAudioBlocks.max),
                            String(format: "%.2f / %.2f", r.firstAudioMs.p50, r.firstAudioMs.p99),
                            String(format: "%.3f%% / %.3f%% / %.3f%%", r.runCostShare.p50 * 100, r.runCostShare.p99 * 100, r.runCostShare.max * 100)]
                       })
        }
    }
}

struct Percentiles: Encodable {
    var p50: Double, p99: Double, max: Double
    init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ q: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))] }
        p50 = at(0.5)
        p99 = at(0.99)
        max = sorted.last ?? 0
    }
}

/// A synth run as a live host runs it, block by block at real-time pace, to see when speech starts.
final class FirstAudioProbe {
    let plugin: PluginInstance
    let block: Int
    private var next: Int64 = 1
    private var u: SpkURIDs { plugin.urids.spk }
    private let period: Double

    init(world: LV2World, uri: String, block: Int) throws {
        plugin = try PluginInstance(world: world, uri: uri, sampleRate: 48000, maxBlock: block, live: true)
        self.block = block
        period = Double(block) / 48000
        plugin.activate()
    }

    struct Result {
        var startBlocks: [Int] = []
        var blocks: [Int] = []
        var milliseconds: [Double] = []
        var runShares: [Double] = []
    }

    func measure(text: String, voice: String?, requests: Int) throws -> Result {
        var result = Result()
        let out = plugin.audio[try plugin.port("out").index]!
        var clock = PacedClock(period: period)
        try warmUp(text: text, voice: voice, clock: &clock)
        for _ in 0..<requests {
            let id = next
            next += 1
            let sent = clock.now
            var blocks = 0
            var error: String?
            var started: Int?
            func watch(_ event: SpkEvent) {
                if case .error(id, let message) = event { error = message }
                if case .started(id) = event, started == nil { started = blocks }
            }
            try runBlock(&clock, send: { $0.speak(ssml: text, voice: voice, request: id, self.u) }, onEvent: watch)
            while true {
                blocks += 1
                let cost = try runBlock(&clock, onEvent: watch)
                if let error { throw HostError(error) }
                if let first = (0..<block).first(where: { out[$0] != 0 }) {
                    result.blocks.append(blocks)
                    result.startBlocks.append(started ?? blocks)
                    result.milliseconds.append((clock.now - sent) * 1000 + Double(first) / 48)
                    result.runShares.append(cost / period)
                    break
                }
                if blocks > Int(5 / period) { throw HostError("no audio 5 s after the request") }
            }
            // Speaking: time run() for a while, then stop and let the plugin fall silent.
            for _ in 0..<Int(0.1 / period) { result.runShares.append(try runBlock(&clock) / period) }
            try runBlock(&clock) { $0.cancel(request: nil, self.u) }
            for _ in 0..<4 { try runBlock(&clock) }
        }
        return result
    }

    private func warmUp(text: String, voice: String?, clock: inout PacedClock) throws {
        try runBlock(&clock) { $0.speak(ssml: text, voice: voice, request: 0, self.u) }
        for _ in 0..<Int(0.3 / period) { try runBlock(&clock) }
        try runBlock(&clock) { $0.cancel(request: nil, self.u) }
        for _ in 0..<8 { try runBlock(&clock) }
    }

    /// One block at its real-time deadline; returns the seconds run() took.
    @discardableResult
    private func runBlock(_ clock: inout PacedClock, send: ((inout AtomWriter) -> Void)? = nil,
                          onEvent: (SpkEvent) -> Void = { _ in }) throws -> Double {
        clock.waitForNextPeriod()
        plugin.prepareAtomPorts()
        if let send { try plugin.writeEvents(to: "control") { w in w.frameTime(0); send(&w) } }
        let start = clock.now
        plugin.run(block)
        let cost = clock.now - start
        try plugin.forEachOutputEvent("notify") { _, atom in
            if let event = SpkEvent.decode(atom, u) { onEvent(event) }
        }
        return cost
    }
}

/// Deadlines one period apart on the monotonic clock, like an audio interface's interrupts.
struct PacedClock {
    let period: Double
    private var deadline: Double

    init(period: Double) {
        self.period = period
        deadline = PacedClock.monotonic()
    }

    var now: Double { PacedClock.monotonic() }

    mutating func waitForNextPeriod() {
        deadline += period
        let late = now - deadline
        if late > 0 {
            if late > period * 4 { deadline = now }  // fell far behind (a busy machine): start over
            return
        }
        var target = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
