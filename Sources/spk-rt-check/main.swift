// spk-rt-check: proves a synth plugin's run() allocates nothing.
//
// Run with ordo-one's malloc interposer preloaded:
//   LD_PRELOAD=.build/debug/libMallocInterposerSwift.so spk-rt-check urn:spk:synth:espeak-ng
// It hosts the plugin live (worker on its own thread, as a real-time host does), warms it up,
// then counts every allocation made on the thread that calls run() while it speaks a long
// request with markers, takes a voice change, a pause and continue, a cancel, speaks a
// request queued after the cancel to its end, speaks its spk:text on a MIDI note,
// answers a bare patch:Get and speaks a phrase-bank line (note 61). Exit status 0 only when that count is 0.

import Glibc
import LV2Host
import MallocInterposerSwift
import SpkProtocol

nonisolated(unsafe) var runThread = pthread_self()
nonisolated(unsafe) var measuring = false
nonisolated(unsafe) var allocationsInRun = 0

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    fputs("usage: spk-rt-check PLUGIN-URI [BLOCK]\n", stderr)
    exit(2)
}
let uri = arguments[1]
let block = arguments.count > 2 ? Int(arguments[2]) ?? 64 : 64

func fail(_ message: String) -> Never {
    fputs("error: \(message)\n", stderr)
    exit(1)
}

guard getenv("LD_PRELOAD").map({ String(cString: $0).contains("MallocInterposer") }) == true else {
    fail("preload libMallocInterposerSwift.so (LD_PRELOAD), or nothing is counted")
}

let plugin: PluginInstance
do {
    plugin = try PluginInstance(world: LV2World(), uri: uri, sampleRate: 48000, maxBlock: block, live: true)
} catch {
    fail("\(error)")
}
let u = plugin.urids.spk
plugin.activate()

var events: [SpkEvent] = []
var runs = 0
/// Allocations counted by the end of each phase, to say where any came from.
var phases: [(String, Int)] = []
func phase(_ name: String) { phases.append((name, allocationsInRun)) }

/// One block: optional events in at frame 0 (not counted), run() (counted), events out.
func block(_ send: ((inout AtomWriter) -> Void)? = nil) {
    plugin.prepareAtomPorts()
    if let send {
        do { try plugin.writeEvents(to: "control") { w in w.frameTime(0); send(&w) } } catch { fail("\(error)") }
    }
    measuring = true
    plugin.run(block)
    measuring = false
    runs += 1
    try? plugin.forEachOutputEvent("notify") { _, atom in
        if let event = SpkEvent.decode(atom, u) { events.append(event) }
    }
}

/// Runs blocks until `done` holds, with the worker thread given time to keep up.
func blocks(until done: () -> Bool, limit: Int = 200_000) {
    var n = 0
    while !done() {
        block()
        n += 1
        if n % 8 == 0 { usleep(200) }  // about real time for small blocks: let the worker run
        if n > limit { fail("gave up waiting after \(n) blocks; events so far: \(events.suffix(5))") }
    }
}

func finished(_ request: Int64) -> Bool { events.contains(.finished(request: request)) }
func ended(_ request: Int64) -> Bool {
    events.contains { $0 == .finished(request: request) || $0 == .cancelled(request: request) }
}

// Warm up: the voice list, and one request spoken through, so that one-time set-up is done.
block { $0.patchGet(property: u.voices, u) }
blocks(until: { events.contains { if case .voices = $0 { return true } else { return false } } })
guard case .voices(let voices)? = events.last(where: { if case .voices = $0 { return true } else { return false } }), voices.count >= 2 else {
    fail("the plugin did not list two voices or more")
}
block { $0.speak(ssml: "Warming up.", voice: nil, request: 1, u) }
blocks(until: { finished(1) })

// Measure.
MallocInterposerSwift.initialize()
MallocInterposerSwift.setAllocationHook { _ in
    if measuring && pthread_equal(pthread_self(), runThread) != 0 { allocationsInRun += 1 }
}
MallocInterposerSwift.hook()
events.removeAll(keepingCapacity: true)

let words = (1...60).map { "word\($0 % 7) <mark name=\"m\($0)\"/>" }.joined(separator: " ")
let long = "<speak><p><s>This long request has many markers.</s><s>\(words)</s></p></speak>"
block { $0.speak(ssml: long, voice: nil, request: 2, u) }
blocks(until: { events.filter { if case .marker = $0 { return true } else { return false } }.count >= 40 })
phase("speaking")
block { $0.patchSet(property: u.voice, string: voices[1].identifier, u) }
phase("voice change")
block { $0.pause(atWord: true, u) }
blocks(until: { events.contains(.paused(request: 2)) })
for _ in 0..<100 { block() }
phase("pause")
block { $0.resume(u) }
for _ in 0..<200 { block() }
phase("continue")
block { $0.speak(ssml: "Queued behind the long one, cancelled with it.", voice: nil, request: 3, u) }
block { $0.cancel(request: nil, u) }
phase("cancel")
block { $0.speak(ssml: "After the cancel, spoken in full.", voice: nil, request: 4, u) }
blocks(until: { finished(4) })
phase("after cancel")
// A request in two chunks (spk:Speak with spk:more, then spk:Append), as hosts send those
// larger than the control port.
block { $0.speak(ssml: "The first half of a request, ", voice: nil, request: 5, more: true, u) }
blocks(until: { events.contains(.ready(request: 5)) })
block { $0.append(request: 5, ssml: "and its second half.", more: false, u) }
blocks(until: { finished(5) })
phase("chunks")
block { $0.patchSet(property: u.text, string: "Spoken by a MIDI key.", u) }
block { $0.midi(0x90, 60, 100, u) }
blocks(until: { events.contains { if case .started(let r) = $0 { return r > 5 } else { return false } } })
// Held for about a quarter of a second of audio, well inside the sentence, so the note-off
// cancels it (200 blocks of 1024 frames outlasted it, and an ended request is not cancelled).
let held = max(1, 12_800 / block)
for _ in 0..<held { block() }
block { $0.midi(0x80, 60, 0, u) }
blocks(until: { events.contains { if case .cancelled(let r) = $0 { return r > 5 } else { return false } } })
phase("MIDI")
// A bare patch:Get (answered with every writable parameter) and a phrase-bank note (line 2).
block { w in let o = w.beginObject(u, otype: u.patchGet); w.end(o) }
block { $0.patchSet(property: u.text, string: "Line one.\nLine two, spoken by note 61.", u) }
block { $0.midi(0x90, 61, 100, u) }
blocks(until: { events.filter { if case .started(let r) = $0 { return r > 4 } else { return false } }.count >= 2 })
for _ in 0..<held { block() }
block { $0.midi(0x80, 61, 0, u) }
blocks(until: { events.filter { if case .cancelled(let r) = $0 { return r > 4 } else { return false } }.count >= 2 })
phase("patch:Get, phrase bank")
MallocInterposerSwift.unhook()
MallocInterposerSwift.setAllocationHook(nil)

let markers = events.filter { if case .marker = $0 { return true } else { return false } }.count
let cancelled = events.filter { if case .cancelled = $0 { return true } else { return false } }.count
print("run() calls: \(runs), block: \(block), markers: \(markers), cancelled: \(cancelled), allocations on the run() thread: \(allocationsInRun)")
print("by phase (running total): " + phases.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
guard markers >= 40, cancelled == 4, events.contains(.paused(request: 2)), events.contains(.continued(request: 2)) else {
    fail("the scenario did not happen as planned: \(markers) markers, \(cancelled) cancelled")
}
// The worker may still be making a cancelled request's last piece: let it finish before exit.
plugin.stopWorker()
exit(allocationsInRun == 0 ? 0 : 1)
