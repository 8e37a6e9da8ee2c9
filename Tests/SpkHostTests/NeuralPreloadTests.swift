import Foundation
import LV2Host
import SpkProtocol
import XCTest

/// Cold start out of the request's path (issue 21): a live plugin loads its voice's model on its
/// worker when the voice is chosen, not when the first request comes. What loaded when is read
/// from the engine's load log (SPK_NEURAL_LOAD_LOG), never from a timer.
final class NeuralPreloadTests: XCTestCase {
    var home: String!
    var loadLog: String!

    override func setUpWithError() throws {
        _ = Fixture.lv2Path
        try NeuralFixture.requireInstalled()
        // A data home of its own: its path is new to this process, so the model loads afresh.
        home = try NeuralFixture.home()
        loadLog = Fixture.temporaryDirectory().appendingPathComponent("loads.log").path
        setenv("XDG_DATA_HOME", home, 1)
        setenv("SPK_NEURAL_LOAD_LOG", loadLog, 1)
    }

    override func tearDown() {
        setenv("XDG_DATA_HOME", Fixture.dataHome, 1)
        unsetenv("SPK_NEURAL_LOAD_LOG")
        if let home { try? FileManager.default.removeItem(atPath: home) }
    }

    private var loads: [String] {
        ((try? String(contentsOfFile: loadLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A live plugin (its worker on a thread of its own) and a way to run it a block at a time.
    private final class Live {
        let plugin: PluginInstance
        var events: [SpkEvent] = []
        let block = 256
        init() throws {
            plugin = try PluginInstance(world: LV2World(), uri: "urn:spk:synth:neural", sampleRate: 48000, maxBlock: 256, live: true)
            plugin.activate()
        }
        var u: SpkURIDs { plugin.urids.spk }
        func step(_ send: ((inout AtomWriter) -> Void)? = nil) throws {
            plugin.prepareAtomPorts()
            if let send { try plugin.writeEvents(to: "control") { w in w.frameTime(0); send(&w) } }
            plugin.run(block)
            try plugin.forEachOutputEvent("notify") { _, atom in if let e = SpkEvent.decode(atom, self.u) { self.events.append(e) } }
            usleep(2000)
        }
        /// Runs blocks until `done` (or a minute, a bound for a broken plugin, not a measurement).
        func run(until done: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(60)
            while !done() && Date() < deadline { try step() }
        }
    }

    func testAVoiceChosenAtInstantiationIsLoadedBeforeTheFirstRequest() throws {
        let live = try Live()
        try live.run { loads.contains { $0.hasPrefix("loaded ") } }
        XCTAssertEqual(loads.filter { $0.hasPrefix("loaded ") }.count, 1, "no request was sent, yet the voice should have loaded: \(loads)")
        try live.step { $0.speak(ssml: "Hello there.", voice: nil, request: 1, live.u) }
        try live.run { live.events.contains(.finished(request: 1)) }
        XCTAssertTrue(live.events.contains(.finished(request: 1)), "\(live.events.suffix(5))")
        XCTAssertEqual(loads.filter { $0.hasPrefix("loading ") }.count, 1, "the request loaded the model again: \(loads)")
    }

    /// A request sent while the model loads waits for it and is spoken whole: every word of it
    /// gets its word marker.
    func testARequestDuringTheLoadWaitsAndIsSpokenWhole() throws {
        let live = try Live()
        try live.run { loads.contains { $0.hasPrefix("loading ") } }
        let text = "Please call my daughter, and tell her I will be late."
        let loadedBefore = loads.contains { $0.hasPrefix("loaded ") }
        try live.step { $0.speak(ssml: text, voice: nil, request: 7, live.u) }
        if loadedBefore { throw XCTSkip("the model loaded before the request could be sent (\(loads)); nothing was shown") }
        try live.run { live.events.contains(.finished(request: 7)) }
        XCTAssertTrue(live.events.contains(.finished(request: 7)), "\(live.events.suffix(5))")
        XCTAssertFalse(live.events.contains { if case .error = $0 { true } else { false } }, "\(live.events)")
        let words = live.events.compactMap { event -> String? in
            guard case .marker(let m) = event, m.request == 7, m.type == .word else { return nil }
            let utf8 = Array(text.utf8)
            return String(decoding: utf8[m.textOffset..<(m.textOffset + m.textLength)], as: UTF8.self)
        }
        XCTAssertEqual(words, ["Please", "call", "my", "daughter", "and", "tell", "her", "I", "will", "be", "late"], "\(live.events)")
        XCTAssertEqual(loads.filter { $0.hasPrefix("loading ") }.count, 1, "\(loads)")
    }

    /// SPK_NEURAL_THREADS reaches onnxruntime: with 2 threads its intra-op pool adds a thread
    /// to the process during the load that 1 does not.
    func testTheThreadSettingIsHonoured() throws {
        var added: [Int: Int] = [:]
        for threads in [1, 2] {
            let log = Fixture.temporaryDirectory().appendingPathComponent("threads-\(threads).log").path
            let output = Fixture.temporaryDirectory().appendingPathComponent("hello.wav").path
            let result = NeuralFixture.spkhost(["render", "--voice", NeuralFixture.voice, "--text", "Hello.", "--output", output], home: home,
                                               environment: ["SPK_NEURAL_THREADS": String(threads), "SPK_NEURAL_LOAD_LOG": log])
            XCTAssertEqual(result.status, 0, result.stderr)
            let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            let loaded = try XCTUnwrap(lines.first { $0.hasPrefix("loaded ") }, "\(lines)")
            XCTAssertTrue(loaded.contains(" threads=\(threads) "), String(loaded))
            added[threads] = loaded.split(separator: "=").last.flatMap { Int($0) }
        }
        // onnxruntime starts threads of its own either way; its intra-op pool adds one
        // thread per thread asked for beyond the first.
        let one = try XCTUnwrap(added[1]), two = try XCTUnwrap(added[2])
        XCTAssertEqual(two, one + 1, "two intra-op threads should add one thread to what one does")
    }
}
