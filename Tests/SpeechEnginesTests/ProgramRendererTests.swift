import SSML
import SpkAudio
import SpeechEngines
import SpkProtocol
import SpkTestSupport
import XCTest

/// SSML programs rendered through espeak-ng at 48 kHz.
final class ProgramRendererTests: XCTestCase {
    func render(_ ssml: String, rate: Double = 1) throws -> (Signal, [RenderedMarker]) {
        let renderer = try ProgramRenderer(request: SpeechRequest(id: 1, ssml: ssml, rate: rate),
                                           engine: try EspeakEngine.shared(), outputRate: 48000, defaultVoice: EspeakEngine.defaultVoice)
        var samples: [Float] = []
        var markers: [RenderedMarker] = []
        while !renderer.isFinished {
            let chunk = try renderer.next()
            markers += chunk.markers.map { var m = $0; m.frame += samples.count; return m }
            samples += chunk.samples
        }
        return (Signal(samples: samples, sampleRate: 48000), markers)
    }

    func testBreaksAreSilencesOfTheAskedLength() throws {
        for (attribute, seconds) in [("time=\"500ms\"", 0.5), ("time=\"2s\"", 2.0), ("strength=\"x-strong\"", 1.2)] {
            let (signal, _) = try render("<speak>one <break \(attribute)/> two</speak>")
            let segments = signal.soundingSegments(bridge: 0.1)
            XCTAssertEqual(segments.count, 2, "\(attribute): \(segments)")
            if segments.count == 2 {
                XCTAssertEqual(segments[1].start - segments[0].end, seconds, accuracy: 0.1, attribute)
            }
        }
    }

    func testVolumeScalesExactly() throws {
        let (loud, _) = try render("<speak>volume check</speak>")
        let (soft, _) = try render(#"<speak><prosody volume="-6dB">volume check</prosody></speak>"#)
        XCTAssertEqual(soft.rms() / loud.rms(), 0.501, accuracy: 0.01)
        let (silent, _) = try render(#"<speak><prosody volume="silent">volume check</prosody></speak>"#)
        XCTAssertEqual(silent.rms(), 0)
    }

    func testSubAndSayAsChangeTheWords() throws {
        let (plain, _) = try render("<speak>W3C</speak>")
        let (sub, subMarkers) = try render(#"<speak><sub alias="World Wide Web Consortium">W3C</sub></speak>"#)
        XCTAssertGreaterThan(sub.spokenDuration, plain.spokenDuration * 1.3)
        // The alias's words all point at the <sub> element.
        let subWords = subMarkers.filter { $0.type == .word }
        XCTAssertGreaterThanOrEqual(subWords.count, 3)
        XCTAssertTrue(subWords.allSatisfy { $0.source == SourceRange(offset: 7, length: 48) }, "\(subWords)")

        let (cardinal, _) = try render(#"<speak><say-as interpret-as="cardinal">1234</say-as></speak>"#)
        let (digits, _) = try render(#"<speak><say-as interpret-as="digits">1234</say-as></speak>"#)
        XCTAssertNotEqual(cardinal.samples.count, digits.samples.count, "digits and cardinal must be read differently")
    }

    func testMarksParagraphsAndSentences() throws {
        let ssml = #"<speak><p><s>First one.</s><s>Second <mark name="m1"/>one.</s></p><p>Next paragraph.</p></speak>"#
        let (_, markers) = try render(ssml)
        XCTAssertEqual(markers.filter { $0.type == .paragraph }.count, 2)
        XCTAssertGreaterThanOrEqual(markers.filter { $0.type == .sentence }.count, 3)
        XCTAssertEqual(markers.filter { $0.type == .bookmark }.map(\.name), ["m1"])
        XCTAssertEqual(markers.map(\.frame), markers.map(\.frame).sorted(), "markers come in audio order")
    }

    func testAudioElementPlaysTheFileOrItsFallback() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spk-audio-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // One second of a 440 Hz tone at 16 kHz, written with libsndfile.
        let tone = (0..<16000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 16000)) }
        let path = dir.appendingPathComponent("tone.wav").path
        let writer = try AudioFileWriter(path: path, sampleRate: 16000)
        try writer.write(tone)
        try writer.commit()

        let (played, _) = try render("<speak><audio src=\"\(path)\">fallback words</audio></speak>")
        XCTAssertEqual(played.seconds, 1.0, accuracy: 0.02)
        XCTAssertEqual(played.rms(), 0.5 / 2.0.squareRoot(), accuracy: 0.02)

        let (fallback, markers) = try render("<speak><audio src=\"\(dir.path)/missing.wav\">fallback words</audio></speak>")
        XCTAssertGreaterThan(fallback.spokenDuration, 0.4)
        XCTAssertEqual(markers.filter { $0.type == .word }.count, 2)
    }

    func testInvalidRequestsThrow() {
        XCTAssertThrowsError(try render("<speak>Hello <break></speak>")) { XCTAssertTrue($0 is SSMLError, "\($0)") }
        XCTAssertThrowsError(try ProgramRenderer(request: SpeechRequest(id: 1, ssml: "hi", voice: "nope"),
                                                 engine: try EspeakEngine.shared(), outputRate: 48000, defaultVoice: EspeakEngine.defaultVoice))
    }
}
