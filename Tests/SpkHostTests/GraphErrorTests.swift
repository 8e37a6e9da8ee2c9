import Foundation
import XCTest

/// A graph that cannot run is refused before any audio: one `error:` line naming the node (or
/// connection) and the problem, a non-zero exit, and no output file.
final class GraphErrorTests: XCTestCase {
    var dir: URL!, outputDir: URL!
    override func setUpWithError() throws {
        dir = Fixture.temporaryDirectory()
        outputDir = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outputDir, withIntermediateDirectories: true)
        try GraphSupport.requirePlugins([GraphSupport.amp, GraphSupport.liveOnlyReverb])
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func graph(_ json: String) throws -> String {
        let file = dir.appendingPathComponent("graph-\(UUID().uuidString).json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func assertFails(_ arguments: [String], mentioning expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let output = outputDir.appendingPathComponent("out.wav").path
        let markers = outputDir.appendingPathComponent("out.json").path
        let result = GraphSupport.spkhost(["render", "--text", "Hello there."] + arguments + ["--output", output, "--markers", markers])
        assertFailsCleanly(result, mentioning: expected, leaving: outputDir, file: file, line: line)
    }

    func testACycleIsSpelledOut() throws {
        let path = try graph("""
        {"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"},
                   {"id": "a", "plugin": "\(GraphSupport.amp)"}, {"id": "b", "plugin": "\(GraphSupport.amp)"},
                   {"id": "c", "plugin": "\(GraphSupport.amp)"}],
         "connections": [{"from": "voice", "to": "a"}, {"from": "a", "to": "b"}, {"from": "b", "to": "c"},
                         {"from": "c:output", "to": "a:input"}],
         "outputs": ["c"]}
        """)
        assertFails(["--graph", path], mentioning: ["cycle", "a -> b -> c -> a"])
    }

    func testAnUnknownPluginURI() {
        assertFails(["--effect", "http://example.org/no-such-plugin"],
                    mentioning: ["node 'no-such-plugin'", "no LV2 plugin <http://example.org/no-such-plugin> is installed"])
    }

    func testAnUnknownPortSymbolInAConnection() throws {
        let path = try graph("""
        {"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"}, {"id": "gain", "plugin": "\(GraphSupport.amp)"}],
         "connections": [{"from": "voice:out", "to": "gain:inptu"}], "outputs": ["gain"]}
        """)
        assertFails(["--graph", path], mentioning: ["voice:out -> gain:inptu", "node 'gain' has no port 'inptu'", "input"])
    }

    func testAnUnknownControlSymbol() {
        assertFails(["--effect", GraphSupport.amp, "--set", "gian=-6"], mentioning: ["node 'amp'", "no control input 'gian'", "gain"])
    }

    func testAControlValueOutOfRange() {
        assertFails(["--effect", GraphSupport.amp, "--set", "gain=100"], mentioning: ["node 'amp'", "gain = 100 is outside -70...70"])
    }

    func testFrequencyRangesScaleWithTheSampleRate() {
        // triplePara's band frequencies are bounded by fractions of the sample rate (lv2:sampleRate).
        assertFails(["--effect", GraphSupport.swh + "triplePara", "--set", "fc_1=30000"],
                    mentioning: ["node 'triplePara'", "fc_1 = 30000 is outside", "23520 at 48000 Hz"])
    }

    func testAPluginThatNeedsAFeatureTheHostLacks() {
        assertFails(["--effect", GraphSupport.liveOnlyReverb],
                    mentioning: ["node 'reverb'", "needs the LV2 feature <http://lv2plug.in/ns/lv2core#isLive>"])
    }

    func testGraphFileMistakes() throws {
        assertFails(["--graph", try graph(#"{"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng", "control": {}}], "outputs": ["voice"]}"#)],
                    mentioning: ["nodes[0].control", "unknown key"])
        assertFails(["--graph", try graph(#"{"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"}]}"#)],
                    mentioning: ["\"outputs\" is missing"])
        assertFails(["--graph", try graph(#"{"nodes": [{"id": "fx", "plugin": "\#(GraphSupport.amp)"}], "outputs": ["fx"]}"#)],
                    mentioning: ["no spk synth node"])
        assertFails(["--graph", try graph(#"{"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"}], "outputs": ["vocie"]}"#)],
                    mentioning: ["output vocie", "no node 'vocie'"])
        assertFails(["--graph", dir.appendingPathComponent("missing.json").path], mentioning: ["cannot read graph file", "missing.json"])
        assertFails(["--graph", try graph("{nodes")], mentioning: ["not valid JSON"])
    }

    func testSetNeedsAValue() {
        assertFails(["--effect", GraphSupport.amp, "--set", "gain"], mentioning: ["--set gain", "SYMBOL=VALUE"])
    }
}
