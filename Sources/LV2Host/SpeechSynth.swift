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

    public func setControls(rate: Float?, pitch: Float?, volume: Float?, trim: Float? = nil) throws {
        try plugin.setControls(rate: rate, pitch: pitch, volume: volume, trim: trim)
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

    /// A render stops with an error when the plugin has made neither a sound nor an event for
    /// this much audio: longer than any break or clip spk plays, so only a synth that will never
    /// finish meets it. (Nothing else bounds a render: a book is as welcome as a word.)
    public static let stallSeconds = 3600.0

    /// Speaks one request to the end. `sink` receives the audio; the result is every event, in
    /// order. A `spk:Error` for the request is thrown.
    public func render(ssml: String, voice: String?, sink: (UnsafeBufferPointer<Float>) throws -> Void) throws -> [TimedEvent] {
        var events: [TimedEvent] = []
        try render(ssml: ssml, voice: voice, sink: sink) { events.append($0) }
        return events
    }

    /// Speaks one request to the end, handing on audio and events as they come, so memory does
    /// not grow with the request's length. A request larger than the control port goes in
    /// chunks (`RequestChunks`), each when the plugin is ready for it.
    public func render(ssml: String, voice: String?, sink: (UnsafeBufferPointer<Float>) throws -> Void,
                       events: (TimedEvent) throws -> Void) throws {
        let size = ssml.utf8.count
        guard size <= RequestChunks.maximumBytes else { throw HostError(RequestTooLarge(bytes: size).description) }
        let request = nextRequest
        nextRequest += 1
        var chunks = RequestChunks(ssml)
        var start: Int64 = 0
        var endFrame: Int64?
        var failure: String?
        var sendNext = true
        var lastSign: Int64 = 0  // the frame of the last sound or event
        let stallFrames = Int64(Self.stallSeconds * plugin.sampleRate)
        while endFrame == nil && failure == nil {
            var send: ((inout AtomWriter) -> Void)?
            if sendNext {
                send = chunks.nextMessage(request: request, voice: voice, u)
                sendNext = false
            }
            var eventFailure: Error?
            try runBlock(send: send) { frame, event in
                switch event {
                case .ready(request): sendNext = chunks.hasMore; return
                case .finished(request) where endFrame == nil: endFrame = frame
                case .cancelled(request): endFrame = frame
                case .error(request, let message): failure = message
                default: break
                }
                lastSign = start + frame
                if eventFailure == nil {
                    do { try events(TimedEvent(frame: start + frame, event: event)) } catch { eventFailure = error }
                }
            }
            if let eventFailure { throw eventFailure }
            if failure != nil { break }
            let count = endFrame.map { Int($0) } ?? block
            let audio = UnsafeBufferPointer(rebasing: output[..<count])
            if let last = audio.lastIndex(where: { $0 != 0 }) { lastSign = start + Int64(last) }
            try sink(audio)
            start += Int64(block)
            if start - lastSign > stallFrames {
                throw HostError("the synth made no sound and no event for \(Int(Self.stallSeconds)) s of audio; stopped")
            }
        }
        if let failure { throw HostError(failure) }
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
