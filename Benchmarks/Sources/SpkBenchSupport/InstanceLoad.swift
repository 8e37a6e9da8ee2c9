import Glibc
import LV2Host
import SpkProtocol

/// Several instances of a synth speaking at once in one real-time loop: one audio thread runs
/// every instance's `run()` each period; each instance has its own worker thread, as a host gives
/// it. Every instance speaks `text` again as soon as it finishes, starts spread over one request's
/// length, so that all of them are speaking (and rendering) throughout the measured window.
public final class InstanceLoad {
    public struct Result {
        /// Per period: the time of all `run()` calls together over the period.
        public var cycleShares: [Double] = []
        /// Periods whose `run()` calls together took longer than the period.
        public var overBudget = 0
        /// Per finished request: frames from spk:Started to spk:Finished beyond the request's
        /// offline length (0 when the worker kept up; more when run() ran out of audio).
        public var stallFrames: [Int] = []
        /// Per request: frames from the request to its spk:Started.
        public var startFrames: [Int] = []
        /// Deadlines the loop woke up for late (the machine's scheduling, not the plugins).
        public var lateWakeUps = 0
        public var realTime = false
    }

    private struct Voice {
        let plugin: PluginInstance
        let out: UnsafeMutablePointer<Float>
        var request: Int64 = 0
        var sentAt = 0
        var startedAt: Int?
        var sendAt: Int
    }

    /// Runs `count` instances of `voice` for `seconds` after they have all started; `length` is
    /// the request's offline length in frames.
    public static func run(world: LV2World, voice: BenchVoice, count: Int, text: String, length: Int,
                           block: Int = 128, seconds: Double = 5) throws -> Result {
        let rate = 48000.0
        let period = Double(block) / rate
        var voices: [Voice] = []
        for i in 0..<count {
            let plugin = try PluginInstance(world: world, uri: voice.plugin, sampleRate: rate, maxBlock: block, live: true)
            plugin.activate()
            let out = plugin.audio[try plugin.port("out").index]!
            voices.append(Voice(plugin: plugin, out: out, sendAt: i * length / count / block * block))
        }
        let u = voices[0].plugin.urids.spk
        var result = Result()
        result.realTime = RealTimePriority.promote()
        defer { if result.realTime { RealTimePriority.demote() } }

        let measureFrom = length + Int(0.5 * rate)          // all started, and past the first requests
        let measureTo = measureFrom + Int(seconds * rate)
        var clock = PacedClock(period: period)
        var frame = 0
        var nextID: Int64 = 1
        var runSeconds = [Double](repeating: 0, count: count)
        result.cycleShares.reserveCapacity(Int(seconds / period) + 1)
        while frame < measureTo {
            clock.waitForNextPeriod()
            // The audio thread's work: every instance's run(), timed one by one.
            for i in voices.indices {
                voices[i].plugin.prepareAtomPorts()
                if voices[i].sendAt == frame {
                    let id = nextID
                    nextID += 1
                    voices[i].request = id
                    voices[i].sentAt = frame
                    voices[i].startedAt = nil
                    try voices[i].plugin.writeEvents(to: "control") { w in
                        w.frameTime(0)
                        w.speak(ssml: text, voice: voice.identifier, request: id, u)
                    }
                }
                let start = PacedClock.monotonic()
                voices[i].plugin.run(block)
                runSeconds[i] = PacedClock.monotonic() - start
            }
            let total = runSeconds.reduce(0, +)
            let measuring = frame >= measureFrom
            if measuring {
                result.cycleShares.append(total / period)
                if total > period { result.overBudget += 1 }
            }
            // Events, after the audio thread's part of the period.
            for i in voices.indices {
                let id = voices[i].request
                var startedAt: Int?, finishedAt: Int?
                try voices[i].plugin.forEachOutputEvent("notify") { time, atom in
                    switch SpkEvent.decode(atom, u) {
                    case .started(id)?: startedAt = frame + Int(time)
                    case .finished(id)?: finishedAt = frame + Int(time)
                    case .error(id, let message)?: fputs("instance \(i): \(message)\n", stderr)
                    default: break
                    }
                }
                if let startedAt {
                    voices[i].startedAt = startedAt
                    if measuring { result.startFrames.append(startedAt - voices[i].sentAt) }
                }
                if let finishedAt, let startedAt = voices[i].startedAt {
                    if measuring { result.stallFrames.append(finishedAt - startedAt - length) }
                    voices[i].sendAt = frame + block   // speak again in the next period
                }
            }
            frame += block
        }
        result.lateWakeUps = clock.lateWakeUps
        // Quiet every instance before they go (their workers stop with them).
        for i in voices.indices {
            voices[i].plugin.prepareAtomPorts()
            try voices[i].plugin.writeEvents(to: "control") { w in w.frameTime(0); w.cancel(request: nil, u) }
            voices[i].plugin.run(block)
        }
        return result
    }
}
