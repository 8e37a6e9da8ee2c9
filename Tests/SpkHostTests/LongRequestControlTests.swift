import Foundation
import LV2Host
import SpkProtocol
import SpkTestSupport
import XCTest

/// Control stays instant while a 20,000-word request plays: pause at a word and resume, a voice
/// change at the next sentence, cancel silent from its frame. The plugin is driven block by block
/// through lilv with the real espeak-ng; the request goes in chunks as the plugin asks for them.
final class LongRequestControlTests: XCTestCase {
    let block = 256, rate = 48000.0
    var synth: SpeechSynth!
    var u: SpkURIDs { synth.plugin.urids.spk }
    var audio: [Float] = []
    var events: [(frame: Int, event: SpkEvent)] = []
    var chunks: RequestChunks?
    var sendNext = false
    var data: URL!

    override func setUpWithError() throws {
        _ = Fixture.lv2Path
        data = Fixture.temporaryDirectory()
        setenv("XDG_DATA_HOME", data.path, 1)
        // A custom voice twice as fast as the default one: a change to it is heard in the words' pace.
        let created = Fixture.run(Fixture.spkhost, ["voice", "create", "--name", "Quick", "--base", "spk.espeak-ng.en-us", "--rate", "2"],
                                  environment: ["XDG_DATA_HOME": data.path, "LV2_PATH": Fixture.lv2Path])
        XCTAssertEqual(created.status, 0, created.stderr)
        synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:espeak-ng", sampleRate: rate, block: block)
    }

    override func tearDown() {
        setenv("XDG_DATA_HOME", Fixture.dataHome, 1)
        try? FileManager.default.removeItem(at: data)
    }

    /// Runs a block, sending `send` (or the request's next chunk when the plugin asked for it).
    func step(_ send: ((inout AtomWriter) -> Void)? = nil) throws {
        var message = send
        if message == nil, sendNext, var rest = chunks {
            let (text, more) = rest.next()
            chunks = rest
            message = { $0.append(request: 1, ssml: text, more: more, self.u) }
            sendNext = false
        }
        let start = audio.count
        try synth.runBlock(send: message) { frame, event in
            if event == .ready(request: 1) { self.sendNext = true } else { self.events.append((start + Int(frame), event)) }
        }
        audio += synth.output
    }

    func run(seconds: Double) throws { for _ in 0..<Int(seconds * rate) / block { try step() } }

    func run(until event: SpkEvent, within seconds: Double) throws -> Int {
        let deadline = audio.count + Int(seconds * rate)
        while audio.count < deadline {
            if let found = events.first(where: { $0.event == event }) { return found.frame }
            try step()
        }
        XCTFail("no \(event) within \(seconds) s")
        return audio.count
    }

    /// Word markers per second of audio in `range` (frames).
    func wordRate(_ range: Range<Int>) -> Double {
        let words = events.filter { if case .marker(let m) = $0.event { return m.type == .word && range.contains($0.frame) } else { return false } }
        return Double(words.count) / (Double(range.count) / rate)
    }

    func testPauseVoiceChangeAndCancelTakeEffectMidwayThroughTwentyThousandWords() throws {
        let text = Array(repeating: BenchmarkTexts.fiveHundredWords, count: 40).joined(separator: "\n\n")
        var request = RequestChunks(text)
        let (first, more) = request.next()
        chunks = request
        XCTAssertTrue(more, "the request does not fit one message")
        try step { $0.speak(ssml: first, voice: nil, request: 1, more: true, self.u) }
        let startedAt = try run(until: .started(request: 1), within: 1)
        try run(seconds: 6)
        let before = wordRate(startedAt + Int(rate)..<startedAt + Int(6 * rate))
        XCTAssertGreaterThan(Signal(samples: Array(audio.suffix(Int(rate))), sampleRate: Int(rate)).rms(), 0.01, "speaking")

        // Pause at the next word: silence from there, until Continue.
        try step { $0.pause(atWord: true, self.u) }
        let pausedAt = try run(until: .paused(request: 1), within: 2)
        try run(seconds: 1)
        XCTAssertTrue(audio[pausedAt...].allSatisfy { $0 == 0 }, "silent while paused")
        try step { $0.resume(self.u) }
        try run(seconds: 1)
        XCTAssertGreaterThan(Signal(samples: Array(audio.suffix(Int(rate / 2))), sampleRate: Int(rate)).rms(), 0.01, "speaking again")

        // A voice twice as fast, from a sentence soon after (what is rendered ahead plays first).
        try step { $0.patchSet(property: self.u.voice, string: "spk.espeak-ng.quick", self.u) }
        try run(seconds: 16)
        let after = wordRate(audio.count - Int(4 * rate)..<audio.count)
        XCTAssertGreaterThan(after / before, 1.5, "words per second \(before) -> \(after)")

        // Cancel: silent from its frame, reported there, and the rest of the request never comes.
        let cancelAt = audio.count
        try step { $0.cancel(request: 1, self.u) }
        try run(seconds: 1)
        XCTAssertTrue(events.contains { $0.event == .cancelled(request: 1) && $0.frame == cancelAt })
        XCTAssertTrue(audio[cancelAt...].allSatisfy { $0 == 0 }, "silent from the cancel")
        XCTAssertFalse(events.contains { $0.event == .finished(request: 1) })
    }
}
