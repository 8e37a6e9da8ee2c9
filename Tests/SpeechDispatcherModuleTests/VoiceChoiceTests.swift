import SpeechDispatcherModule
import SpkProtocol
import XCTest

final class VoiceChoiceTests: XCTestCase {
    func voice(_ id: String, _ name: String, _ lang: String, _ gender: Voice.Gender, age: Int = 0, personal: Bool = false) -> Voice {
        Voice(identifier: id, name: name, primaryLanguages: [lang], supportedLanguages: [lang, String(lang.prefix(2))],
              gender: gender, age: age, traits: personal ? [.personal] : [], plugin: "urn:spk:synth:test")
    }

    lazy var voices = ModuleVoices([
        voice("spk.espeak-ng.en-us", "English (America)", "en-US", .male),
        voice("spk.flite.slt", "CMU SLT", "en-US", .female),
        voice("spk.flite.rms", "CMU RMS", "en-US", .male),
        voice("spk.test.girl", "Girl", "en-GB", .female, age: 9),
        voice("spk.espeak-ng.de", "German", "de", .male),
        voice("spk.personal.me", "My Voice", "en-US", .female, personal: true),
        voice("spk.other.slt", "cmu slt", "en-US", .female),
    ])

    func testListLinesAndFilter() {
        let all = voices.listLines()
        XCTAssertEqual(all.first, "English (America)\ten-US\tmale")
        XCTAssertTrue(all.contains("spk.flite.slt\ten-US\tfemale"), "a shared name is listed by identifier: \(all)")
        XCTAssertEqual(voices.listLines(language: "de"), ["German\tde\tmale"])
        XCTAssertEqual(voices.listLines(language: "en-gb", variant: "female"), ["Girl\ten-GB\tfemale"])
    }

    func testChoice() {
        var s = ModuleSettings()
        XCTAssertEqual(voices.choose(s)?.identifier, "spk.espeak-ng.en-us", "the default")
        s.voiceType = .female1
        XCTAssertEqual(voices.choose(s)?.identifier, "spk.flite.slt")
        s.voiceType = .male2
        XCTAssertEqual(voices.choose(s)?.identifier, "spk.flite.rms")
        s.voiceType = .childFemale
        XCTAssertEqual(voices.choose(s)?.identifier, "spk.test.girl", "a child's voice speaking English")
        s.voiceType = .childMale
        XCTAssertEqual(voices.choose(s)?.gender, .male, "no boy's voice: a male one")
        s.voiceType = nil
        s.language = "de"
        XCTAssertEqual(voices.choose(s)?.identifier, "spk.espeak-ng.de")
        s.synthesisVoice = "My Voice"
        XCTAssertEqual(voices.choose(s)?.identifier, "spk.personal.me", "a personal voice when named")
        s.synthesisVoice = nil
        s.language = "en"
        s.voiceType = .female3
        XCTAssertNotEqual(voices.choose(s)?.identifier, "spk.personal.me", "never chosen by type")
    }

    func testMessageText() {
        let s = ModuleSettings()
        XCTAssertEqual(MessageText.make(.text, "<speak>Hi <mark name=\"a\"/>there</speak>", settings: s).ssml,
                       "<speak>Hi <mark name=\"a\"/>there</speak>")
        let bad = MessageText.make(.text, "<speak>Hi <b>there</speak>", settings: s)
        XCTAssertEqual(bad.ssml, "<speak>&lt;speak&gt;Hi &lt;b&gt;there&lt;/speak&gt;</speak>")
        XCTAssertNotNil(bad.problem)
        XCTAssertEqual(MessageText.make(.text, "Fish & chips", settings: s).ssml, "<speak>Fish &amp; chips</speak>")
        XCTAssertEqual(MessageText.make(.char, "space", settings: s).ssml, "<speak>space</speak>")
        XCTAssertEqual(MessageText.make(.key, "shift_a", settings: s).ssml,
                       "<speak>shift <say-as interpret-as=\"characters\">a</say-as></speak>")
        XCTAssertEqual(MessageText.make(.soundIcon, "message-new", settings: s, soundIcons: "/nonexistent").ssml, "<speak>message new</speak>")
        var r = ModuleSettings()
        r.pitchRange = 100
        XCTAssertEqual(MessageText.make(.text, "<speak version=\"1.1\">x</speak>", settings: r).ssml,
                       "<speak version=\"1.1\"><prosody range=\"+100%\">x</prosody></speak>")
        var c = ModuleSettings()
        c.capitalLetters = .spell
        XCTAssertEqual(MessageText.make(.char, "A", settings: c).ssml, "<speak>capital <say-as interpret-as=\"characters\">A</say-as></speak>")
    }
}
