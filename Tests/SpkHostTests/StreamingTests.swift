import Foundation
import LV2Host
import SpkAudio
import SpkProtocol
import SpkTestSupport
import XCTest

/// Streaming synthesis: a request of any length is spoken with bounded memory, a request larger
/// than the control port arrives in chunks with its markers pointing into the whole text, and
/// each request starts at its first sound.
final class StreamingTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory(); _ = Fixture.lv2Path }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// Ordinary prose of `words` words: the benchmarks' 500-word text, repeated in paragraphs.
    func prose(words: Int) -> String {
        Array(repeating: BenchmarkTexts.fiveHundredWords, count: max(words / 500, 1)).joined(separator: "\n\n")
    }

    /// The worker's record of how much audio it held ahead of run(), per request.
    func maxAheadSeconds(_ statsPath: String) throws -> [Double] {
        try String(contentsOfFile: statsPath, encoding: .utf8).split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            return Double(fields[3])! / Double(fields[5])!
        }
    }

    /// The plugin renders ahead only while under 2 s, and one piece adds at most 16 s.
    let aheadBound = 2.0 + 16.0 + 0.5

    func testATwentyThousandWordRenderHoldsLittleAudioAndGrowsNoMemory() throws {
        let stats = dir.appendingPathComponent("stats").path
        var peaks: [Int] = []
        for words in [500, 20_000] {
            let input = dir.appendingPathComponent("\(words).txt")
            try prose(words: words).write(to: input, atomically: true, encoding: .utf8)
            let output = dir.appendingPathComponent("\(words).flac").path
            let run = runMeasuringPeakMemory(Fixture.spkhost, ["render", "--input", input.path, "--sample-rate", "16000",
                                                               "--output", output, "--markers", output + ".json"],
                                             environment: ["LV2_PATH": Fixture.lv2Path, "XDG_DATA_HOME": Fixture.dataHome,
                                                           "SPK_WORKER_STATS": stats])
            XCTAssertEqual(run.status, 0)
            peaks.append(run.peakKiB)
            let markers = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".json"))) as? [[String: Any]] ?? []
            let words = markers.filter { $0["type"] as? String == "word" }.count
            XCTAssertGreaterThan(words, 0)
            if words > 1000 {
                let file = try AudioFileStream(path: output, maxSeconds: .infinity)  // hours: more than a clip may last
                XCTAssertGreaterThan(Double(file.frames) / Double(file.sampleRate), 20_000 / 4.0, "the whole text is spoken")
            }
            try? FileManager.default.removeItem(atPath: output)
        }
        XCTAssertLessThan(peaks[1] - peaks[0], 20 * 1024, "peak RSS \(peaks) KiB: 20,000 words may cost at most 20 MB more than 500")
        let ahead = try maxAheadSeconds(stats)
        XCTAssertEqual(ahead.count, 2)
        for seconds in ahead { XCTAssertLessThanOrEqual(seconds, aheadBound, "audio held ahead of run(): \(ahead)") }
    }

    func testARequestLargerThanTheControlPortArrivesWholeWithItsOffsets() throws {
        // 70 KB of comment first: the words lie beyond the 64 KiB control port.
        let padding = String(repeating: "spk ", count: 70_000 / 4)
        let ssml = "<speak><!-- \(padding) -->Hello <mark name=\"middle\"/>wide world.</speak>"
        let path = dir.appendingPathComponent("big.ssml")
        try ssml.write(to: path, atomically: true, encoding: .utf8)
        let (signal, markers) = try renderWithMarkers(["--input", path.path], in: dir, spkhost: { Fixture.spkhost($0) })
        XCTAssertGreaterThan(signal.rms(), 0.01)
        func offset(of word: String) -> Int { ssml.utf8.distance(from: ssml.startIndex, to: ssml.range(of: word)!.lowerBound) }
        let words = markers.filter { $0.type == "word" }
        XCTAssertEqual(words.map(\.textOffset), [offset(of: "Hello"), offset(of: "wide"), offset(of: "world")])
        for word in words { XCTAssertGreaterThan(word.textOffset, 65536) }
        XCTAssertEqual(markers.first { $0.type == "bookmark" }?.name, "middle")
    }

    func testAGraphAndAnEngineSwitchTakeARequestLargerThanTheControlPort() throws {
        let padding = String(repeating: "spk ", count: 70_000 / 4)
        for (ssml, extra) in [("<speak><!-- \(padding) -->Hello wide world.</speak>",
                               ["--effect", GraphSupport.amp, "--set", "gain=-6"]),
                              ("<speak><!-- \(padding) -->Hello <voice name=\"spk.flite.slt\">wide</voice> world.</speak>", [])] {
            let path = dir.appendingPathComponent("big-\(extra.count).ssml")
            try ssml.write(to: path, atomically: true, encoding: .utf8)
            let (signal, markers) = try renderWithMarkers(["--input", path.path] + extra, in: dir, spkhost: { GraphSupport.spkhost($0) })
            XCTAssertGreaterThan(signal.rms(), 0.005)
            let words = markers.filter { $0.type == "word" }.map(\.textOffset)
            let expected = ["Hello", "wide", "world"].map { ssml.utf8.distance(from: ssml.startIndex, to: ssml.range(of: $0)!.lowerBound) }
            XCTAssertEqual(words, expected, "\(extra)")
        }
    }

    func testPlayAndLiveSpeakARequestLargerThanTheControlPort() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let padding = String(repeating: "spk ", count: 70_000 / 4)
        let ssml = "<speak><!-- \(padding) -->Hello wide world.</speak>"
        let path = dir.appendingPathComponent("big.ssml")
        try ssml.write(to: path, atomically: true, encoding: .utf8)
        let environment = ["LV2_PATH": Fixture.lv2Path].merging(jack.environment) { $1 }
        let play = Fixture.run(Fixture.spkhost, ["play", "--input", path.path], environment: environment)
        XCTAssertEqual(play.status, 0, play.stderr)
        let live = Fixture.run(Fixture.spkhost, ["live", "--words"], stdin: ssml + "\n", environment: environment)
        XCTAssertEqual(live.status, 0, live.stderr)
        for output in [play.stdout, live.stdout] {
            for expected in ["started", "word Hello", "word wide", "word world", "finished"] {
                XCTAssertTrue(output.contains(expected), "\(expected) in: \(output)")
            }
        }
    }

    func testAnInputOverTheLimitIsRefusedWithItsSize() throws {
        let inputs = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let path = inputs.appendingPathComponent("huge.txt")
        let handle = try FileHandle(forWritingTo: { FileManager.default.createFile(atPath: path.path, contents: nil); return path }())
        try handle.truncate(atOffset: UInt64(RequestChunks.maximumBytes + 1))
        try handle.close()
        let output = dir.appendingPathComponent("huge.wav").path
        let result = Fixture.spkhost(["render", "--input", path.path, "--output", output])
        assertFailsCleanly(result, mentioning: ["\(RequestChunks.maximumBytes + 1) bytes", "100 MiB"], leaving: dir)
    }

    func testEachRequestStartsAtItsFirstSoundUnlessItStartsWithABreak() throws {
        func firstSound(_ arguments: [String]) throws -> (frame: Int, firstWord: Int) {
            let (signal, markers) = try renderWithMarkers(arguments + ["--block", "128"], in: dir, spkhost: { Fixture.spkhost($0) })
            let frame = try XCTUnwrap(signal.samples.firstIndex { $0 != 0 })
            return (frame, try XCTUnwrap(markers.first { $0.type == "word" }).frame)
        }
        let trimmed = try firstSound(["--text", "Hello world."])
        XCTAssertLessThan(trimmed.frame, 128, "the first non-zero frame in the first block")
        XCTAssertLessThanOrEqual(trimmed.firstWord, trimmed.frame + 128, "the first word's marker moves with the sound")
        let kept = try firstSound(["--text", "Hello world.", "--keep-leading-silence"])
        XCTAssertGreaterThan(kept.frame, 400, "espeak-ng's own 10 ms of silence, when asked to keep it")
        let flite = try firstSound(["--text", "Hello world.", "--voice", "spk.flite.kal16"])
        XCTAssertLessThan(flite.frame, 128)
        let afterBreak = try firstSound(["--ssml", "<speak><break time=\"500ms\"/>Hello world.</speak>"])
        XCTAssertGreaterThanOrEqual(afterBreak.frame, 24000, "a break the request starts with is kept whole")
    }
}
