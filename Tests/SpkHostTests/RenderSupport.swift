import Foundation
import SpkTestSupport
import XCTest

/// One entry of spkhost's markers JSON.
struct MarkerEntry: Decodable {
    var type: String
    var frame: Int
    var seconds: Double
    var textOffset: Int
    var textLength: Int
    var name: String?
}

/// Renders through `spkhost` (run with the caller's environment) into `dir`, and returns the
/// signal and its markers; a non-zero exit fails the calling test.
func renderWithMarkers(_ arguments: [String], in dir: URL, spkhost: ([String]) -> Fixture.Result,
                       file: StaticString = #filePath, line: UInt = #line) throws -> (Signal, [MarkerEntry]) {
    let output = dir.appendingPathComponent("out-\(UUID().uuidString).wav").path
    let markers = dir.appendingPathComponent("markers-\(UUID().uuidString).json").path
    let result = spkhost(["render"] + arguments + ["--output", output, "--markers", markers])
    XCTAssertEqual(result.status, 0, "spkhost failed: \(result.stderr)", file: file, line: line)
    let entries = try JSONDecoder().decode([MarkerEntry].self, from: Data(contentsOf: URL(fileURLWithPath: markers)))
    return (try Signal(path: output), entries)
}

/// The example from Apple's session, as every engine must speak it: "Hello", a 1 s break, and
/// "nice to meet you!" at twice the rate (0.4 to 0.65 of its length at the normal rate).
func assertAppleExample(render: ([String]) throws -> (Signal, [MarkerEntry]),
                        file: StaticString = #filePath, line: UInt = #line) throws {
    let example = #"<speak>Hello <break time="1s"/><prosody rate="200%">nice to meet you!</prosody></speak>"#
    let (signal, _) = try render(["--ssml", example])
    XCTAssertEqual(signal.sampleRate, 48000, file: file, line: line)
    let segments = signal.soundingSegments()
    XCTAssertEqual(segments.count, 2, "expected 'Hello' and the rest, found \(segments)", file: file, line: line)
    guard segments.count == 2 else { return }
    XCTAssertEqual(segments[1].start - segments[0].end, 1.0, accuracy: 0.1, "silence between Hello and the rest", file: file, line: line)
    let (normal, _) = try render(["--ssml", "<speak>nice to meet you!</speak>"])
    let ratio = (segments[1].end - segments[1].start) / normal.spokenDuration
    XCTAssertGreaterThan(ratio, 0.4, "rate 200% should halve the length, ratio \(ratio)", file: file, line: line)
    XCTAssertLessThan(ratio, 0.65, "rate 200% should halve the length, ratio \(ratio)", file: file, line: line)
}

/// A failed spkhost run as a user must see it: a non-zero exit, one `error: ` line that names
/// each of `expected`, and nothing left behind in `directory`.
func assertFailsCleanly(_ result: Fixture.Result, mentioning expected: [String], leaving directory: URL,
                        file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertNotEqual(result.status, 0, "should fail", file: file, line: line)
    let lines = result.stderr.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, "one error line, got: \(result.stderr)", file: file, line: line)
    XCTAssertTrue(lines.first?.hasPrefix("error: ") ?? false, result.stderr, file: file, line: line)
    for text in expected {
        XCTAssertTrue(result.stderr.contains(text), "'\(text)' missing from: \(result.stderr)", file: file, line: line)
    }
    let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    XCTAssertEqual(left, [], "nothing may be left behind", file: file, line: line)
}
