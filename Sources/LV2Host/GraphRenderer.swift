/// Renders a request through a graph offline, block by block, to its end.
///
/// The output is aligned with the speech: the graph's latency is trimmed from the start, so
/// markers fall on their words. After the speech ends, rendering goes on while the graph still
/// sounds (a reverb's tail) and stops where it has fallen silent. Every decision is made frame
/// by frame, so the output does not depend on the block size.
public final class GraphRenderer {
    public let graph: RenderGraph
    /// Below this (-90 dBFS, under half a 16-bit step) a tail counts as silent.
    public var silenceThreshold: Float = 1.0 / 32768
    /// How long a tail must stay silent for the render to end.
    public var silenceSeconds = 0.5
    /// The longest tail kept after the speech.
    public var maxTailSeconds = 30.0

    public init(graph: RenderGraph) {
        precondition(!graph.live, "a GraphRenderer needs a graph made with live: false")
        self.graph = graph
    }

    /// Speaks `parts` as request 1. `sink` receives the output, one buffer per channel, in
    /// order; the result is the request's events. A `spk:Error` is thrown.
    public func render(_ parts: [SpeechPart], sink: ([UnsafeBufferPointer<Float>]) throws -> Void) throws -> [SpeechSynth.TimedEvent] {
        var events: [SpeechSynth.TimedEvent] = []
        try render(parts, sink: sink) { events.append($0) }
        return events
    }

    /// Speaks `parts` as request 1, handing on output and events as they come. A render stops
    /// with an error after `SpeechSynth.stallSeconds` of audio with neither sound nor event.
    public func render(_ parts: [SpeechPart], sink: ([UnsafeBufferPointer<Float>]) throws -> Void,
                       events: (SpeechSynth.TimedEvent) throws -> Void) throws {
        try graph.speak(parts, request: 1)
        let channels = graph.channelCount, block = graph.maxBlock, latency = graph.latency
        let buffers = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
        defer {
            buffers.forEach { $0.deallocate() }
            pointers.deallocate()
        }
        for (c, buffer) in buffers.enumerated() { pointers[c] = buffer }

        var speechEnd: Int64?
        var lastSign: Int64 = 0
        var tail = Tail(channels: channels, threshold: silenceThreshold,
                        silentFrames: Int64(silenceSeconds * graph.sampleRate), maxFrames: Int64(maxTailSeconds * graph.sampleRate))
        let stallFrames = Int64(SpeechSynth.stallSeconds * graph.sampleRate)
        var blockStart: Int64 = 0  // frames rendered (graph time)
        while !tail.done {
            graph.process(block, into: pointers)
            for timed in graph.receive() {
                lastSign = timed.frame
                try events(timed)
                switch timed.event {
                case .finished(1): speechEnd = timed.frame
                case .error(1, let message): throw HostError(message)
                default: break
                }
            }
            // Output time is graph time less the latency; speech before `speechEnd` goes out now,
            // what follows waits in `tail` until it is known how much of it sounds.
            let first = max(0, Int(Int64(latency) - blockStart))
            let end = speechEnd.map { Int(min(max($0 + Int64(latency) - blockStart, Int64(first)), Int64(block))) } ?? block
            if end > first {
                try sink(buffers.map { UnsafeBufferPointer(start: $0 + first, count: end - first) })
            }
            if speechEnd != nil {
                for frame in max(first, end)..<block where !tail.done { tail.take(buffers, at: frame) }
            } else {
                if buffers.contains(where: { UnsafeBufferPointer(start: $0, count: block).contains { $0 != 0 } }) { lastSign = blockStart }
                if blockStart - lastSign > stallFrames {
                    throw HostError("the synth made no sound and no event for \(Int(SpeechSynth.stallSeconds)) s of audio; stopped")
                }
            }
            blockStart += Int64(block)
        }
        if tail.keptFrames > 0 { try tail.withKept(sink) }
    }
}

/// What follows the speech, held back until the point where it has fallen silent is known.
private struct Tail {
    private var samples: [[Float]]
    private let threshold: Float
    private let silentFrames: Int64
    private let maxFrames: Int64
    private var lastLoud: Int64 = -1
    private(set) var done = false

    init(channels: Int, threshold: Float, silentFrames: Int64, maxFrames: Int64) {
        samples = Array(repeating: [], count: channels)
        self.threshold = threshold
        self.silentFrames = silentFrames
        self.maxFrames = maxFrames
    }

    /// Frames of the tail up to and including the last that sounds.
    var keptFrames: Int { Int(lastLoud + 1) }

    mutating func take(_ buffers: [UnsafeMutablePointer<Float>], at frame: Int) {
        let index = Int64(samples[0].count)
        for c in samples.indices {
            let value = buffers[c][frame]
            samples[c].append(value)
            if abs(value) >= threshold { lastLoud = index }
        }
        done = index + 1 - (lastLoud + 1) >= silentFrames || index + 1 >= maxFrames
    }

    func withKept(_ body: ([UnsafeBufferPointer<Float>]) throws -> Void) throws {
        let count = keptFrames
        let copies = samples.map { channel in
            let copy = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
            _ = copy.initialize(from: channel[0..<count])
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        try body(copies.map { UnsafeBufferPointer($0) })
    }
}
