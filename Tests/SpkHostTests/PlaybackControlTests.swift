import LV2Host
import SpkProtocol
import SpkTestSupport
import XCTest

/// Cancel, pause and continue, several instances at once: the plugin driven block by block
/// through lilv, with the real espeak-ng.
final class PlaybackControlTests: XCTestCase {
    var synth: SpeechSynth!
    var u: SpkURIDs { synth.plugin.urids.spk }
    let block = 256

    override func setUpWithError() throws {
        _ = Fixture.lv2Path
        synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: block)
    }

    /// Runs one block, recording audio and events (with absolute frames).
    func step(_ send: ((inout AtomWriter) -> Void)? = nil, audio: inout [Float], events: inout [(frame: Int, event: SpkEvent)]) throws {
        let start = audio.count
        try synth.runBlock(send: send) { frame, event in events.append((start + Int(frame), event)) }
        audio += synth.output
    }

    func testCancelSilencesAtOnceAndLeavesLaterRequestsAlone() throws {
        var audio: [Float] = [], events: [(frame: Int, event: SpkEvent)] = []
        try step({ $0.speak(ssml: "This sentence is cancelled half way through its words.", voice: nil, request: 1, self.u) }, audio: &audio, events: &events)
        try step({ $0.speak(ssml: "This one waits its turn and is spoken in full.", voice: nil, request: 2, self.u) }, audio: &audio, events: &events)
        for _ in 0..<100 { try step(audio: &audio, events: &events) }  // about half a second in
        let cancelAt = audio.count
        XCTAssertGreaterThan(Signal(samples: Array(audio[(cancelAt - 4800)...]), sampleRate: 48000).rms(), 0.01, "speaking when cancelled")
        try step({ $0.cancel(request: 1, self.u) }, audio: &audio, events: &events)
        XCTAssertTrue(events.contains { $0.event == .cancelled(request: 1) && $0.frame == cancelAt })
        while !events.contains(where: { $0.event == .finished(request: 2) }) {
            try step(audio: &audio, events: &events)
            XCTAssertLessThan(audio.count, 48000 * 20, "request 2 never finished")
            if audio.count > 48000 * 20 { return }
        }
        XCTAssertFalse(events.contains { $0.event == .finished(request: 1) }, "a cancelled request does not finish")
        // Request 2 starts right at the cancel (nothing of 1 is left) and is complete: compare
        // with the same sentence rendered alone.
        let started2 = try XCTUnwrap(events.first { $0.event == .started(request: 2) }?.frame)
        XCTAssertEqual(started2, cancelAt, "the queued request takes over within the block")
        let finished2 = try XCTUnwrap(events.first { $0.event == .finished(request: 2) }?.frame)
        let alone = try synth.render(ssml: "This one waits its turn and is spoken in full.", voice: nil) { _ in }
        let aloneLength = try XCTUnwrap(alone.first { if case .finished = $0.event { return true } else { return false } }?.frame)
        // espeak-ng's wave generator keeps its phase from one utterance to the next, so the same
        // text comes out a few samples longer or shorter each time within one process.
        XCTAssertEqual(Double(finished2 - started2), Double(aloneLength), accuracy: Double(aloneLength) * 0.02, "request 2 spoken in full")
    }

    func testCancelEverythingIsSilentWithinTheBlockAndReportsEachRequest() throws {
        var audio: [Float] = [], events: [(frame: Int, event: SpkEvent)] = []
        for id in Int64(1)...3 {
            try step({ $0.speak(ssml: "Request number \(id) has a few words to say.", voice: nil, request: id, self.u) }, audio: &audio, events: &events)
        }
        for _ in 0..<60 { try step(audio: &audio, events: &events) }
        let cancelAt = audio.count
        try step({ $0.cancel(request: nil, self.u) }, audio: &audio, events: &events)
        for _ in 0..<40 { try step(audio: &audio, events: &events) }
        XCTAssertEqual(Set(events.filter { if case .cancelled = $0.event { return true } else { return false } }.map(\.frame)), [cancelAt])
        XCTAssertEqual(events.filter { if case .cancelled = $0.event { return true } else { return false } }.count, 3)
        XCTAssertEqual(Signal(samples: Array(audio[cancelAt...]), sampleRate: 48000).rms(), 0, "silent from the cancel on")
    }

    func testPauseAtWordStopsAtTheNextWordAndContinueResumesThere() throws {
        var audio: [Float] = [], events: [(frame: Int, event: SpkEvent)] = []
        let text = "one two three four five six seven eight"
        try step({ $0.speak(ssml: text, voice: nil, request: 1, self.u) }, audio: &audio, events: &events)
        for _ in 0..<70 { try step(audio: &audio, events: &events) }
        let pauseAsked = audio.count
        try step({ $0.pause(atWord: true, self.u) }, audio: &audio, events: &events)
        while !events.contains(where: { $0.event == .paused(request: 1) }) {
            try step(audio: &audio, events: &events)
            if audio.count > pauseAsked + 48000 * 3 { return XCTFail("never paused") }
        }
        let pausedAt = try XCTUnwrap(events.first { $0.event == .paused(request: 1) }?.frame)
        let wordsBefore = events.filter { if case .marker(let m) = $0.event, m.type == .word { return $0.frame < pauseAsked } else { return false } }
        // It stops where the next word would start: after the word that was speaking.
        XCTAssertGreaterThan(pausedAt, pauseAsked)
        for _ in 0..<40 { try step(audio: &audio, events: &events) }
        let silence = Signal(samples: Array(audio[(pausedAt + 1)...]), sampleRate: 48000)
        XCTAssertEqual(silence.rms(), 0, "silent while paused")
        let resumeAt = audio.count
        try step({ $0.resume(self.u) }, audio: &audio, events: &events)
        XCTAssertTrue(events.contains { $0.event == .continued(request: 1) && $0.frame == resumeAt })
        while !events.contains(where: { $0.event == .finished(request: 1) }) {
            try step(audio: &audio, events: &events)
            if audio.count > 48000 * 20 { return XCTFail("never finished") }
        }
        // The next word's marker comes exactly at the resume, and no word is lost.
        let wordsAfter = events.filter { if case .marker(let m) = $0.event, m.type == .word { return $0.frame >= resumeAt } else { return false } }
        XCTAssertEqual(wordsAfter.first?.frame, resumeAt, "speech resumes with the next word")
        let allWords = events.filter { if case .marker(let m) = $0.event { return m.type == .word } else { return false } }
        XCTAssertEqual(allWords.count, 8)
        XCTAssertEqual(wordsBefore.count + wordsAfter.count, 8)
    }

    func testSeveralInstancesSpeakAtOnce() throws {
        let texts = ["The first instance speaks this.", "A second one says something else.", "And a third, at the same time."]
        let world = LV2World()
        var alone: [[Float]] = []
        for text in texts {
            let s = try SpeechSynth(world: world, uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: 128)
            var out: [Float] = []
            _ = try s.render(ssml: text, voice: nil) { out += $0 }
            alone.append(out)
        }
        let synths = try texts.map { _ in try SpeechSynth(world: world, uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: 128) }
        var together = [[Float]](repeating: [], count: texts.count)
        DispatchQueue.concurrentPerform(iterations: texts.count) { i in
            var out: [Float] = []
            _ = try? synths[i].render(ssml: texts[i], voice: nil) { out += $0 }
            together[i] = out
        }
        // Not bit for bit: espeak-ng's output varies by a few samples between utterances.
        for i in texts.indices {
            let a = Signal(samples: alone[i], sampleRate: 48000), t = Signal(samples: together[i], sampleRate: 48000)
            XCTAssertEqual(t.seconds, a.seconds, accuracy: a.seconds * 0.02, "instance \(i) length")
            XCTAssertEqual(t.rms(), a.rms(), accuracy: a.rms() * 0.05, "instance \(i) loudness")
        }
    }
}
