import Glibc
import SpkProtocol

/// An spk synth hosted the way a real-time host hosts it, to measure what a listener and the
/// audio thread see: the plugin's worker runs on its own thread, and each block is run at its
/// deadline, one period after the last (`PacedClock`). Call it from the thread that plays the
/// part of the audio thread (promote it with `RealTimePriority` where the system allows).
public final class LiveProbe {
    public let plugin: PluginInstance
    public let block: Int
    public let sampleRate: Double
    /// Seconds per block: the time budget of one `run()`.
    public let period: Double
    /// Counts allocations on the calling thread around each `run()`, when set.
    public var allocations: RunAllocationCounter?
    public private(set) var clock: PacedClock
    private let out: UnsafePointer<Float>
    private var nextRequest: Int64 = 1
    private var u: SpkURIDs { plugin.urids.spk }

    public init(world: LV2World, uri: String, sampleRate: Double = 48000, block: Int) throws {
        guard block > 0 && block <= 8192 else { throw HostError("block size \(block) is outside 1...8192") }
        plugin = try PluginInstance(world: world, uri: uri, sampleRate: sampleRate, maxBlock: block, live: true)
        self.block = block
        self.sampleRate = sampleRate
        period = Double(block) / sampleRate
        out = UnsafePointer(plugin.audio[try plugin.port("out").index]!)
        _ = try plugin.port("control")
        _ = try plugin.port("notify")
        clock = PacedClock(period: period)
        plugin.activate()
    }

    /// What one block did.
    public struct Block {
        /// When `run()` began and how long it took (monotonic seconds).
        public var start: Double
        public var seconds: Double
        /// Allocations on this thread during `run()`, when counted.
        public var allocations: Int?
        /// Index of the first non-zero frame of the block, if any.
        public var firstSound: Int?
        public var events: [SpkEvent]
    }

    /// Waits for the next deadline, then runs one block, optionally with one event at frame 0.
    @discardableResult
    public func runBlock(send: ((inout AtomWriter) -> Void)? = nil) throws -> Block {
        clock.waitForNextPeriod()
        plugin.prepareAtomPorts()
        if let send { try plugin.writeEvents(to: "control") { w in w.frameTime(0); send(&w) } }
        let counter = allocations
        counter?.begin()
        let start = PacedClock.monotonic()
        plugin.run(block)
        let seconds = PacedClock.monotonic() - start
        let allocated = counter?.end()
        var events: [SpkEvent] = []
        try plugin.forEachOutputEvent("notify") { _, atom in
            if let event = SpkEvent.decode(atom, u, plugin: plugin.info.uri) { events.append(event) }
        }
        var firstSound: Int?
        for i in 0..<block where out[i] != 0 {
            firstSound = i
            break
        }
        return Block(start: start, seconds: seconds, allocations: allocated, firstSound: firstSound, events: events)
    }

    /// When a request's audio began, counted from the block that carried the request (block 0:
    /// the request is at its frame 0, so 1 means the very next block).
    public struct FirstAudio: Sendable {
        /// The block with the request's `spk:Started` (nil if none came by its first sound).
        public var startedBlocks: Int?
        /// The block with the first non-zero frame, and that frame counted from the request's.
        public var firstSoundBlocks: Int
        public var firstSoundFrames: Int
        /// Wall time from the start of the request's `run()` to the end of the `run()` that put
        /// out its first non-zero frame.
        public var firstSoundSeconds: Double
        /// `run()` times and allocations of the blocks from the request to its first sound.
        public var runSeconds: [Double]
        public var runAllocations: [Int]
    }

    /// Speaks one request and runs blocks until its first non-zero frame, then cancels it and
    /// runs `settle` seconds of blocks so the next request starts with the plugin idle.
    public func firstAudio(ssml: String, voice: String?, timeout: Double = 10, settle: Double = 0.05) throws -> FirstAudio {
        let id = nextRequest
        nextRequest += 1
        var started: Int?
        var runSeconds: [Double] = [], runAllocations: [Int] = []
        var index = 0
        var sentAt = 0.0
        while true {
            let result = try runBlock(send: index == 0 ? { w in w.speak(ssml: ssml, voice: voice, request: id, self.u) } : nil)
            if index == 0 { sentAt = result.start }
            runSeconds.append(result.seconds)
            if let a = result.allocations { runAllocations.append(a) }
            for event in result.events {
                switch event {
                case .started(id) where started == nil: started = index
                case .error(id, let message): throw HostError(message)
                case .finished(id), .cancelled(id): throw HostError("the request ended before any sound")
                default: break
                }
            }
            if let first = result.firstSound {
                let audio = FirstAudio(startedBlocks: started, firstSoundBlocks: index, firstSoundFrames: index * block + first,
                                       firstSoundSeconds: result.start + result.seconds - sentAt, runSeconds: runSeconds, runAllocations: runAllocations)
                try stopAndSettle(settle)
                return audio
            }
            index += 1
            if Double(index) * period > timeout { throw HostError("no sound \(Int(timeout)) s after the request") }
        }
    }

    /// Speaks `ssml` (again each time it finishes) and records `calls` blocks from its first sound
    /// on: each block's `run()` seconds and allocations. Then cancels and settles.
    public func whileSpeaking(ssml: String, voice: String?, calls: Int, settle: Double = 0.05) throws -> (seconds: [Double], allocations: [Int]) {
        var seconds: [Double] = [], allocations: [Int] = []
        seconds.reserveCapacity(calls)
        allocations.reserveCapacity(calls)
        var id = nextRequest
        nextRequest += 1
        var sounding = false
        var send = true
        var waited = 0
        while seconds.count < calls {
            let request = id
            let result = try runBlock(send: send ? { w in w.speak(ssml: ssml, voice: voice, request: request, self.u) } : nil)
            send = false
            for event in result.events {
                switch event {
                case .error(request, let message): throw HostError(message)
                case .finished(request):
                    id = nextRequest
                    nextRequest += 1
                    send = true
                default: break
                }
            }
            if result.firstSound != nil { sounding = true }
            if sounding {
                seconds.append(result.seconds)
                if let a = result.allocations { allocations.append(a) }
            } else {
                waited += 1
                if Double(waited) * period > 10 { throw HostError("no sound 10 s after the request") }
            }
        }
        try stopAndSettle(settle)
        return (seconds, allocations)
    }

    /// Speaks `ssml` once for `seconds`, then cancels: one-time set-up (engine, voice, caches) is
    /// done before anything is measured.
    public func warmUp(ssml: String, voice: String?, seconds: Double = 0.3) throws {
        let id = nextRequest
        nextRequest += 1
        try runBlock { w in w.speak(ssml: ssml, voice: voice, request: id, self.u) }
        for _ in 0..<max(1, Int(seconds / period)) {
            for event in try runBlock().events {
                if case .error(id, let message) = event { throw HostError(message) }
            }
        }
        try stopAndSettle(0.1)
    }

    /// Cancels everything and runs blocks for `seconds` (at least until the cancel is confirmed).
    public func stopAndSettle(_ seconds: Double) throws {
        try runBlock { w in w.cancel(request: nil, self.u) }
        for _ in 0..<max(2, Int(seconds / period)) { try runBlock() }
    }
}
