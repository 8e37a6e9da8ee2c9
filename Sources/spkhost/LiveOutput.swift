import ArgumentParser
import Foundation
import JACKBackend
import LV2Host
import SpkProtocol

/// Where live speech goes: a JACK server, and the ports to connect to.
struct JACKOptions: ParsableArguments {
    @Option(help: "JACK server name (default: the default server, or $JACK_DEFAULT_SERVER).") var server: String?
    @Option(help: "A JACK input port to connect to (repeatable; default: the first two system playback ports).")
    var connect: [String] = []
}

/// A synth playing into JACK: the JACK client, the plugin, and the connections.
final class LiveOutput {
    let client: JACKClient
    let speech: LiveSpeech
    let sampleRate: Int

    init(pluginURI: String, jack: JACKOptions) throws {
        client = try JACKClient(name: "spkhost", server: jack.server)
        sampleRate = client.sampleRate
        try client.registerOutputs(["out"])
        let speech = try LiveSpeech(world: LV2World(), uri: pluginURI, sampleRate: Double(sampleRate))
        self.speech = speech
        try client.activate({ frames, outputs in speech.process(frames, into: outputs[0]) })
        try client.connect(outputs: 1, jack: jack)
    }

    /// Throws when JACK has gone away or changed under us.
    func check() throws { try client.check(sampleRate: sampleRate) }

    /// Waits until what was rendered has left JACK's buffers, and says if JACK missed any.
    func drain() { client.drain(sampleRate: sampleRate, droppedEvents: speech.droppedEvents.load(ordering: .relaxed)) }
}

/// A render graph playing into JACK (`play --graph`, `--effect`, or a request that switches
/// engines): the graph runs in JACK's process callback, one JACK port per graph output.
final class LiveGraphOutput {
    let client: JACKClient
    let graph: RenderGraph
    let sampleRate: Int

    init(spec: GraphSpec, engines: [String], synthControls: RenderGraph.SynthControls, jack: JACKOptions) throws {
        client = try JACKClient(name: "spkhost", server: jack.server)
        sampleRate = client.sampleRate
        let graph = try RenderGraph(spec: spec, world: LV2World(), sampleRate: Double(sampleRate), maxBlock: 8192, live: true,
                                    engines: engines, synthControls: synthControls)
        self.graph = graph
        try client.registerOutputs(graph.channelCount == 1 ? ["out"] : (1...graph.channelCount).map { "out_\($0)" })
        try client.activate({ frames, outputs in graph.process(frames, into: outputs) })
        try client.connect(outputs: graph.channelCount, jack: jack)
    }

    func check() throws { try client.check(sampleRate: sampleRate) }

    /// Waits for the graph to fall silent (a reverb's tail, at most `maxTail` seconds), then
    /// for JACK's buffers to empty.
    func drain(maxTail: Double = 10) {
        let quiet = Int64(0.3 * Double(sampleRate))
        let deadline = Date().addingTimeInterval(maxTail)
        while graph.framesProcessed.load(ordering: .acquiring) - graph.lastSoundingFrame.load(ordering: .acquiring) < quiet,
              Date() < deadline, !client.shutDown.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        client.drain(sampleRate: sampleRate, droppedEvents: graph.droppedEvents)
    }
}

extension JACKClient {
    /// Connects the outputs to `--connect` ports, or to the first two playback ports; with more
    /// destinations than outputs, the outputs take turns (mono goes to both sides).
    func connect(outputs: Int, jack: JACKOptions) throws {
        let destinations = jack.connect.isEmpty ? Array(playbackPorts().prefix(2)) : jack.connect
        for (i, destination) in destinations.enumerated() { try connect(outputName(i % outputs), to: destination) }
    }

    func check(sampleRate: Int) throws {
        if shutDown.load(ordering: .acquiring) { throw HostError(shutdownMessage) }
        guard checkAnswering() else {
            throw HostError("the JACK server stopped answering (no process cycle for 3 s); is jackd stopped or hung?")
        }
        if self.sampleRate != sampleRate {
            throw HostError("the JACK sample rate changed from \(sampleRate) to \(self.sampleRate) Hz; start spkhost again")
        }
    }

    func drain(sampleRate: Int, droppedEvents: Int) {
        let periods = 3.0 * Double(bufferSize.load(ordering: .relaxed)) / Double(sampleRate)
        Thread.sleep(forTimeInterval: periods + 0.05)
        let xruns = xruns.load(ordering: .relaxed)
        if xruns > 0 { print("jack: \(xruns) xrun\(xruns == 1 ? "" : "s") while speaking") }
        if droppedEvents > 0 { print("spkhost: \(droppedEvents) events dropped (the printer fell behind)") }
    }
}

/// Prints events as they happen, one line each, times from the start of their request.
struct EventPrinter {
    private var texts: [Int64: [UInt8]] = [:]
    private var starts: [Int64: Int64] = [:]
    let sampleRate: Double
    let words: Bool

    init(sampleRate: Int, words: Bool = true) {
        self.sampleRate = Double(sampleRate)
        self.words = words
    }

    mutating func requested(_ request: Int64, text: String) { texts[request] = Array(text.utf8) }

    mutating func print(_ timed: SpeechSynth.TimedEvent) {
        func line(_ request: Int64, _ what: String, _ detail: String = "") {
            let seconds = Double(timed.frame - (starts[request] ?? timed.frame)) / sampleRate
            Swift.print(String(format: "%7.3fs  #%-3lld %-9@ %@", seconds, request, what as NSString, detail as NSString))
            fflush(stdout)
        }
        switch timed.event {
        case .started(let r):
            starts[r] = timed.frame
            line(r, "started")
        case .finished(let r): line(r, "finished")
        case .cancelled(let r): line(r, "cancelled")
        case .paused(let r): line(r, "paused")
        case .continued(let r): line(r, "continued")
        case .error(let r, let message): line(r, "error", message)
        case .marker(let m):
            if m.type == .bookmark {
                line(m.request, "bookmark", m.name ?? "")
            } else if words && m.type == .word, let text = texts[m.request], m.textOffset + m.textLength <= text.count {
                line(m.request, "word", String(decoding: text[m.textOffset..<m.textOffset + m.textLength], as: UTF8.self))
            }
        case .voices, .catalog, .ready: break
        }
    }
}
