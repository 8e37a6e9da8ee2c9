import SpkProtocol
import Synchronization

/// A render graph, instantiated: spk synths and any installed LV2 plugins in running order,
/// every buffer allocated here, once.
///
/// Requests go in with `speak` (cut into parts when they switch engines); `process` renders a
/// block (the audio thread: no allocation, lock or system call); `receive` gives the requests'
/// events. Offline (`live: false`) plugin work runs synchronously, so output does not depend
/// on the block size; live, each plugin has a worker thread and `process` runs in the JACK
/// callback.
public final class RenderGraph: @unchecked Sendable {
    public let sampleRate: Double
    public let maxBlock: Int
    /// Node ids in running order (synths added for the request's engines included).
    public let nodeIDs: [String]
    public let channelCount: Int
    /// Frames from speech to the outputs along the slowest path: the sum of the latencies the
    /// plugins on it report. Events from `receive` are shifted by it when live; offline
    /// renderers trim that many leading frames instead.
    public let latency: Int
    public let live: Bool
    /// The synth plugin of each synth node, in the sequencer's order.
    public let synthURIs: [String]

    /// Frames rendered, and the last of them where an output sounded (above -90 dBFS): how a
    /// live host sees a reverb's tail die away.
    public let framesProcessed = Atomic<Int64>(0)
    public let lastSoundingFrame = Atomic<Int64>(-1)

    private let instances: [PluginInstance]
    private let plan: ProcessPlan
    private let sequencer: PartSequencer
    private var partEvents = PartEvents()
    private var nextPart: Int64 = 1

    /// Values for every synth node's `rate`, `pitch` and `volume` controls (spkhost's options).
    public struct SynthControls: Sendable {
        public var rate, pitch, volume, trim: Float?
        public init(rate: Float? = nil, pitch: Float? = nil, volume: Float? = nil, trim: Float? = nil) {
            self.rate = rate
            self.pitch = pitch
            self.volume = volume
            self.trim = trim
        }
    }

    /// Checks and instantiates `spec`. `engines`: the synth plugins the requests will speak
    /// with; the graph gets a synth node for each it lacks (see GraphBuilder).
    public init(spec: GraphSpec, world: LV2World, sampleRate: Double, maxBlock: Int, live: Bool = false,
                engines: [String], synthControls: SynthControls = SynthControls()) throws {
        guard maxBlock > 0 && maxBlock <= 1 << 16 else { throw HostError("block size \(maxBlock) is outside 1...65536") }
        let layout = try GraphBuilder.layout(spec, world: world, sampleRate: sampleRate, live: live, engines: engines)
        self.sampleRate = sampleRate
        self.maxBlock = maxBlock
        self.live = live
        nodeIDs = layout.nodes.map(\.id)
        let urids = URIDMap()
        var instances: [PluginInstance] = []
        var latencies: [Int] = []
        for node in layout.nodes {
            do {
                let instance = try Self.instantiate(node, world: world, sampleRate: sampleRate, maxBlock: maxBlock, urids: urids,
                                                    live: live, synthControls: synthControls)
                instance.activate()
                instances.append(instance)
                latencies.append(node.isSynth ? 0 : Self.warmUp(instance, latencyPort: node.plugin.latencyPort))
            } catch let error as HostError {
                throw HostError("node '\(node.id)': \(error.description)")
            }
        }
        self.instances = instances
        plan = ProcessPlan(layout: layout, instances: instances, ownLatency: latencies, maxBlock: maxBlock, urids: urids)
        channelCount = plan.channelCount
        latency = plan.latency
        partEvents.latency = live ? Int64(plan.latency) : 0

        var synths: [PartSequencer.Synth] = []
        var uris: [String] = []
        for (node, instance) in zip(layout.nodes, instances) where node.isSynth {
            guard let out = instance.info.ports.first(where: { $0.symbol == "out" && $0.kind == .audio }),
                  let control = instance.info.ports.first(where: { $0.symbol == "control" && $0.kind == .atom }),
                  let notify = instance.info.ports.first(where: { $0.symbol == "notify" && $0.kind == .atom }),
                  let (controlBuffer, controlCapacity) = instance.atoms[control.index],
                  let (notifyBuffer, notifyCapacity) = instance.atoms[notify.index] else {
                throw HostError("node '\(node.id)': <\(node.spec.plugin)> does not have spk's control, notify and out ports")
            }
            synths.append(PartSequencer.Synth(plugin: instance, outIndex: out.index, out: instance.audio[out.index]!,
                                              control: controlBuffer, controlCapacity: controlCapacity,
                                              notify: notifyBuffer, notifyCapacity: notifyCapacity))
            uris.append(node.spec.plugin)
        }
        synthURIs = uris
        sequencer = PartSequencer(synths: synths, urids: urids, maxBlock: maxBlock)
    }

    private static func instantiate(_ node: GraphLayout.Node, world: LV2World, sampleRate: Double, maxBlock: Int,
                                    urids: URIDMap, live: Bool, synthControls: SynthControls) throws -> PluginInstance {
        let instance = try PluginInstance(world: world, uri: node.spec.plugin, sampleRate: sampleRate, maxBlock: maxBlock,
                                          urids: urids, live: live)
        // A default given as a fraction of the sample rate (lv2:sampleRate, its value within the
        // port's unscaled bounds) is scaled as the bounds are; swh's filters start at 0.0001 Hz
        // otherwise. A default outside those bounds was written in Hz and stays.
        for port in node.plugin.controlInputs where node.plugin.isSampleRateScaled(port) {
            if let value = port.defaultValue, let low = port.minimum, let high = port.maximum, (low...high).contains(value) {
                instance.controls[port.index]?.pointee = value * Float(sampleRate)
            }
        }
        if let preset = node.spec.preset { try instance.applyPreset(preset) }
        // Checked by GraphBuilder (with lv2:sampleRate bounds scaled, which setControl does not do).
        for (symbol, value) in node.spec.controls {
            if let port = node.plugin.controlInputs.first(where: { $0.symbol == symbol }) { instance.controls[port.index]?.pointee = value }
        }
        if node.isSynth {
            try instance.setControls(rate: synthControls.rate, pitch: synthControls.pitch, volume: synthControls.volume,
                                     trim: synthControls.trim)
        }
        return instance
    }

    /// Runs an effect for one frame of silence and returns the latency it reports.
    ///
    /// Plugins report latency from `run`; many also glide their controls from the initial values
    /// over their first `run`, which would make the output depend on the block size. One frame,
    /// whatever the block size, settles both the same way every time.
    private static func warmUp(_ instance: PluginInstance, latencyPort: UInt32?) -> Int {
        instance.prepareAtomPorts()
        instance.run(1)
        guard let port = latencyPort, let value = instance.controls[port]?.pointee, value.isFinite else { return 0 }
        return max(0, Int(value.rounded()))
    }

    // MARK: control thread

    /// Queues a request's parts to play one after another; events come back as `request`'s.
    public func speak(_ parts: [SpeechPart], request: Int64) throws {
        guard !parts.isEmpty else { return }
        let slots = try parts.map { part -> Int in
            guard let slot = synthURIs.firstIndex(of: part.synth) else {
                throw HostError("the graph has no synth node for <\(part.synth)>")
            }
            return slot
        }
        for (i, part) in parts.enumerated() {
            let id = nextPart
            nextPart += 1
            partEvents.add(part, id: id, request: request, isFirst: i == 0, isLast: i == parts.count - 1)
            try sequencer.enqueue(part, synth: slots[i], id: id)
        }
    }

    /// The requests' events since the last call, in order.
    public func receive() -> [SpeechSynth.TimedEvent] {
        var events: [SpeechSynth.TimedEvent] = []
        sequencer.drain { frame, event in
            if let timed = partEvents.translate(frame: frame, event) { events.append(timed) }
        }
        return events
    }

    /// Events dropped because the control thread fell behind (live).
    public var droppedEvents: Int { sequencer.droppedEvents.load(ordering: .relaxed) }

    // MARK: audio thread

    /// Renders `frames` frames into the `channelCount` buffers of `outputs`.
    public func process(_ frames: Int, into outputs: UnsafePointer<UnsafeMutablePointer<Float>>) {
        var done = 0
        while done < frames {
            let count = min(frames - done, maxBlock)
            sequencer.fill(count)
            plan.run(count, into: outputs, offset: done)
            noteSound(outputs, from: done, count: count)
            done += count
        }
    }

    private func noteSound(_ outputs: UnsafePointer<UnsafeMutablePointer<Float>>, from offset: Int, count: Int) {
        let start = framesProcessed.load(ordering: .relaxed)
        var last = -1
        for c in 0..<channelCount {
            var i = count - 1
            while i > last && abs(outputs[c][offset + i]) < 1.0 / 32768 { i -= 1 }
            last = max(last, i)
        }
        if last >= 0 { lastSoundingFrame.store(start + Int64(last), ordering: .releasing) }
        framesProcessed.store(start + Int64(count), ordering: .releasing)
    }
}
