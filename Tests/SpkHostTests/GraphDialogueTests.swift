import Foundation
import SpkTestSupport
import XCTest

/// A request that switches engines (flite voices inside an espeak-ng request) renders as one
/// file: each part by its own engine, one after the other, its markers in the request's bytes.
final class GraphDialogueTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    let lines = [("spk.espeak-ng.en-us", "Hello there, how are you today?"),
                 ("spk.flite.slt", "I am fine, thank you. And you?"),
                 ("spk.espeak-ng.en-us", "Very well, thanks.")]

    var dialogue: String {
        "<speak>\n" + lines.map { "  <voice name=\"\($0.0)\">\($0.1)</voice>\n" }.joined() + "</speak>"
    }

    /// One line alone, in its own voice.
    func alone(_ line: (String, String)) throws -> GraphSupport.Rendered {
        try GraphSupport.render(["--voice", line.0, "--ssml", "<speak><voice name=\"\(line.0)\">\(line.1)</voice></speak>"], in: dir)
    }

    func words(_ markers: [GraphSupport.Marker], in request: String) -> [String] {
        let bytes = Array(request.utf8)
        return markers.filter { $0.type == "word" }.map { String(decoding: bytes[$0.textOffset..<$0.textOffset + $0.textLength], as: UTF8.self) }
    }

    func testEachPartIsSpokenByItsVoiceInTurn() throws {
        let whole = try GraphSupport.render(["--ssml", dialogue], in: dir)
        let parts = try lines.map(alone)
        let samples = whole.signal.samples

        // The first two parts are exactly their voices alone (espeak-ng's first utterance in a
        // process; flite is deterministic), each starting where the one before ended.
        let first = parts[0].signal.samples, second = parts[1].signal.samples
        XCTAssertEqual(Array(samples[0..<first.count]), first, "part 1 is espeak-ng's en-us alone")
        XCTAssertEqual(Array(samples[first.count..<first.count + second.count]), second, "part 2 is flite's slt alone")
        // The third: espeak-ng keeps its wave phase from one utterance to the next within a
        // process, so only its length can be compared (to a few milliseconds).
        let third = samples.count - first.count - second.count
        XCTAssertEqual(Double(third), Double(parts[2].signal.samples.count), accuracy: 0.005 * 48000)

        // Word markers: in order, on the words of the request, at each part's offsets.
        XCTAssertEqual(words(whole.markers, in: dialogue),
                       ["Hello", "there", "how", "are", "you", "today", "I", "am", "fine", "thank", "you", "And", "you",
                        "Very", "well", "thanks"])
        let frames = whole.markers.filter { $0.type == "word" }.map(\.frame)
        XCTAssertEqual(frames, frames.sorted())
        let secondWords = whole.markers.filter { $0.type == "word" }[6..<13].map { $0.frame - first.count }
        XCTAssertEqual(secondWords, parts[1].markers.filter { $0.type == "word" }.map(\.frame), "flite's words at its own frames")
    }

    func testAPartMayStartInsideAParagraphAndEndWithABreakAndAMark() throws {
        // espeak-ng, then flite (with a break of its own), then espeak-ng after a bookmark, then
        // flite again in a second paragraph: the same synth speaks twice.
        let request = """
        <speak><p>First espeak speaks. <voice name="spk.flite.awb">Then flite, with a <break time="300ms"/> pause.</voice> \
        <mark name="back"/>Espeak again.</p><p><voice name="spk.flite.slt">Slt ends it.</voice></p></speak>
        """
        let small = try GraphSupport.render(["--ssml", request, "--block", "64"], in: dir)
        let large = try GraphSupport.render(["--ssml", request, "--block", "4096"], in: dir)
        XCTAssertEqual(small.data, large.data, "block 64 and 4096 differ")
        XCTAssertEqual(small.markers, large.markers)
        XCTAssertEqual(words(small.markers, in: request),
                       ["First", "espeak", "speaks", "Then", "flite", "with", "a", "pause", "Espeak", "again", "S", "l", "t", "ends", "it"])
        let bytes = Array(request.utf8)
        func text(_ m: GraphSupport.Marker) -> String { String(decoding: bytes[m.textOffset..<m.textOffset + m.textLength], as: UTF8.self) }
        XCTAssertEqual(small.markers.filter { $0.type == "paragraph" }.map(text), ["<p>", "<p>"], "each <p> once")
        XCTAssertEqual(small.markers.filter { $0.type == "bookmark" }.map(\.name), ["back"], "the host's own end marks are not reported")
        let frames = small.markers.map(\.frame)
        XCTAssertEqual(frames, frames.sorted())
        // Sound until the break, after it until the paragraph's pause, then the last line.
        XCTAssertEqual(small.signal.soundingSegments(bridge: 0.2).count, 3, "the break and the paragraph pause are silent")
    }

    func testADialogueThroughAnEffectUsesTheGraphForEveryVoice() throws {
        try GraphSupport.requirePlugins([GraphSupport.amp])
        let dry = try GraphSupport.render(["--ssml", dialogue], in: dir)
        let quiet = try GraphSupport.render(["--ssml", dialogue, "--effect", GraphSupport.amp, "--set", "gain=-6"], in: dir)
        XCTAssertEqual(quiet.markers, dry.markers)
        XCTAssertEqual(quiet.signal.rms() / dry.signal.rms(), 0.5, accuracy: 0.03)
    }

    func testARequestWithOneEngineKeepsThePlainPath() throws {
        // Naming the engine's own voices, or none, is one part: the synth gets the request as is.
        let request = #"<speak>Plain <voice name="spk.espeak-ng.en">then British</voice>.</speak>"#
        let rendered = try GraphSupport.render(["--ssml", request], in: dir)
        XCTAssertEqual(words(rendered.markers, in: request), ["Plain", "then", "British"])
    }
}
