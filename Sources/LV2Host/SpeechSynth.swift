import SpkProtocol

/// An spk synth plugin driven offline: requests in, audio and events out, block by block.
public final class SpeechSynth {
    public let plugin: PluginInstance
    public let block: Int
    private var nextRequest: Int64 = 1
    private let outIndex: UInt32
    private var u: SpkURIDs { plugin.urids.spk }

    /// The block an offline render runs in unless told otherwise. Offline no one waits for a
    /// block, and the output does not depend on its size (tested from 64 to 4096 frames): 1024
    /// frames cost the host's own per-block work a quarter of what 256 did, about a tenth of
    /// espeak-ng's time for a 500-word render at its own rate (BENCHMARKS.md).
    public static let offlineBlock = 1024

    /// An event the plugin reported, at its frame from the start of the render.
    public struct TimedEvent: Sendable, Equatable {
        public var frame: Int64
        public var event: SpkEvent
    }

    public init(world: LV2World, uri: String, sampleRate: Double, block: Int) throws {
        guard block > 0 && block <= 1 << 16 else { throw HostError("block size \(block) is outside 1...65536") }
        plugin = try PluginInstance(world: world, uri: uri, sampleRate: sampleRate, maxBlock: block)
        self.block = block
        for symbol in ["control", "notify"] { _ = try plugin.port(symbol) }
        outIndex = try plugin.port("out").index
        plugin.activate()
    }

    public func setControls(rate: Float?, pitch: Float?, volume: Float?) throws {
        try plugin.setControls(rate: rate, pitch: pitch, volume: volume)
    }

    /// The plugin's installed voices (patch:Get of spk:voices).
    public func voices() throws -> [Voice] {
        try ask(u.voices) { if case .voices(let list) = $0 { list } else { nil } }
    }

    /// Every voice the plugin can speak (patch:Get of spk:catalog).
    public func catalog() throws -> [Voice] {
        try ask(u.catalog) { if case .catalog(let list) = $0 { list } else { nil } }
    }

    private func ask(_ property: UInt32, _ answer: (SpkEvent) -> [Voice]?) throws -> [Voice] {
        var found: [Voice]?
        try runBlock(send: { $0.patchGet(property: property, self.u) }) { _, event in
            if let list = answer(event) { found = list }
        }
        guard let found else { throw HostError("<\(plugin.info.uri)> did not answer with its voices") }
        return found
    }

    /// Speaks one request to the end. `sink` receives the audio; the result is every event, in
    /// order. A `spk:Error` for the request is thrown. `maxSeconds` bounds a request that never ends.
    public func render(ssml: String, voice: String?, maxSeconds: Double = 3600,
                       sink: (UnsafeBufferPointer<Float>) throws -> Void) throws -> [TimedEvent] {
        let request = nextRequest
        nextRequest += 1
        var events: [TimedEvent] = []
        var start: Int64 = 0
        var endFrame: Int64?
        var failure: String?
        let limit = Int64(maxSeconds * plugin.sampleRate)
        var first = true
        while endFrame == nil && failure == nil {
            try runBlock(send: first ? { $0.speak(ssml: ssml, voice: voice, request: request, self.u) } : nil) { frame, event in
                events.append(TimedEvent(frame: start + frame, event: event))
                switch event {
                case .finished(request) where endFrame == nil: endFrame = frame
                case .cancelled(request): endFrame = frame
                case .error(request, let message): failure = message
                default: break
                }
            }
            first = false
            if failure != nil { break }
            let count = endFrame.map { Int($0) } ?? block
            try sink(UnsafeBufferPointer(rebasing: output[..<count]))
            start += Int64(block)
            if start > limit { throw HostError("request did not finish within \(Int(maxSeconds)) s of audio") }
        }
        if let failure { throw HostError(failure) }
        return events
    }

    /// The audio of the last block.
    public var output: UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(start: plugin.audio[outIndex]!, count: block)
    }

    /// Runs one block, optionally sending one event at frame 0, and decodes what comes back
    /// (frames within the block).
    public func runBlock(send: ((inout AtomWriter) -> Void)?, received: (Int64, SpkEvent) -> Void) throws {
        plugin.prepareAtomPorts()
        if let send {
            try plugin.writeEvents(to: "control") { w in
                w.frameTime(0)
                send(&w)
            }
        }
        plugin.run(block)
        try plugin.forEachOutputEvent("notify") { frame, atom in
            if let event = SpkEvent.decode(atom, u, plugin: plugin.info.uri) { received(frame, event) }
        }
    }
}
