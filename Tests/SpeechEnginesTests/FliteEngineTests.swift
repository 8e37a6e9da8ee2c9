import SSML
import SpeechEngines
import SpkProtocol
import SpkTestSupport
import XCTest

/// The flite adapter against the real libflite and Debian's CMU voices.
final class FliteEngineTests: XCTestCase {
    var engine: FliteEngine!
    override func setUpWithError() throws { engine = try FliteEngine.shared() }

    static let voiceNames = ["slt", "rms", "awb", "kal16", "kal"]

    func speak(_ text: String, voice: String = "slt", prosody: EngineProsody = EngineProsody(), spellOut: Bool = false,
               phonemes: Phonemes? = nil, isCancelled: () -> Bool = { false }) throws -> SynthesisOutput {
        var output = SynthesisOutput()
        try engine.synthesize(SynthesisText(text: text, spellOut: spellOut, phonemes: phonemes),
                              voice: try engine.requireVoice(named: voice), prosody: prosody, into: &output, isCancelled: isCancelled)
        return output
    }

    func signal(_ output: SynthesisOutput) -> Signal { Signal(samples: output.samples, sampleRate: Int(engine.sampleRate)) }

    /// The median f0 of the voiced 40 ms windows, by autocorrelation.
    func medianPitch(_ output: SynthesisOutput) -> Double {
        let s = signal(output), window = s.sampleRate / 25
        var pitches: [Double] = []
        for start in stride(from: 0, to: s.samples.count - window, by: window / 2) where s.rms(start..<start + window) > 0.05 {
            pitches.append(s.pitch(in: start..<start + window))
        }
        return pitches.sorted()[pitches.count / 2]
    }

    func texts(of output: SynthesisOutput, _ kind: MarkType, in text: String) -> [String] {
        let utf8 = Array(text.utf8)
        return output.boundaries.filter { $0.kind == kind }.map { String(decoding: utf8[$0.textRange], as: UTF8.self) }
    }

    func testVoicesHaveIdentifiersLanguagesAndGenders() {
        XCTAssertEqual(engine.sampleRate, 16000)
        XCTAssertEqual(engine.voices.map(\.identifier), Self.voiceNames.map { "spk.flite.\($0)" })
        XCTAssertTrue(engine.voices.allSatisfy { $0.plugin == "urn:spk:synth:flite" && !$0.name.isEmpty })
        XCTAssertEqual(engine.voice(named: "slt")?.gender, .female)
        XCTAssertTrue(["rms", "awb", "kal16", "kal"].allSatisfy { engine.voice(named: $0)?.gender == .male })
        XCTAssertEqual(engine.voice(named: "awb")?.primaryLanguages, ["en-GB"])
        XCTAssertTrue(["slt", "rms", "kal16", "kal"].allSatisfy { engine.voice(named: $0)?.primaryLanguages == ["en-US"] })
        XCTAssertEqual(FliteEngine.defaultVoice, "spk.flite.slt")
        XCTAssertNotNil(engine.voice(named: FliteEngine.defaultVoice))
    }

    func testEveryVoiceSpeaks() throws {
        for voice in Self.voiceNames {
            let output = try speak("Every voice can say this.", voice: voice)
            let s = signal(output)
            XCTAssertGreaterThan(s.spokenDuration, 0.8, voice)
            XCTAssertLessThan(s.spokenDuration, 3, voice)
            XCTAssertGreaterThan(s.rms(), 0.02, voice)
            XCTAssertEqual(texts(of: output, .word, in: "Every voice can say this."), ["Every", "voice", "can", "say", "this"], voice)
        }
    }

    func testWordBoundariesCarryByteRangesIncludingNumbersAndPunctuation() throws {
        let text = "\u{201C}Well,\u{201D} it costs $5 (by e-mail), caf\u{E9} owners say."
        let output = try speak(text)
        // "$5" is read "five dollars": both words point at the token.
        XCTAssertEqual(texts(of: output, .word, in: text), ["Well", "it", "costs", "$5", "$5", "by", "e", "mail", "caf\u{E9}", "owners", "say"])
        let words = output.boundaries.filter { $0.kind == .word }
        XCTAssertEqual(words.map(\.sample), words.map(\.sample).sorted())
        XCTAssertLessThan(words.last!.sample, output.samples.count)
        XCTAssertEqual(output.boundaries.first?.kind, .sentence)
        XCTAssertEqual(output.boundaries.first?.sample, words.first?.sample)
        // A word's audio starts at its boundary: "owners" (a vowel first) sounds at once, and
        // "café" after the comma's pause starts after silence.
        let owners = words[9].sample, cafe = words[8].sample
        XCTAssertGreaterThan(signal(output).rms(owners..<owners + 800), 0.05)
        XCTAssertLessThan(signal(output).rms(cafe - 800..<cafe), 0.005)
    }

    func testSentencesEachStartAtTheirFirstWord() throws {
        let text = "The first sentence ends here. Does the second? Yes!"
        let output = try speak(text)
        XCTAssertEqual(texts(of: output, .sentence, in: text), ["The first sentence ends here.", "Does the second?", "Yes!"])
        for sentence in output.boundaries.filter({ $0.kind == .sentence }) {
            let word = output.boundaries.first { $0.kind == .word && $0.textRange.lowerBound == sentence.textRange.lowerBound }
            XCTAssertEqual(word?.sample, sentence.sample)
        }
    }

    /// flite streams each sentence as it makes it: a cancel stops it within the sentence, at the
    /// next stretch of audio, rather than after the sentence (or the run) is made.
    func testCancellationStopsFliteWithinTheSentence() throws {
        let text = "One sentence is spoken. The next is not. Nor this one."
        let whole = try speak(text)
        var checks = 0
        let output = try speak(text, isCancelled: { checks += 1; return checks >= 3 })  // after three stretches
        XCTAssertEqual(checks, 3, "no audio handed on after the cancel")
        XCTAssertGreaterThan(Double(whole.samples.count) / 16000, 2)
        XCTAssertLessThan(Double(output.samples.count) / 16000, 0.25, "stopped within the first sentence")
        XCTAssertLessThanOrEqual(output.boundaries.filter { $0.kind == .sentence }.count, 1)
    }

    func testRateTwoHalvesTheLengthForEveryVoice() throws {
        let text = "This sentence is spoken at two speeds."
        for voice in Self.voiceNames {
            let normal = try speak(text, voice: voice)
            let fast = try speak(text, voice: voice, prosody: EngineProsody(rate: 2))
            let ratio = signal(fast).spokenDuration / signal(normal).spokenDuration
            XCTAssertGreaterThan(ratio, 0.4, voice)
            XCTAssertLessThan(ratio, 0.65, voice)
            // Word boundaries move with the words.
            let last = { (o: SynthesisOutput) in Double(o.boundaries.last { $0.kind == .word }!.sample) }
            XCTAssertEqual(last(fast) / last(normal), 0.5, accuracy: 0.12, voice)
        }
    }

    func testPitchMovesTheFundamentalForEveryVoice() throws {
        let text = "We were away a year ago."
        for voice in Self.voiceNames {
            let normal = medianPitch(try speak(text, voice: voice))
            let high = medianPitch(try speak(text, voice: voice, prosody: EngineProsody(pitch: 1.5)))
            let low = medianPitch(try speak(text, voice: voice, prosody: EngineProsody(pitch: 0.75)))
            XCTAssertGreaterThan(high, normal * 1.3, "\(voice): high \(high) vs \(normal)")
            XCTAssertLessThan(low, normal * 0.9, "\(voice): low \(low) vs \(normal)")
        }
    }

    func testPitchInHertzSetsTheLevel() throws {
        let pitch = medianPitch(try speak("We were away a year ago.", prosody: EngineProsody(pitchHz: 120)))
        XCTAssertEqual(pitch, 120, accuracy: 20)
    }

    func testPitchRangeFlattensOrLivensTheIntonation() throws {
        func spread(_ range: Double) throws -> Double {
            let output = try speak("Why would anybody ever want to go there?", prosody: EngineProsody(pitchRange: range))
            let s = signal(output), window = s.sampleRate / 25
            var pitches: [Double] = []
            for start in stride(from: 0, to: s.samples.count - window, by: window / 2) where s.rms(start..<start + window) > 0.05 {
                pitches.append(s.pitch(in: start..<start + window))
            }
            let mean = pitches.reduce(0, +) / Double(pitches.count)
            return (pitches.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(pitches.count)).squareRoot()
        }
        XCTAssertLessThan(try spread(0), try spread(2))
    }

    func testKalIsResampledToTheEngineRate() throws {
        let text = "The eight kilohertz voice."
        let kal = try speak(text, voice: "kal"), kal16 = try speak(text, voice: "kal16")
        // Same diphones and durations at both rates: the same length once kal is at 16 kHz.
        XCTAssertEqual(signal(kal).seconds, signal(kal16).seconds, accuracy: 0.05)
        XCTAssertEqual(Double(kal.boundaries.last!.sample), Double(kal16.boundaries.last!.sample), accuracy: 160)
        // Band-limited resampling leaves nothing above kal's 4 kHz Nyquist frequency: the
        // difference of neighbouring samples (a high-pass) is small next to the signal.
        let s = signal(kal)
        let highPassed = Signal(samples: zip(s.samples.dropFirst(), s.samples).map { $0 - $1 }, sampleRate: s.sampleRate)
        XCTAssertLessThan(highPassed.rms() / s.rms(), 0.8)
    }

    func testSpellOutReadsLetterNames() throws {
        let word = try speak("cat")
        let letters = try speak("c a t", spellOut: true)
        XCTAssertGreaterThan(signal(letters).spokenDuration, signal(word).spokenDuration * 1.5)
        XCTAssertEqual(texts(of: letters, .word, in: "c a t"), ["c", "a", "t"])
        // A lone "a" read as a letter is "ey", longer than the article "uh".
        let article = try speak("a b"), letter = try speak("a b", spellOut: true)
        let gap = { (o: SynthesisOutput) in o.boundaries.filter { $0.kind == .word }.map(\.sample).reduce(0) { $1 - $0 } }
        XCTAssertGreaterThan(Double(gap(letter)), Double(gap(article)) * 1.5, "the a of a spelled word must be a letter name")
    }

    func testIPAPhonemesAreSpoken() throws {
        let ipa = Phonemes(alphabet: "ipa", symbols: "təˈmɑːtoʊ")
        let tomato = try speak("tomato", phonemes: ipa)
        let other = try speak("x", phonemes: ipa)
        XCTAssertEqual(other.samples.count, tomato.samples.count, "the phonemes are read, not the text")
        XCTAssertGreaterThan(signal(other).spokenDuration, signal(try speak("x")).spokenDuration * 1.25)
        XCTAssertEqual(texts(of: other, .word, in: "x"), ["x"])
        // Something flite has no phone for: the text is read instead.
        let click = try speak("tomato", phonemes: Phonemes(alphabet: "ipa", symbols: "ǃ"))
        XCTAssertEqual(click.samples.count, try speak("tomato").samples.count)
    }

    func testUnknownVoiceIsAnError() {
        XCTAssertThrowsError(try engine.requireVoice(named: "spk.flite.nobody")) { error in
            XCTAssertTrue("\(error)".contains("unknown voice 'spk.flite.nobody'"), "\(error)")
        }
    }

    func testLanguageAndGenderSelectAVoice() throws {
        let slt = try engine.requireVoice(named: "slt")
        XCTAssertEqual(try choose(engine, VoiceSelection(), language: "en-US", requestVoice: slt), slt)
        XCTAssertEqual(try choose(engine, VoiceSelection(), language: "en", requestVoice: slt), slt)
        XCTAssertEqual(try choose(engine, VoiceSelection(gender: "male"), language: nil, requestVoice: slt).identifier, "spk.flite.rms")
        XCTAssertEqual(try choose(engine, VoiceSelection(gender: "female"), language: nil,
                                        requestVoice: try engine.requireVoice(named: "kal")).identifier, "spk.flite.slt")
        XCTAssertEqual(try choose(engine, VoiceSelection(), language: "en-GB", requestVoice: slt).identifier, "spk.flite.awb")
        XCTAssertEqual(try choose(engine, VoiceSelection(name: "kal16"), language: nil, requestVoice: slt).identifier, "spk.flite.kal16")
        XCTAssertThrowsError(try choose(engine, VoiceSelection(), language: "de-DE", requestVoice: slt)) { error in
            XCTAssertTrue("\(error)".contains("de-DE"), "\(error)")
        }
        XCTAssertThrowsError(try choose(engine, VoiceSelection(name: "nobody"), language: nil, requestVoice: slt))
    }
}
