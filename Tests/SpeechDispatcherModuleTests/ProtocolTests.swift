import SpeechDispatcherModule
import XCTest

final class ProtocolTests: XCTestCase {
    func testCommandsParse() {
        XCTAssertEqual(ModuleCommand.parse("INIT"), .initialize)
        XCTAssertEqual(ModuleCommand.parse("SPEAK"), .speak(.text))
        XCTAssertEqual(ModuleCommand.parse("SOUND_ICON"), .speak(.soundIcon))
        XCTAssertEqual(ModuleCommand.parse("LIST VOICES"), .listVoices(language: nil, variant: nil))
        XCTAssertEqual(ModuleCommand.parse("LIST VOICES en male"), .listVoices(language: "en", variant: "male"))
        XCTAssertEqual(ModuleCommand.parse("DEBUG ON /tmp/x"), .debug(on: true))
        XCTAssertEqual(ModuleCommand.parse("SPEAKX"), .unknown("SPEAKX"))
    }
}

final class BodyAndAudioTests: XCTestCase {
    func lines(_ all: [String]) -> () -> String? {
        var rest = all[...]
        return { rest.popFirst() }
    }

    func testMessageBodyDropsTheDotThatEscapesALeadingDot() {
        XCTAssertEqual(ModuleBody.readMessage(lines(["<speak>one", "..two", ".", "SPEAK"])), "<speak>one\n.two")
        XCTAssertNil(ModuleBody.readMessage(lines(["unterminated"])))
    }

    func testSettingsLines() {
        let read = ModuleBody.readSettings(lines(["rate=20", "synthesis_voice=CMU SLT", "bogus", "x=", ".", "after"]))
        XCTAssertEqual(read?.pairs.map { "\($0.0)=\($0.1)" }, ["rate=20", "synthesis_voice=CMU SLT"])
        XCTAssertEqual(read?.malformed, ["bogus", "x="])
    }

    func testAudioEventEscapesLineFeedsAndTheEscapeByte() {
        // 0x0a7d as a little-endian sample: both bytes need escaping.
        let samples: [Float] = [Float(0x7d0a) / 32767, 0, -1]
        let event = AudioBlock.event(samples, sampleRate: 22050)
        let text = String(decoding: event, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("705-bits=16\n705-num_channels=1\n705-sample_rate=22050\n705-num_samples=3\n705-big_endian=0\n705-AUDIO\0"))
        XCTAssertTrue(text.hasSuffix("\n705 AUDIO\n"))
        let headerEnd = event.firstIndex(of: 0)! + 1
        let data = event[headerEnd..<(event.count - "\n705 AUDIO\n".count)]
        XCTAssertFalse(data.contains(0x0a), "the data stays on one line")
        let pcm = AudioBlock.unescape(data)
        XCTAssertEqual(pcm.count, 6)
        let decoded = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        XCTAssertEqual(decoded, [0x7d0a, 0, -32767])
    }
}

final class SettingsAndMappingTests: XCTestCase {
    func testSettingsApplyAndRefuseBadValues() throws {
        var s = ModuleSettings()
        try s.apply("rate", "-40")
        try s.apply("voice", "CHILD_FEMALE")
        try s.apply("punctuation_mode", "all")
        try s.apply("spelling_mode", "on")
        try s.apply("language", "NULL")
        try s.apply("synthesis_voice", "CMU SLT")
        try s.apply("something_newer", "whatever")
        XCTAssertEqual(s.rate, -40)
        XCTAssertEqual(s.voiceType, .childFemale)
        XCTAssertEqual(s.punctuation, .all)
        XCTAssertTrue(s.spelling)
        XCTAssertNil(s.language)
        XCTAssertEqual(s.synthesisVoice, "CMU SLT")
        XCTAssertThrowsError(try s.apply("rate", "101"))
        XCTAssertThrowsError(try s.apply("pitch", "high"))
        XCTAssertThrowsError(try s.apply("voice", "robot"))
    }

    /// espeak-ng's module: 80, 170 and 449 words per minute at -100, 0 and +100.
    func testRateMapsLikeTheEspeakNgModule() {
        let m = ProsodyMapping()
        XCTAssertEqual(m.rate(0), 1)
        XCTAssertEqual(m.rate(100), Float(449.0 / 170), accuracy: 1e-5)
        XCTAssertEqual(m.rate(-100), Float(80.0 / 170), accuracy: 1e-5)
        XCTAssertEqual(m.rate(50), Float((170 + 279 * 0.5) / 170), accuracy: 1e-5)
        XCTAssertEqual(m.rate(-50), Float(125.0 / 170), accuracy: 1e-5)
    }

    func testPitchAndVolume() {
        let m = ProsodyMapping()
        XCTAssertEqual(m.pitch(0), 1)
        XCTAssertEqual(m.pitch(100), 2, accuracy: 1e-5)
        XCTAssertEqual(m.pitch(-100), 0.5, accuracy: 1e-5)
        XCTAssertEqual(m.volume(100), 1)
        XCTAssertEqual(m.volume(0), 0.5)
        XCTAssertEqual(m.volume(-100), 0)
        XCTAssertEqual(m.rangePercent(0), 0)
        XCTAssertEqual(m.rangePercent(100), 100)
        XCTAssertEqual(m.rangePercent(-50), -50)
    }

    func testConfigFile() throws {
        let c = try ModuleConfig.parse("# comment\nSpkDefaultVoice \"spk.flite.slt\"\n  SpkBlockFrames 512\nSpkMaxRate 400\n")
        XCTAssertEqual(c.defaultVoice, "spk.flite.slt")
        XCTAssertEqual(c.blockFrames, 512)
        XCTAssertEqual(c.mapping.maxRate, 400)
        XCTAssertThrowsError(try ModuleConfig.parse("SpkBlockFrames 1\n", path: "x.conf")) { error in
            XCTAssertEqual("\(error)", "x.conf:1: SpkBlockFrames must be a whole number in 64...16384, not '1'")
        }
        XCTAssertThrowsError(try ModuleConfig.parse("Nonsense 1\n"))
    }
}
