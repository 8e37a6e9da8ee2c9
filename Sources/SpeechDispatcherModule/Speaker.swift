import Glibc
import LV2Host
import SpkProtocol
import Synchronization

/// Speaks one message at a time on the module's speaking thread: runs the voice's plugin
/// offline block by block and sends each block's audio to the server as `705 AUDIO` as soon as
/// it comes, with `700 INDEX MARK` between the pieces at the frame where each `<mark>` falls.
/// STOP and PAUSE from the command thread take effect at the next block.
public final class Speaker: @unchecked Sendable {
    public enum Interrupt: Int { case none = 0, stop, pause }

    private let host: SynthHost
    private let output: ModuleOutput
    private let interrupt = Atomic<Int>(0)
    private let speaking = Atomic<Bool>(false)
    private var nextRequest: Int64 = 1
    /// speech-dispatcher's own marks, where a paused message can be resumed.
    static let resumableMarkPrefix = "__spd_"

    /// How far the audio sent may run ahead of the time it takes to play (0: no bound). The
    /// server queues what it gets, so without a bound a long "say all" sits in the server's
    /// memory whole; with one, an ALSA device whose buffer is longer than the bound starts only
    /// when the message ends (it waits for a full buffer), so it is off by default.
    public let lead: Double

    public init(host: SynthHost, output: ModuleOutput, lead: Double = 0) {
        self.host = host
        self.output = output
        self.lead = lead
    }

    public var isSpeaking: Bool { speaking.load(ordering: .acquiring) }

    /// STOP or PAUSE, from the command thread.
    public func request(_ what: Interrupt) {
        guard isSpeaking else { return }
        if what == .stop || interrupt.load(ordering: .relaxed) == 0 { interrupt.store(what.rawValue, ordering: .releasing) }
    }

    /// Marks the speaker busy before the message is queued, so a STOP that arrives before the
    /// speaking thread starts still applies to it.
    public func willSpeak() {
        interrupt.store(0, ordering: .releasing)
        speaking.store(true, ordering: .releasing)
    }

    /// Speaks `ssml` with `voice` to the end, or until stopped or paused; reports BEGIN and then
    /// END, STOP or PAUSE.
    public func speak(ssml: String, voice: Voice, controls: ProsodyMapping.Controls) {
        let request = nextRequest
        nextRequest += 1
        output.lines("701 BEGIN")
        let ending: String
        do {
            ending = try run(request, ssml: ssml, voice: voice, controls: controls)
        } catch {
            ModuleLog.write("\(voice.identifier): \(error)")
            ending = "703 STOP"
        }
        // Free before the server hears the end: it sends the next message as soon as it does.
        speaking.store(false, ordering: .releasing)
        output.lines(ending)
    }

    private func run(_ request: Int64, ssml: String, voice: Voice, controls: ProsodyMapping.Controls) throws -> String {
        let rate = Int(host.sampleRate)
        var first = true
        // A message larger than the control port goes in chunks, each once the plugin is ready.
        var chunks = RequestChunks(ssml)
        var sendNext = true
        var sent = 0
        var start = 0.0
        while true {
            if sent > 0 && lead > 0 { waitForPlayback(sent: sent, start: start) }
            let (audio, events, ended, failure): ([Float], [(frame: Int64, event: SpkEvent)], Bool, String?) = try host.lock.withLock { _ in
                let synth = try host.synth(voice.plugin)
                let u = synth.plugin.urids.spk
                if first {
                    try synth.setControls(rate: controls.rate, pitch: controls.pitch, volume: controls.volume)
                }
                if interrupt.load(ordering: .acquiring) == Interrupt.stop.rawValue {
                    try cancel(synth, u)
                    return ([], [], true, nil)
                }
                var events: [(frame: Int64, event: SpkEvent)] = []
                var end: Int64?
                var failure: String?
                var message: ((inout AtomWriter) -> Void)?
                if sendNext {
                    message = chunks.nextMessage(request: request, voice: voice.identifier, u)
                    sendNext = false
                }
                try synth.runBlock(send: message) { frame, event in
                    switch event {
                    case .ready(request): sendNext = chunks.hasMore; return
                    case .finished(request), .cancelled(request): end = end ?? frame
                    case .error(request, let message): failure = message
                    default: break
                    }
                    events.append((frame, event))
                }
                let count = end.map { Int($0) } ?? synth.block
                return (Array(synth.output[..<count]), events, end != nil, failure)
            }
            first = false
            if let failure { throw HostError(failure) }
            if interrupt.load(ordering: .acquiring) == Interrupt.stop.rawValue { try stopPlugin(voice.plugin); return "703 STOP" }
            // Audio up to each mark, then the mark.
            var from = 0
            for timed in events {
                guard case .marker(let marker) = timed.event, marker.request == request, marker.type == .bookmark,
                      let name = marker.name else { continue }
                let at = min(Int(timed.frame), audio.count)
                if at > from { output.send(AudioBlock.event(audio[from..<at], sampleRate: rate)) }
                if sent == 0 { start = Self.now() }
                sent += at - from
                from = max(from, at)
                output.lines("700-\(name)", "700 INDEX MARK")
                if interrupt.load(ordering: .acquiring) == Interrupt.pause.rawValue && name.hasPrefix(Self.resumableMarkPrefix) {
                    try stopPlugin(voice.plugin)
                    return "704 PAUSE"
                }
            }
            if from < audio.count {
                output.send(AudioBlock.event(audio[from...], sampleRate: rate))
                if sent == 0 { start = Self.now() }
                sent += audio.count - from
            }
            if ended {
                return interrupt.load(ordering: .acquiring) == Interrupt.pause.rawValue ? "704 PAUSE" : "702 END"
            }
        }
    }

    /// Sleeps while the audio sent is more than `lead` ahead of its playing time, waking for STOP
    /// and PAUSE.
    private func waitForPlayback(sent: Int, start: Double) {
        while interrupt.load(ordering: .acquiring) == 0 {
            let ahead = Double(sent) / host.sampleRate - (Self.now() - start)
            guard ahead > lead else { return }
            usleep(UInt32(min(ahead - lead, 0.02) * 1_000_000))
        }
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Cancels everything the plugin still has, so the next message starts clean.
    private func stopPlugin(_ uri: String) throws {
        try host.lock.withLock { _ in
            let synth = try host.synth(uri)
            try cancel(synth, synth.plugin.urids.spk)
        }
    }

    private func cancel(_ synth: SpeechSynth, _ u: SpkURIDs) throws {
        try synth.runBlock(send: { $0.cancel(request: nil, u) }) { _, _ in }
    }
}
