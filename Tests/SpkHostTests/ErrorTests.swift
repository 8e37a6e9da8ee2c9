import Foundation
import XCTest

/// Bad input: a non-zero exit, one `error:` line that names the problem, and no output file.
final class ErrorTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func assertFails(_ arguments: [String], mentioning expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let output = dir.appendingPathComponent("out.wav").path
        let result = Fixture.spkhost(["render"] + arguments + ["--output", output])
        assertFailsCleanly(result, mentioning: expected, leaving: dir, file: file, line: line)
    }

    func testMalformedSSMLNamesLineAndColumn() {
        assertFails(["--ssml", "<speak>Hello <break></speak>"], mentioning: ["line 1", "column"])
    }

    func testMalformedSSMLOnALaterLine() {
        assertFails(["--ssml", "<speak>\n  <prosody rate=\"fast-ish\">Hi</prosody>\n</speak>"], mentioning: ["line 2", "rate"])
    }

    func testEntityDeclarationIsRefusedNotExpanded() {
        let ssml = """
        <?xml version="1.0"?>
        <!DOCTYPE speak [<!ENTITY boom "kaboom kaboom kaboom">]>
        <speak>&boom;</speak>
        """
        assertFails(["--ssml", ssml], mentioning: ["DOCTYPE"])
    }

    func testUnknownVoice() {
        assertFails(["--text", "Hello", "--voice", "spk.espeak-ng.no-such-voice"], mentioning: ["unknown voice", "no-such-voice"])
    }

    func testUnknownEngine() {
        assertFails(["--text", "Hello", "--voice", "spk.nosuchengine.x"], mentioning: ["urn:spk:synth:nosuchengine"])
    }

    func testMissingInputFile() {
        assertFails(["--input", dir.appendingPathComponent("missing.ssml").path], mentioning: ["missing.ssml"])
    }

    func testUnsupportedOutputFormat() {
        let result = Fixture.spkhost(["render", "--text", "Hi", "--output", dir.appendingPathComponent("out.mp3").path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.hasPrefix("error: ") && result.stderr.contains(".wav or .flac"), result.stderr)
    }

    func testExistingOutputSurvivesAFailedRender() throws {
        let output = dir.appendingPathComponent("keep.wav").path
        XCTAssertEqual(Fixture.spkhost(["render", "--text", "First", "--output", output]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: output))
        let failed = Fixture.spkhost(["render", "--ssml", "<speak>broken", "--output", output])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["keep.wav"])
    }
}
