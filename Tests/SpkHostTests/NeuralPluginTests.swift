import Foundation
import LV2Host
import SpkProtocol
import SpkTestSupport
import XCTest

/// The neural plugin as hosts see it: the bundle, the real-time rules, cancel, and requests
/// sent while its model is still loading.
final class NeuralPluginTests: XCTestCase {
    var home: String!

    override func setUpWithError() throws {
        _ = Fixture.lv2Path
        try NeuralFixture.requireInstalled()
        home = try NeuralFixture.home()
        // A data home of its own: its path is new to this process, so the model loads afresh.
        setenv("XDG_DATA_HOME", home, 1)
    }

    override func tearDown() {
        setenv("XDG_DATA_HOME", Fixture.dataHome, 1)
        if let home { try? FileManager.default.removeItem(atPath: home) }
    }

    func testLv2InfoDescribesAndLv2ValidateAcceptsTheBundle() {
        assertDescribedAndValid("urn:spk:synth:neural", named: "spk neural")
    }

    func testRunAllocatesNothing() {
        // spk-rt-check changes voice half way: a custom voice over Joe is the second one.
        let created = NeuralFixture.spkhost(["voice", "create", "--name", "Slow Joe", "--base", NeuralFixture.voice, "--rate", "0.8"], home: home)
        XCTAssertEqual(created.status, 0, created.stderr)
        let interposer = Fixture.productsDirectory.appendingPathComponent("libMallocInterposerSwift.so").path
        let check = Fixture.productsDirectory.appendingPathComponent("spk-rt-check").path
        let result = Fixture.run(check, ["urn:spk:synth:neural", "256"],
                                 environment: ["LV2_PATH": Fixture.lv2Path, "LD_PRELOAD": interposer, "XDG_DATA_HOME": home])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("allocations on the run() thread: 0"), result.stdout + result.stderr)
    }

    /// A live host: the worker on its own thread. Requests sent in the first blocks, while the
    /// model loads, are all spoken, in order, and run() never waits for the load.
    func testRequestsSentWhileTheModelLoadsAreQueuedAndRunNeverWaits() throws {
        let block = 256
        let plugin = try PluginInstance(world: LV2World(), uri: "urn:spk:synth:neural", sampleRate: 48000, maxBlock: block, live: true)
        let u = plugin.urids.spk
        plugin.activate()
        var events: [SpkEvent] = []
        var slowest = 0.0
        func step(_ send: ((inout AtomWriter) -> Void)? = nil) throws {
            plugin.prepareAtomPorts()
            if let send { try plugin.writeEvents(to: "control") { w in w.frameTime(0); send(&w) } }
            let start = DispatchTime.now().uptimeNanoseconds
            plugin.run(block)
            slowest = max(slowest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try plugin.forEachOutputEvent("notify") { _, atom in if let e = SpkEvent.decode(atom, u) { events.append(e) } }
        }
        for id in Int64(1)...3 { try step { $0.speak(ssml: "Request \(id), queued while the voice loads.", voice: nil, request: id, u) } }
        let deadline = Date().addingTimeInterval(60)
        while !events.contains(.finished(request: 3)) && Date() < deadline {
            try step()
            usleep(2000)
        }
        let ends = events.filter { if case .finished = $0 { return true } else { return false } }
        XCTAssertEqual(ends, [.finished(request: 1), .finished(request: 2), .finished(request: 3)], "\(events.suffix(5))")
        XCTAssertFalse(events.contains { if case .error = $0 { return true } else { return false } }, "\(events)")
        XCTAssertLessThan(slowest, 0.05, "run() took \(slowest) s once: it must never wait for the model")
    }

    /// Offline, block by block: a cancel silences the request in its block, the queued one is
    /// spoken in full after it.
    func testCancelSilencesAtOnceAndTheNextRequestIsSpokenInFull() throws {
        let synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:neural", sampleRate: 48000, block: 256)
        let u = synth.plugin.urids.spk
        var audio: [Float] = [], events: [(frame: Int, event: SpkEvent)] = []
        func step(_ send: ((inout AtomWriter) -> Void)? = nil) throws {
            let start = audio.count
            try synth.runBlock(send: send) { frame, event in events.append((start + Int(frame), event)) }
            audio += synth.output
        }
        try step { $0.speak(ssml: "This sentence, spoken by a neural voice, is cancelled half way through.", voice: nil, request: 1, u) }
        try step { $0.speak(ssml: "This one waits its turn.", voice: nil, request: 2, u) }
        for _ in 0..<120 { try step() }
        let cancelAt = audio.count
        XCTAssertGreaterThan(Signal(samples: Array(audio[0..<cancelAt]), sampleRate: 48000).rms(), 0.01, "speaking when cancelled")
        try step { $0.cancel(request: 1, u) }
        XCTAssertTrue(events.contains { $0.event == .cancelled(request: 1) && $0.frame == cancelAt })
        while !events.contains(where: { $0.event == .finished(request: 2) }) && audio.count < 48000 * 30 { try step() }
        XCTAssertFalse(events.contains { $0.event == .finished(request: 1) })
        let started2 = try XCTUnwrap(events.first { $0.event == .started(request: 2) }?.frame)
        XCTAssertEqual(started2, cancelAt, "the queued request takes over within the block")
        let finished2 = try XCTUnwrap(events.first { $0.event == .finished(request: 2) }?.frame)
        XCTAssertGreaterThan(Double(finished2 - started2) / 48000, 0.8, "request 2 spoken in full")
        let words2 = events.filter { if case .marker(let m) = $0.event { return m.request == 2 && m.type == .word } else { return false } }
        XCTAssertEqual(words2.count, 5, "This one waits its turn")
    }
}
