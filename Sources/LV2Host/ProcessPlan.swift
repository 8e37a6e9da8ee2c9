import SpkProtocol

/// How a graph runs one block, laid out flat in memory allocated once: for each node after
/// the synths, the audio summed into each of its inputs (through delay lines where paths of
/// different latency meet), its atom ports made ready, then its `run`; finally the outputs.
/// `run` is real-time safe: no allocation, lock or system call.
final class ProcessPlan {
    /// Where one feed of a mix comes from.
    struct Source {
        var buffer: UnsafeMutablePointer<Float>
        var gain: Float
        /// An index into `delays`, or -1.
        var delay: Int
    }

    /// An audio input (or a graph output): cleared, then every source added in.
    struct Mix {
        var destination: UnsafeMutablePointer<Float>?
        var sources: Range<Int>
    }

    struct AtomPort {
        var buffer: UnsafeMutableRawPointer
        var capacity: Int
        var isInput: Bool
    }

    struct Step {
        var node: Int
        var mixes: Range<Int>
        var atoms: Range<Int>
    }

    private let instances: [PluginInstance]
    private let steps: UnsafeMutableBufferPointer<Step>
    private let mixes: UnsafeMutableBufferPointer<Mix>
    private let outputs: UnsafeMutableBufferPointer<Mix>
    private let sources: UnsafeMutableBufferPointer<Source>
    private let atoms: UnsafeMutableBufferPointer<AtomPort>
    private let delays: [DelayLine]
    private let sequenceType: UInt32
    private let chunkType: UInt32
    /// Frames from the synths to the outputs along the slowest path.
    let latency: Int

    /// `ownLatency[i]`: what node i reports (lv2:reportsLatency), in frames.
    init(layout: GraphLayout, instances: [PluginInstance], ownLatency: [Int], maxBlock: Int, urids: URIDMap) {
        self.instances = instances
        sequenceType = urids.map(LV2URI.atomSequence)
        chunkType = urids.map(LV2URI.atomChunk)

        var sourceList: [Source] = [], mixList: [Mix] = [], stepList: [Step] = [], atomList: [AtomPort] = []
        var delayList: [DelayLine] = []
        /// Frames from the synths to each node's outputs.
        var pathLatency = [Int](repeating: 0, count: layout.nodes.count)

        func source(_ feed: GraphLayout.Feed, aligningTo target: Int) -> Source {
            let delay = target - pathLatency[feed.node]
            var index = -1
            if delay > 0 {
                delayList.append(DelayLine(delay: delay, maxBlock: maxBlock))
                index = delayList.count - 1
            }
            return Source(buffer: instances[feed.node].audio[feed.port]!, gain: feed.gain, delay: index)
        }

        for (i, node) in layout.nodes.enumerated() {
            let feeds = layout.inputs.filter { $0.node == i }
            let target = feeds.flatMap(\.feeds).map { pathLatency[$0.node] }.max() ?? 0
            pathLatency[i] = target + ownLatency[i]
            guard !node.isSynth else { continue }  // the sequencer fills synth outputs
            let firstMix = mixList.count
            for port in node.plugin.audioInputs {
                let start = sourceList.count
                for feed in feeds.first(where: { $0.port == port.index })?.feeds ?? [] {
                    sourceList.append(source(feed, aligningTo: target))
                }
                mixList.append(Mix(destination: instances[i].audio[port.index]!, sources: start..<sourceList.count))
            }
            let firstAtom = atomList.count
            for port in node.plugin.info.ports where port.kind == .atom {
                guard let (buffer, capacity) = instances[i].atoms[port.index] else { continue }
                atomList.append(AtomPort(buffer: buffer, capacity: capacity, isInput: port.isInput))
            }
            stepList.append(Step(node: i, mixes: firstMix..<mixList.count, atoms: firstAtom..<atomList.count))
        }

        latency = layout.outputs.flatMap { $0 }.map { pathLatency[$0.node] }.max() ?? 0
        var outputList: [Mix] = []
        for channel in layout.outputs {
            let start = sourceList.count
            for feed in channel { sourceList.append(source(feed, aligningTo: latency)) }
            outputList.append(Mix(destination: nil, sources: start..<sourceList.count))
        }

        func buffer<T>(_ list: [T]) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: max(list.count, 1))
            _ = b.initialize(from: list)
            return UnsafeMutableBufferPointer(rebasing: b[0..<list.count])
        }
        steps = buffer(stepList)
        mixes = buffer(mixList)
        outputs = buffer(outputList)
        sources = buffer(sourceList)
        atoms = buffer(atomList)
        delays = delayList
    }

    deinit {
        // Plain values only (pointers, numbers, ranges): nothing to deinitialize.
        steps.baseAddress?.deallocate()
        mixes.baseAddress?.deallocate()
        outputs.baseAddress?.deallocate()
        sources.baseAddress?.deallocate()
        atoms.baseAddress?.deallocate()
    }

    var channelCount: Int { outputs.count }

    /// Runs every node after the synths for `count` frames and writes the output channels at
    /// `offset` into `destinations`.
    func run(_ count: Int, into destinations: UnsafePointer<UnsafeMutablePointer<Float>>, offset: Int) {
        for s in 0..<steps.count {
            let step = steps[s]
            for m in step.mixes { mix(mixes[m], into: mixes[m].destination!, count) }
            for a in step.atoms { prepare(atoms[a]) }
            instances[step.node].run(count)
        }
        for c in 0..<outputs.count { mix(outputs[c], into: destinations[c] + offset, count) }
    }

    private func mix(_ mix: Mix, into destination: UnsafeMutablePointer<Float>, _ count: Int) {
        destination.update(repeating: 0, count: count)
        for k in mix.sources {
            let source = sources[k]
            if source.delay >= 0 {
                delays[source.delay].process(source.buffer, count: count, addingTo: destination, gain: source.gain)
            } else {
                for i in 0..<count { destination[i] += source.buffer[i] * source.gain }
            }
        }
    }

    /// Inputs become empty sequences; outputs get their capacity, as LV2 hosts must.
    private func prepare(_ port: AtomPort) {
        if port.isInput {
            port.buffer.storeBytes(of: UInt32(8), as: UInt32.self)
            port.buffer.storeBytes(of: sequenceType, toByteOffset: 4, as: UInt32.self)
            port.buffer.storeBytes(of: UInt64(0), toByteOffset: 8, as: UInt64.self)  // unit, pad
        } else {
            port.buffer.storeBytes(of: UInt32(port.capacity - 8), as: UInt32.self)
            port.buffer.storeBytes(of: chunkType, toByteOffset: 4, as: UInt32.self)
        }
    }
}
