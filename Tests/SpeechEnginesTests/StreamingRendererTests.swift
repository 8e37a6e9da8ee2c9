import SSML
import SpkAudio
import SpeechEngines
import SpkProtocol
import SpkTestSupport
import XCTest

/// The renderer speaks a request a piece at a time: each `next()` renders a bounded amount of
/// audio whatever the text's shape, and a run spoken piece by piece sounds as it does whole.
final class StreamingRendererTests: XCTestCase {
    static let paragraph = """
        Speech synthesis turns written text into sound. The first step reads the text and decides \
        what each part means. Numbers, dates and abbreviations are expanded into words. Next comes \
        pronunciation, which a dictionary and rules provide. After the sounds are known, the \
        system plans the prosody. It decides how long each sound lasts, where the pauses go, which \
        words carry the stress and how the pitch moves across the phrase. A question ends higher \
        than a statement, a list has a small rise on every item, and a long sentence needs places \
        where the speaker can take a breath. The last step makes the sound.
        """

    /// The engine's own speech of `text` in one call, as spk spoke every run before streaming.
    func whole(_ text: String, engine: SpeechEngine, voice: String) throws -> (samples: Int, words: [Range<Int>]) {
        var output = SynthesisOutput()
        try engine.synthesize(SynthesisText(text: text), voice: try engine.requireVoice(named: voice), prosody: EngineProsody(),
                              into: &output, isCancelled: { false })
        return (output.samples.count, output.boundaries.filter { $0.kind == .word && !$0.textRange.isEmpty }.map(\.textRange))
    }

    /// The same text through the renderer, at the engine's own rate; each call's audio length.
    func pieces(_ ssml: String, engine: SpeechEngine, voice: String, calls: Int = .max)
        throws -> (samples: Int, words: [Range<Int>], perCall: [Int], markers: [RenderedMarker]) {
        let renderer = try ProgramRenderer(request: SpeechRequest(id: 1, ssml: ssml, voice: voice),
                                           engine: engine, outputRate: engine.sampleRate, defaultVoice: voice)
        var samples = 0, perCall: [Int] = [], markers: [RenderedMarker] = []
        while !renderer.isFinished && perCall.count < calls {
            let chunk = try renderer.next()
            markers += chunk.markers.map { var m = $0; m.frame += samples; return m }
            samples += chunk.samples.count
            perCall.append(chunk.samples.count)
        }
        let words = markers.filter { $0.type == .word && $0.source.length > 0 }.map { $0.source.offset..<$0.source.end }
        return (samples, words, perCall, markers)
    }

    func assertPiecesSoundLikeTheWhole(_ engine: SpeechEngine, voice: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let one = try whole(Self.paragraph, engine: engine, voice: voice)
        let many = try pieces(Self.paragraph, engine: engine, voice: voice)
        XCTAssertGreaterThan(many.perCall.count, 6, "spoken in pieces", file: file, line: line)
        XCTAssertEqual(many.words, one.words, "the same words, in the same order", file: file, line: line)
        XCTAssertEqual(Double(many.samples), Double(one.samples), accuracy: Double(one.samples) * 0.01, "length within 1%", file: file, line: line)
    }

    func testEspeakPiecesSoundLikeTheWholeRun() throws {
        try assertPiecesSoundLikeTheWhole(try EspeakEngine.shared(), voice: EspeakEngine.defaultVoice)
    }

    func testFlitePiecesSoundLikeTheWholeRun() throws {
        for voice in ["spk.flite.slt", "spk.flite.kal16"] { try assertPiecesSoundLikeTheWhole(try FliteEngine.shared(), voice: voice) }
    }

    /// Whatever the shape of the text, one call renders at most a piece: 16 s, and the engine's
    /// last chunk or a word's worth past it.
    func assertBounded(_ ssml: String, engine: SpeechEngine, voice: String, calls: Int = 30, _ what: String,
                       file: StaticString = #filePath, line: UInt = #line) throws -> [RenderedMarker] {
        let result = try pieces(ssml, engine: engine, voice: voice, calls: calls)
        let bound = Int((ProgramRenderer.longestPieceSeconds + 1.5) * engine.sampleRate)
        XCTAssertLessThanOrEqual(result.perCall.max() ?? 0, bound, "\(what): \(result.perCall)", file: file, line: line)
        XCTAssertGreaterThan(result.samples, 0, what, file: file, line: line)
        return result.markers
    }

    func testOddShapesAreRenderedAPieceAtATime() throws {
        let espeak = try EspeakEngine.shared(), voice = EspeakEngine.defaultVoice
        // One sentence of 10,000 words, no punctuation: cut at words; the markers move on.
        let words = (0..<10_000).map { ["alpha", "beta", "gamma", "delta", "echo"][$0 % 5] }.joined(separator: " ")
        let markers = try assertBounded(words, engine: espeak, voice: voice, "a 10,000-word sentence")
        let offsets = markers.filter { $0.type == .word }.map(\.source.offset)
        XCTAssertEqual(offsets, offsets.sorted(), "no word spoken twice")
        XCTAssertGreaterThan(offsets.last ?? 0, 3000, "30 pieces get far into it")
        // One "word" of 5,000 letters.
        _ = try assertBounded(String(repeating: "abcdefghij", count: 500), engine: espeak, voice: voice, "a 5,000-letter word")
        // A long break and a long clip go out a second at a time.
        _ = try assertBounded("<speak>one <break time=\"60s\"/> two</speak>", engine: espeak, voice: voice, calls: 100, "the longest break")
        let clip = FileManager.default.temporaryDirectory.appendingPathComponent("spk-clip-\(getpid()).wav").path
        defer { unlink(clip) }
        let writer = try AudioFileWriter(path: clip, sampleRate: 44100)
        try writer.write((0..<44100 * 60).map { Float(sin(Double($0) * 0.05) * 0.3) })
        try writer.commit()
        _ = try assertBounded("<speak>one <audio src=\"\(clip)\"/> two</speak>", engine: espeak, voice: voice, calls: 100, "a minute of audio")
        // Thousands of marks between words.
        let marked = "<speak>" + (0..<3000).map { "word<mark name=\"m\($0)\"/>" }.joined(separator: " ") + "</speak>"
        let bookmarks = try assertBounded(marked, engine: espeak, voice: voice, calls: 400, "3,000 marks").filter { $0.type == .bookmark }
        XCTAssertGreaterThan(bookmarks.count, 100)
        // flite cuts its own utterances too.
        _ = try assertBounded(words, engine: try FliteEngine.shared(), voice: "spk.flite.kal16", calls: 10, "a 10,000-word sentence, flite")
    }

    func testTextPiecesAreSentencesAndNeverTooLong() {
        func pieces(_ text: String) -> [String] {
            let bytes = Array(text.utf8)
            var result: [String] = [], start = 0
            while start < bytes.count {
                let (end, _) = bytes.withUnsafeBufferPointer { TextPieces.end(in: $0, from: start) }
                XCTAssertGreaterThan(end, start)
                result.append(String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
                start = end
            }
            return result
        }
        XCTAssertEqual(pieces("It works. Dr. Smith said so! Did he? Yes."), ["It works.", "Dr. Smith said so!", "Did he?", "Yes."])
        XCTAssertEqual(pieces("e.g. this is one. And two."), ["e.g. this is one.", "And two."])
        XCTAssertEqual(pieces("First paragraph\n\nSecond one"), ["First paragraph", "Second one"])
        let long = String(repeating: "word ", count: 400)
        XCTAssertTrue(pieces(long).allSatisfy { $0.utf8.count <= TextPieces.maximumBytes })
        let giant = String(repeating: "é", count: 1000)  // two bytes each: cut between characters
        XCTAssertEqual(pieces(giant).joined(), giant)
        XCTAssertTrue(pieces(giant).allSatisfy { $0.utf8.count <= TextPieces.maximumWordBytes })
        let bytes = Array("Please call my daughter, and tell her I will be late.".utf8)
        let clause = bytes.withUnsafeBufferPointer { TextPieces.end(in: $0, from: 0, firstClause: true) }
        XCTAssertEqual(String(decoding: bytes[..<clause.end], as: UTF8.self), "Please call my daughter,")
    }
}
