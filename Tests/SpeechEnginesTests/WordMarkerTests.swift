import Foundation
import SpeechEngines
import SpkProtocol
import XCTest

/// Every word of a request gets exactly one word marker, in order, on every engine: counted
/// against a few hundred words of ordinary prose.
final class WordMarkerTests: XCTestCase {
    /// About 300 words, with the short words espeak-ng speaks together with a neighbour ("of the").
    static let prose = Array(repeating: StreamingRendererTests.paragraph + " It was the best of times, it was the worst of times.", count: 3)
        .joined(separator: " ")

    /// The words a reader counts: runs of letters, digits and apostrophes.
    static let words: [Range<Int>] = {
        let bytes = Array(prose.utf8)
        var words: [Range<Int>] = [], start: Int?
        for (i, b) in bytes.enumerated() {
            let letter = b >= 0x80 || (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x27
            if letter && start == nil { start = i }
            if !letter, let s = start { words.append(s..<i); start = nil }
        }
        if let s = start { words.append(s..<bytes.count) }
        return words
    }()

    func assertEveryWordMarked(_ engine: SpeechEngine, voice: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let renderer = try ProgramRenderer(request: SpeechRequest(id: 1, ssml: Self.prose, voice: voice),
                                           engine: engine, outputRate: engine.sampleRate, defaultVoice: voice)
        var markers: [(range: Range<Int>, frame: Int)] = [], frames = 0
        while !renderer.isFinished {
            let chunk = try renderer.next()
            markers += chunk.markers.filter { $0.type == .word }.map { ($0.source.offset..<$0.source.end, frames + $0.frame) }
            frames += chunk.samples.count
        }
        XCTAssertGreaterThan(Self.words.count, 250)
        XCTAssertEqual(markers.map(\.range), Self.words, "\(voice): one marker per word, each spanning its word", file: file, line: line)
        XCTAssertEqual(markers.map(\.frame), markers.map(\.frame).sorted(), "\(voice): in time order", file: file, line: line)
    }

    func testEspeakMarksEveryWord() throws {
        try assertEveryWordMarked(try EspeakEngine.shared(), voice: EspeakEngine.defaultVoice)
    }

    func testFliteMarksEveryWord() throws {
        try assertEveryWordMarked(try FliteEngine.shared(), voice: "spk.flite.slt")
    }

    func testNeuralMarksEveryWord() throws {
        try NeuralTestVoice.require()
        try assertEveryWordMarked(NeuralEngine(paths: { NeuralTestVoice.paths }), voice: NeuralTestVoice.identifier)
    }
}
