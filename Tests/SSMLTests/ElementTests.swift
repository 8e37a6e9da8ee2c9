import XCTest
@testable import SSML

final class ElementTests: XCTestCase {
    func testAppleExample() throws {
        let request = #"<speak>Hello <break time="1s"/><prosody rate="200%">nice to meet you!</prosody></speak>"#
        let program = try SSMLParser.parse(request)
        let hello = TextRun(text: "Hello ", sourceMap: SourceMap(text: "Hello ", source: SourceRange(offset: 7, length: 6)),
                            style: Style())
        let nice = TextRun(text: "nice to meet you!",
                           sourceMap: SourceMap(text: "nice to meet you!", source: SourceRange(offset: 52, length: 17)),
                           style: Style(rate: 2))
        XCTAssertEqual(program, SpeechProgram(items: [
            .text(hello),
            .pause(seconds: 1, source: SourceRange(offset: 13, length: 18)),
            .text(nice),
        ]))
        XCTAssertEqual(excerpt(request, SourceRange(offset: 13, length: 18)), #"<break time="1s"/>"#)
        XCTAssertEqual(sourceOf("meet", in: nice, request: request), "meet")
    }

    func testSpeakLanguageAndVersion() throws {
        let program = parsed(#"<speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-GB">Hi</speak>"#)
        XCTAssertEqual(program.language, "en-GB")
        XCTAssertEqual(program.runs.first?.style.language, "en-GB")
        XCTAssertNil(parsed("<speak>Hi</speak>").language)
    }

    func testEmptySpeakHasNoItems() {
        XCTAssertEqual(parsed("<speak/>").items, [])
        XCTAssertEqual(parsed("<speak></speak>").items, [])
    }

    func testParagraphsAndSentencesAreBoundariesAtTheirStartTags() throws {
        let request = #"<speak><p>One. <s xml:lang="fr">Deux.</s><s>Three.</s></p><p>Four.</p></speak>"#
        let program = parsed(request)
        let boundaries: [(Boundary, String)] = program.items.compactMap {
            if case .boundary(let kind, let source) = $0 { return (kind, excerpt(request, source)) } else { return nil }
        }
        XCTAssertEqual(boundaries.map(\.0), [.paragraph, .sentence, .sentence, .paragraph])
        XCTAssertEqual(boundaries.map(\.1), ["<p>", #"<s xml:lang="fr">"#, "<s>", "<p>"])
        XCTAssertEqual(program.runs.map(\.text), ["One. ", "Deux.", "Three.", "Four."])
        XCTAssertEqual(program.runs.map(\.style.language), [nil, "fr", nil, nil])
        guard case .boundary = program.items[0], case .text = program.items[1], case .boundary = program.items[2] else {
            return XCTFail("order: \(program.items)")
        }
    }

    func testBreakStrengthsAndTimes() {
        let cases: [(String, Double)] = [
            (#"<break/>"#, 0.5), (#"<break strength="none"/>"#, 0), (#"<break strength="x-weak"/>"#, 0.1),
            (#"<break strength="weak"/>"#, 0.25), (#"<break strength="medium"/>"#, 0.5), (#"<break strength="strong"/>"#, 0.8),
            (#"<break strength="x-strong"/>"#, 1.2), (#"<break time="1s"/>"#, 1), (#"<break time="500ms"/>"#, 0.5),
            (#"<break time="1.5s"/>"#, 1.5), (#"<break time="0s"/>"#, 0), (#"<break time=" 250ms "/>"#, 0.25),
            (#"<break strength="x-strong" time="100ms"/>"#, 0.1), (#"<break time="2s" strength="none"></break>"#, 2),
        ]
        for (markup, seconds) in cases {
            let pauses = parsed("<speak>a\(markup)b</speak>").pauses
            XCTAssertEqual(pauses.count, 1, markup)
            XCTAssertEqual(pauses.first ?? -1, seconds, accuracy: 1e-12, markup)
        }
    }

    func testBadBreaksAreErrors() {
        assertSSMLError(#"<speak><break time="fast"/></speak>"#, line: 1, column: 8, #"time "fast" is not valid"#)
        assertSSMLError(#"<speak><break time="1"/></speak>"#, line: 1, column: 8, "unit")
        assertSSMLError(#"<speak><break time="-1s"/></speak>"#, line: 1, column: 8, "time")
        assertSSMLError(#"<speak><break time="1h"/></speak>"#, line: 1, column: 8, "unit")
        assertSSMLError(#"<speak><break strength="loud"/></speak>"#, line: 1, column: 8, #"strength "loud""#)
        assertSSMLError(#"<speak><break>text</break></speak>"#, line: 1, column: 8, "<break> must be empty")
        assertSSMLError(#"<speak><break><mark name="a"/></break></speak>"#, line: 1, column: 15, "<break> must be empty")
    }

    func testEmphasisLevels() {
        XCTAssertEqual(contentStyle(of: "<emphasis>a</emphasis>")?.emphasis, .moderate)
        for level in ["strong", "moderate", "none", "reduced"] {
            XCTAssertEqual(contentStyle(of: #"<emphasis level="\#(level)">a</emphasis>"#)?.emphasis, Emphasis(rawValue: level))
        }
        XCTAssertEqual(contentStyle(of: #"<emphasis level="strong"><emphasis level="reduced">a</emphasis></emphasis>"#)?.emphasis, .reduced)
        XCTAssertNil(contentStyle(of: "a")?.emphasis)
        assertSSMLError(#"<speak><emphasis level="loud">a</emphasis></speak>"#, line: 1, column: 8, #"level "loud" is not valid"#)
    }

    func testSubSpeaksItsAliasForTheWholeElement() throws {
        let request = #"<speak>The <sub alias="World Wide Web Consortium">W3C</sub> met.</speak>"#
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, "The World Wide Web Consortium met.")
        XCTAssertEqual(sourceOf("Wide", in: run, request: request), #"<sub alias="World Wide Web Consortium">W3C</sub>"#)
        XCTAssertEqual(sourceOf("met", in: run, request: request), "met")
        assertSSMLError("<speak><sub>W3C</sub></speak>", line: 1, column: 8, #"the attribute "alias" is required"#)
        assertSSMLError(#"<speak><sub alias="x"><break/></sub></speak>"#, line: 1, column: 23, "<sub> may contain only text, not <break>")
    }

    func testPhonemeKeepsContentAsTextAndPronunciationApart() throws {
        let request = #"<speak>say <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme> and <phoneme ph="x">y</phoneme></speak>"#
        let runs = parsed(request).runs
        XCTAssertEqual(runs.map(\.text), ["say ", "tomato", " and ", "y"])
        XCTAssertEqual(runs[1].phonemes, Phonemes(alphabet: "ipa", symbols: "təˈmɑːtoʊ"))
        XCTAssertEqual(runs[3].phonemes, Phonemes(alphabet: "ipa", symbols: "x"))
        XCTAssertEqual(sourceOf("tomato", in: runs[1], request: request), "tomato")
        XCTAssertNil(runs[2].phonemes)
        let espeak = parsed(#"<speak><phoneme alphabet="x-espeak" ph="h@'loU">hello</phoneme></speak>"#).runs
        XCTAssertEqual(espeak.first?.phonemes, Phonemes(alphabet: "x-espeak", symbols: "h@'loU"))
        assertSSMLError(#"<speak><phoneme>a</phoneme></speak>"#, line: 1, column: 8, #""ph" is required"#)
    }

    func testEmptyPhonemeMapsToTheElement() throws {
        let request = #"<speak><phoneme ph="a"/></speak>"#
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(run.text, "")
        XCTAssertEqual(excerpt(request, run.sourceMap.pieces[0].source), #"<phoneme ph="a"/>"#)
    }

    func testVoiceSelection() throws {
        let voice = contentStyle(of: #"<voice name="en-us+f3" gender="FEMALE" age="30" variant="2" languages="en-US en-GB">a</voice>"#)?.voice
        XCTAssertEqual(voice, VoiceSelection(name: "en-us+f3", gender: "female", age: 30, variant: 2, languages: ["en-US", "en-GB"]))
        let nested = contentStyle(of: #"<voice name="outer" gender="male"><voice age="8">a</voice></voice>"#)?.voice
        XCTAssertEqual(nested, VoiceSelection(age: 8))
        let runs = parsed(#"<speak><voice gender="male">a</voice>b</speak>"#).runs
        XCTAssertEqual(runs.map(\.style.voice), [VoiceSelection(gender: "male"), VoiceSelection()])
        assertSSMLError(#"<speak><voice gender="robot">a</voice></speak>"#, line: 1, column: 8, #"gender "robot""#)
        assertSSMLError(#"<speak><voice age="old">a</voice></speak>"#, line: 1, column: 8, #"age "old""#)
        assertSSMLError(#"<speak><voice variant="0">a</voice></speak>"#, line: 1, column: 8, #"variant "0""#)
        assertSSMLError(#"<speak><voice>a</voice></speak>"#, line: 1, column: 8, "at least one of")
    }

    func testLanguageOnAnyElement() {
        let runs = parsed(#"<speak xml:lang="en">a<lang xml:lang="de-DE">b<prosody xml:lang="fr" rate="fast">c</prosody></lang><w xml:lang="">d</w></speak>"#).runs
        XCTAssertEqual(runs.map(\.text), ["a", "b", "c", "d"])
        XCTAssertEqual(runs.map(\.style.language), ["en", "de-DE", "fr", nil])
        assertSSMLError("<speak><lang>a</lang></speak>", line: 1, column: 8, #""xml:lang" is required"#)
    }

    func testMarks() throws {
        let request = #"<speak>one <mark name="here"/>two<mark name="there"></mark></speak>"#
        let marks: [(String, String)] = parsed(request).items.compactMap {
            if case .mark(let name, let source) = $0 { return (name, excerpt(request, source)) } else { return nil }
        }
        XCTAssertEqual(marks.map(\.0), ["here", "there"])
        XCTAssertEqual(marks.map(\.1), [#"<mark name="here"/>"#, #"<mark name="there">"#])
        assertSSMLError("<speak><mark/></speak>", line: 1, column: 8, #""name" is required"#)
        assertSSMLError(#"<speak><mark name=""/></speak>"#, line: 1, column: 8, #""name" is required"#)
    }

    func testAudioWithFallback() throws {
        let request = #"<speak>Listen: <audio src="file:///usr/share/sounds/a%20b.wav" soundLevel="+6dB"><desc>A bell</desc>Ding <break time="200ms"/>dong</audio> end</speak>"#
        let program = parsed(request)
        let clip = try XCTUnwrap(program.audioClips.first)
        XCTAssertEqual(clip.path, "/usr/share/sounds/a b.wav")
        XCTAssertEqual(clip.style.volume, 1.99526231496888, accuracy: 1e-9)
        XCTAssertEqual(excerpt(request, clip.source).prefix(7), "<audio ")
        XCTAssertTrue(excerpt(request, clip.source).hasSuffix("dong</audio>"))
        XCTAssertEqual(clip.fallback.count, 3)
        guard clip.fallback.count == 3, case .text(let ding) = clip.fallback[0], case .pause(let seconds, _) = clip.fallback[1],
              case .text(let dong) = clip.fallback[2] else { return XCTFail("fallback: \(clip.fallback)") }
        XCTAssertEqual(ding.text, "Ding ")
        XCTAssertEqual(ding.style.volume, 1, "soundLevel is for the clip, not the fallback")
        XCTAssertEqual(seconds, 0.2, accuracy: 1e-12)
        XCTAssertEqual(sourceOf("dong", in: dong, request: request), "dong")
        XCTAssertEqual(program.runs.map(\.text), ["Listen: ", " end"])
    }

    func testAudioPaths() throws {
        func path(_ src: String) -> String? { parsed(#"<speak><audio src="\#(src)"/></speak>"#).audioClips.first?.path }
        XCTAssertEqual(path("sounds/bell.wav"), "sounds/bell.wav")
        XCTAssertEqual(path("/tmp/bell.wav"), "/tmp/bell.wav")
        XCTAssertEqual(path("file:///tmp/bell.wav"), "/tmp/bell.wav")
        XCTAssertEqual(path("FILE://localhost/tmp/b%C3%A9ll.wav"), "/tmp/béll.wav")
        XCTAssertEqual(path("file:/tmp/100%.wav"), "/tmp/100%.wav")
        XCTAssertEqual(parsed(#"<speak><audio src="x.wav"/></speak>"#).audioClips.first?.fallback, [])
        assertSSMLError("<speak><audio/></speak>", line: 1, column: 8, #""src" is required"#)
    }

    func testNestedAudioFallback() throws {
        let program = parsed(#"<speak><audio src="a.wav"><audio src="b.wav">b</audio></audio></speak>"#)
        let outer = try XCTUnwrap(program.audioClips.first)
        guard case .audio(let inner) = outer.fallback.first else { return XCTFail("\(outer.fallback)") }
        XCTAssertEqual(inner.path, "b.wav")
        XCTAssertEqual(inner.fallback.count, 1)
    }

    func testIgnoredElementsAreSkippedWithTheirContent() {
        let request = """
            <speak><lexicon uri="http://example.com/lex.pls" xml:id="l"/><meta name="author" content="me"/>\
            <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>secret</rdf:Description></rdf:RDF></metadata>\
            Hello</speak>
            """
        let program = parsed(request)
        XCTAssertEqual(program.runs.map(\.text), ["Hello"])
        XCTAssertEqual(program.items.count, 1)
    }

    func testTokenAndWordAreTextContainers() throws {
        let request = #"<speak>in <w role="x">New</w> <token>York</token></speak>"#
        let run = try XCTUnwrap(parsed(request).runs.first)
        XCTAssertEqual(parsed(request).runs.count, 1)
        XCTAssertEqual(run.text, "in New York")
        XCTAssertEqual(sourceOf("York", in: run, request: request), "York")
    }

    func testAdjacentTextInOneStyleIsOneRun() throws {
        let request = #"<speak>one <!-- a comment -->two <emphasis level="none">three</emphasis><![CDATA[ four]]><?pi?> five</speak>"#
        let program = parsed(request)
        XCTAssertEqual(program.runs.map(\.text), ["one two ", "three", " four five"])
        let first = program.runs[0]
        XCTAssertEqual(first.sourceMap.pieces.count, 2)
        XCTAssertEqual(sourceOf("two", in: first, request: request), "two")
        XCTAssertEqual(sourceOf("five", in: program.runs[2], request: request), "five")
        XCTAssertEqual(sourceOf("four", in: program.runs[2], request: request), "four")
    }

    func testStylesThatMatchJoinAndOthersDoNot() {
        let runs = parsed(#"<speak>a<prosody rate="1">b</prosody><prosody rate="2">c</prosody><break/>d</speak>"#).runs
        XCTAssertEqual(runs.map(\.text), ["ab", "c", "d"])
    }

    func testUnknownElementsAndAttributesAreErrors() {
        assertSSMLError("<speak>Hi <whisper>there</whisper></speak>", line: 1, column: 11, "unknown element <whisper>")
        assertSSMLError(#"<speak xmlns:amazon="urn:amazon"><amazon:effect name="whispered">x</amazon:effect></speak>"#,
                        line: 1, column: 34, "unknown element <amazon:effect>")
        assertSSMLError(#"<speak><break tiem="1s"/></speak>"#, line: 1, column: 8, #"unknown attribute "tiem" on <break>"#)
        assertSSMLError(#"<speak xmlns="urn:other">x</speak>"#, line: 1, column: 1, "unknown element <speak> (namespace \"urn:other\")")
    }

    func testAttributesInOtherNamespacesAreIgnored() {
        let request = #"<speak xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="x y" xml:base="http://a/">a</speak>"#
        XCTAssertEqual(parsed(request).runs.map(\.text), ["a"])
    }

    func testStructureRules() {
        assertSSMLError("<p>Hi</p>", line: 1, column: 1, "the root element must be <speak>, not <p>")
        assertSSMLError("<speak><speak>Hi</speak></speak>", line: 1, column: 8, "<speak> must be the root element")
        assertSSMLError("<speak><s><p>Hi</p></s></speak>", line: 1, column: 11, "<p> cannot be inside <s>")
        assertSSMLError("<speak><p><p>Hi</p></p></speak>", line: 1, column: 11, "<p> cannot be inside <p>")
        assertSSMLError("<speak><s><prosody rate=\"1\"><s>Hi</s></prosody></s></speak>", line: 1, column: 29, "<s> cannot be inside <s>")
        assertSSMLError("<speak><desc>x</desc></speak>", line: 1, column: 8, "<desc> is only allowed inside <audio>")
        XCTAssertEqual(parsed("<speak><p><s>a</s><s>b</s></p></speak>").runs.map(\.text), ["a", "b"])
    }
}
