import CLV2
import SpeechEngines
import SpkProtocol
import LockFree
import Synchronization
import Glibc

/// One instance of a synth plugin. `run()` (in SynthInstance+Run.swift) plays what the worker
/// (SynthWorker) renders; the two share only lock-free rings and a few atomics.
final class SynthInstance {
    let urids: SpkURIDs
    let sampleRate: Double
    let log: PluginLog
    let worker: SynthWorker

    // Rings: run() -> worker commands; worker -> run() frames, timed events and replies.
    let commands = RecordRing(capacityPowerOfTwo: 1 << 20)
    let frames = FrameRing(capacityPowerOfTwo: 1 << 16)
    let events = RecordRing(capacityPowerOfTwo: 1 << 18)
    let replies = RecordRing(capacityPowerOfTwo: 1 << 19)

    // The host's worker, or nil: then work runs inline in run() (not real-time safe).
    private let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>?
    /// Set by run() when it schedules work, cleared by the worker when the work starts.
    let workScheduled = Atomic<Bool>(false)
    /// The thread that last scheduled work (run()'s): work on that same thread runs inline (an
    /// offline host), not on a worker thread of its own.
    private let schedulingThread = Atomic<UInt>(0)

    // Ports.
    var control: UnsafeRawPointer?
    var notify: UnsafeMutableRawPointer?
    var out: UnsafeMutablePointer<Float>?
    var ratePort: UnsafePointer<Float>?
    var pitchPort: UnsafePointer<Float>?
    var volumePort: UnsafePointer<Float>?
    /// On (the default, and when the host leaves it unconnected): requests start at their first sound.
    var trimPort: UnsafePointer<Float>?

    // Audio-thread state.
    /// Frames played (or skipped) from the frame ring: the timeline position of playback.
    var playhead: Int64 = 0
    /// The request whose audio is playing, or 0.
    var current: Int64 = 0
    /// Discarding the rest of `current` after a cancel.
    var skipping = false
    /// Requests sent to the worker and not yet ended.
    let active = RequestTable(capacity: 256)
    /// Requests cancelled before their audio began.
    let dropped = RequestTable(capacity: 256)
    /// Ids the plugin assigns (bare strings, MIDI notes, Speak without spk:request) start high,
    /// away from the small numbers clients choose.
    var nextRequestID: Int64 = 1 << 32
    var lastVolume: Float = 1
    /// Playback holds (silence, nothing consumed) until `spk:Continue`.
    var paused = false
    /// A `spk:Pause` at `spk:word` waiting for the next word boundary.
    var pauseAtWord = false
    /// The request each MIDI note started, so its note-off cancels it.
    let noteRequests = UnsafeMutablePointer<Int64>.allocate(capacity: 128)

    /// `spk:text`, spoken by MIDI note-on; `spk:voice`, the default voice. Written by run() (or
    /// state restore), read by state save from any thread.
    let text = SeqlockBytes(capacity: 1 << 14)
    let voice = SeqlockBytes(capacity: 256)
    /// Set by state restore (never concurrent with run()): run() then sends spk:text and
    /// spk:voice on notify, so open UIs show what a preset or session brought.
    var announceParameters = false

    init(engine: SpeechEngine, defaultVoice: String, sampleRate: Double, map: UnsafePointer<LV2_URID_Map>,
         schedule: UnsafeMutablePointer<LV2_Worker_Schedule>?, log: PluginLog) {
        urids = SpkURIDs(map)
        self.sampleRate = sampleRate
        self.schedule = schedule
        self.log = log
        StaticMessage.prepare()
        noteRequests.initialize(repeating: 0, count: 128)
        worker = SynthWorker(engine: engine, urids: urids, outputRate: sampleRate, defaultVoice: defaultVoice,
                             commands: commands, frames: frames, events: events, replies: replies, log: log)
        var initialVoice = defaultVoice
        initialVoice.withUTF8 { _ = voice.store($0) }
    }

    deinit { noteRequests.deallocate() }

    func connect(_ port: UInt32, _ data: UnsafeMutableRawPointer?) {
        switch PortIndex(rawValue: port) {
        case .control?: control = data.map(UnsafeRawPointer.init)
        case .notify?: notify = data
        case .out?: out = data?.assumingMemoryBound(to: Float.self)
        case .rate?: ratePort = data.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) }
        case .pitch?: pitchPort = data.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) }
        case .volume?: volumePort = data.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) }
        case .trim?: trimPort = data.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) }
        case nil: break
        }
    }

    /// Asks for a round of work; safe in run(). Without a host worker, works right here.
    func requestWork() {
        guard !workScheduled.load(ordering: .acquiring) else { return }
        workScheduled.store(true, ordering: .releasing)
        if let schedule, let scheduleWork = schedule.pointee.schedule_work {
            var message: UInt8 = 0
            schedulingThread.store(UInt(pthread_self()), ordering: .releasing)
            let status = scheduleWork(schedule.pointee.handle, 1, &message)
            if status != LV2_WORKER_SUCCESS {
                workScheduled.store(false, ordering: .releasing)
            }
        } else {
            workScheduled.store(false, ordering: .releasing)
            worker.work(onOwnThread: false)
        }
    }

    /// The worker's entry (LV2 worker `work`).
    func work() {
        workScheduled.store(false, ordering: .releasing)
        worker.work(onOwnThread: UInt(pthread_self()) != schedulingThread.load(ordering: .acquiring))
    }
}
