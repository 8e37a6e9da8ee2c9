import LV2Host
import SpkProtocol
import SpkTestSupport
import XCTest

/// The phrase bank (each line of spk:text a phrase, note 60 the first) and the patch parameters
/// a host's own controls and the plugin window read: a bare patch:Get answered with every
/// writable parameter, a patch:Set echoed. The real plugin, block by block through lilv.
final class PhraseBankTests: XCTestCase {
    var synth: SpeechSynth!
    var u: SpkURIDs { synth.plugin.urids.spk }

    override func setUpWithError() throws {
        _ = Fixture.lv2Path
        synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: 512)
    }

    /// One block; its events, and the string patch:Sets it sent (property URID, value).
    @discardableResult
    func step(_ send: ((inout AtomWriter) -> Void)? = nil, events: inout [SpkEvent]) throws -> [(UInt32, String)] {
        try synth.runBlock(send: send) { _, event in events.append(event) }
        var sets: [(UInt32, String)] = []
        try synth.plugin.forEachOutputEvent("notify") { _, atom in
            guard let object = atom.object(u), object.otype == u.patchSet,
                  let property = object[u.patchProperty]?.urid(u), let value = object[u.patchValue],
                  value.type == u.atomString else { return }
            sets.append((property, value.string))
        }
        return sets
    }

    /// Runs until `request`-less speech started by a note has finished; its word markers.
    func speakNote(_ note: UInt8, events: inout [SpkEvent]) throws -> [SpkEvent.Marker] {
        events.removeAll()
        try step({ $0.midi(0x90, note, 100, self.u) }, events: &events)
        var blocks = 0
        while !events.contains(where: { if case .finished = $0 { return true } else { return false } }) {
            try step(events: &events)
            blocks += 1
            if blocks > 2000 { XCTFail("note \(note) never finished: \(events.suffix(3))"); break }
        }
        try step({ $0.midi(0x80, note, 0, self.u) }, events: &events)
        return events.compactMap { if case .marker(let m) = $0, m.type == .word { return m } else { return nil } }
    }

    let lines = ["First line here.", "Second line is never spoken.", "Third line says this."]

    func testNotesFromSixtySpeakOneLineEachWithOffsetsIntoTheWholeText() throws {
        var events: [SpkEvent] = []
        let text = lines.joined(separator: "\n") + "\n"
        try step({ $0.patchSet(property: self.u.text, string: text, self.u) }, events: &events)
        let bytes = Array(text.utf8)
        func words(_ markers: [SpkEvent.Marker]) -> [String] {
            markers.map { String(decoding: bytes[$0.textOffset..<($0.textOffset + $0.textLength)], as: UTF8.self) }
        }
        XCTAssertEqual(words(try speakNote(60, events: &events)), ["First", "line", "here"])
        let third = try speakNote(62, events: &events)
        XCTAssertEqual(words(third), ["Third", "line", "says", "this"])
        XCTAssertEqual(third.first?.textOffset, lines[0].utf8.count + 1 + lines[1].utf8.count + 1, "offsets point into spk:text")
        // Below 60: the whole text, as before the phrase bank.
        let whole = words(try speakNote(48, events: &events))
        XCTAssertEqual(whole.first, "First")
        XCTAssertEqual(whole.last, "this")
        XCTAssertTrue(whole.contains("never"))
    }

    func testANoteBeyondTheLastLineSpeaksNothingAndSaysWhy() throws {
        var events: [SpkEvent] = []
        try step({ $0.patchSet(property: self.u.text, string: self.lines.joined(separator: "\r\n"), self.u) }, events: &events)
        events.removeAll()
        try step({ $0.midi(0x90, 63, 100, self.u) }, events: &events)
        for _ in 0..<40 { try step(events: &events) }
        XCTAssertFalse(events.contains { if case .started = $0 { return true } else { return false } }, "\(events)")
        let message = events.compactMap { if case .error(_, let m) = $0 { return m } else { return nil } }.first
        XCTAssertEqual(message, "MIDI note 63 asks for line 4 of spk:text, which has 3 lines (or that line is empty): nothing spoken")
        // CRLF lines: the second line is spoken, and its markers stay inside it (not its CR).
        let second = try speakNote(61, events: &events)
        let text = Array(lines.joined(separator: "\r\n").utf8)
        let line = (lines[0].utf8.count + 2)..<(lines[0].utf8.count + 2 + lines[1].utf8.count)
        XCTAssertEqual(second.prefix(5).map { String(decoding: text[$0.textOffset..<($0.textOffset + $0.textLength)], as: UTF8.self) },
                       ["Second", "line", "is", "never", "spoken"])
        // (espeak-ng now and then adds a word event spanning the whole utterance at its end.)
        XCTAssertTrue(second.allSatisfy { line.contains($0.textOffset) && $0.textOffset + $0.textLength <= line.upperBound }, "\(second)")
    }

    /// A preset applied while the plugin runs: its next block tells open UIs the new values.
    func testARestoredStateIsAnnouncedOnNotify() throws {
        var events: [SpkEvent] = []
        try step({ $0.patchSet(property: self.u.text, string: "Before the preset.", self.u) }, events: &events)
        try synth.plugin.applyPreset("urn:spk:preset:espeak-ng:reading-voice")
        let announced = try step(events: &events)
        XCTAssertEqual(announced.first { $0.0 == u.text }?.1, "Before the preset.", "a preset without a text keeps it")
        XCTAssertNotNil(announced.first { $0.0 == u.voice }, "\(announced)")
        XCTAssertTrue(try step(events: &events).isEmpty, "once")
    }

    func testBarePatchGetAnswersEveryWritableParameterAndSetsAreEchoed() throws {
        var events: [SpkEvent] = []
        try step({ $0.patchGet(property: self.u.voices, self.u) }, events: &events)
        var voices: [Voice] = []
        for _ in 0..<200 where voices.isEmpty {
            try step(events: &events)
            voices = events.compactMap { if case .voices(let v) = $0 { return v } else { return nil } }.first ?? []
        }
        let voice = try XCTUnwrap(voices.last).identifier
        // A patch:Set is echoed as it came.
        let echoedText = try step({ $0.patchSet(property: self.u.text, string: "Echo me.", self.u) }, events: &events)
        XCTAssertEqual(echoedText.map(\.1), ["Echo me."])
        XCTAssertEqual(echoedText.first?.0, u.text)
        let echoedVoice = try step({ $0.patchSet(property: self.u.voice, string: voice, self.u) }, events: &events)
        XCTAssertEqual(echoedVoice.first?.0, u.voice)
        XCTAssertEqual(echoedVoice.first?.1, voice)
        // A bare patch:Get: the current text and voice.
        let answer = try step({ w in
            let object = w.beginObject(self.u, otype: self.u.patchGet)
            w.end(object)
        }, events: &events)
        XCTAssertEqual(answer.count, 2, "\(answer)")
        XCTAssertEqual(answer.first { $0.0 == u.text }?.1, "Echo me.")
        XCTAssertEqual(answer.first { $0.0 == u.voice }?.1, voice)
    }
}
