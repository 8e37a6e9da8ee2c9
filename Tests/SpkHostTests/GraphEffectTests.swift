import Foundation
import SpkTestSupport
import XCTest

/// `spkhost render --effect URI --set SYMBOL=VALUE` and graph files with real swh-lv2 plugins:
/// the effect applies, in order, and latency is compensated so audio and markers stay aligned.
final class GraphEffectTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = Fixture.temporaryDirectory()
        try GraphSupport.requirePlugins([GraphSupport.amp, GraphSupport.hardLimiter, GraphSupport.lookaheadLimiter])
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    let text = ["--text", "The quick brown fox jumps over the lazy dog."]

    func testAmpAtMinusSixDecibelsHalvesTheRMS() throws {
        let dry = try GraphSupport.render(text, in: dir)
        let quiet = try GraphSupport.render(text + ["--effect", GraphSupport.amp, "--set", "gain=-6"], in: dir)
        let ratio = quiet.signal.rms() / dry.signal.rms()
        XCTAssertGreaterThan(ratio, 0.45)
        XCTAssertLessThan(ratio, 0.56)
        XCTAssertEqual(quiet.signal.samples.count, dry.signal.samples.count, "an amp adds no length")
        XCTAssertEqual(quiet.markers, dry.markers, "markers stay on their words")
    }

    func testAChainAppliesEveryEffect() throws {
        let dry = try GraphSupport.render(text, in: dir)
        let twice = try GraphSupport.render(text + ["--effect", GraphSupport.amp, "--set", "gain=-6",
                                                    "--effect", GraphSupport.amp, "--set", "gain=-6"], in: dir)
        XCTAssertEqual(twice.signal.rms() / dry.signal.rms(), 0.25, accuracy: 0.02)
    }

    func testAChainRunsInOrderAndEachSetGoesToTheEffectBeforeIt() throws {
        // Boost then limit at -12 dB: peaks end at the limit. Limit then boost: at the limit plus 12 dB.
        let boostThenLimit = try GraphSupport.render(text + ["--effect", GraphSupport.amp, "--set", "gain=12",
                                                             "--effect", GraphSupport.hardLimiter, "--set", "limit_db=-12"], in: dir)
        let limitThenBoost = try GraphSupport.render(text + ["--effect", GraphSupport.hardLimiter, "--set", "limit_db=-12",
                                                             "--effect", GraphSupport.amp, "--set", "gain=12"], in: dir)
        XCTAssertEqual(boostThenLimit.signal.peak, 0.251, accuracy: 0.01)
        XCTAssertGreaterThan(limitThenBoost.signal.peak, 0.9)
    }

    func testReportedLatencyIsTrimmedSoAudioAndMarkersStayAligned() throws {
        // lookaheadLimiterConst delays by 8191 frames, whatever its look-ahead, and reports it.
        let dry = try GraphSupport.render(text, in: dir)
        let delayed = try GraphSupport.render(text + ["--effect", GraphSupport.lookaheadLimiter, "--set", "delay_s=0.1"], in: dir)
        XCTAssertEqual(delayed.signal.samples.count, dry.signal.samples.count)
        XCTAssertEqual(delayed.markers, dry.markers)
        let worst = zip(dry.signal.samples, delayed.signal.samples).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThanOrEqual(worst, 2.0 / 32768, "the limiter (at 0 dB) passes the voice through, aligned")
    }

    func testParallelPathsOfDifferentLatencyAreLinedUp() throws {
        // The voice through the look-ahead limiter (8191 frames late) and directly, summed and
        // halved: the direct path must be delayed to match, or the sum would be comb-filtered.
        let graph = """
        {"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"},
                   {"id": "late", "plugin": "\(GraphSupport.lookaheadLimiter)", "controls": {"delay_s": 0.05}},
                   {"id": "direct", "plugin": "\(GraphSupport.amp)"},
                   {"id": "mix", "plugin": "\(GraphSupport.amp)", "controls": {"gain": -6.0206}}],
         "connections": [{"from": "voice", "to": "late"}, {"from": "voice", "to": "direct"},
                         {"from": "late", "to": "mix"}, {"from": "direct:output", "to": "mix:input"}],
         "outputs": ["mix"]}
        """
        let file = dir.appendingPathComponent("parallel.json")
        try graph.write(to: file, atomically: true, encoding: .utf8)
        let dry = try GraphSupport.render(text, in: dir)
        let mixed = try GraphSupport.render(text + ["--graph", file.path], in: dir)
        XCTAssertEqual(mixed.signal.samples.count, dry.signal.samples.count)
        let worst = zip(dry.signal.samples, mixed.signal.samples).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThanOrEqual(worst, 2.0 / 32768)
        XCTAssertEqual(mixed.markers, dry.markers)
    }

    func testStereoOutputIsMixedDownForTheFile() throws {
        // dj_eq is stereo: the mono voice feeds both inputs, and the file gets their average.
        try GraphSupport.requirePlugins([GraphSupport.swh + "dj_eq"])
        let dry = try GraphSupport.render(text, in: dir)
        let stereo = try GraphSupport.render(text + ["--effect", GraphSupport.swh + "dj_eq"], in: dir)
        XCTAssertEqual(stereo.signal.rms() / dry.signal.rms(), 1, accuracy: 0.05)
        XCTAssertEqual(stereo.markers, dry.markers)
    }

    func testWithoutAVoiceTheGraphsSynthNodeSpeaks() throws {
        let graph = """
        {"nodes": [{"id": "voice", "plugin": "urn:spk:synth:flite"}, {"id": "gain", "plugin": "\(GraphSupport.amp)"}],
         "connections": [{"from": "voice", "to": "gain"}], "outputs": ["gain"]}
        """
        let file = dir.appendingPathComponent("flite.json")
        try graph.write(to: file, atomically: true, encoding: .utf8)
        let throughGraph = try GraphSupport.render(text + ["--graph", file.path], in: dir)
        let plain = try GraphSupport.render(text + ["--voice", "spk.flite.slt"], in: dir)
        XCTAssertEqual(throughGraph.data, plain.data, "flite's default voice through an amp at 0 dB")
        XCTAssertEqual(throughGraph.markers, plain.markers)
    }

    func testAPresetOfTheNodeApplies() throws {
        // A user preset for swh's amp, in its own bundle on LV2_PATH, as hosts save them.
        let bundle = dir.appendingPathComponent("presets/spk-test-quiet.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let prefixes = """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

        """
        try (prefixes + """
        <urn:spk:test:quiet> a pset:Preset ; lv2:appliesTo <\(GraphSupport.amp)> ; rdfs:seeAlso <quiet.ttl> .
        """).write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try (prefixes + """
        <urn:spk:test:quiet> a pset:Preset ; lv2:appliesTo <\(GraphSupport.amp)> ; rdfs:label "quiet" ;
            lv2:port [ lv2:symbol "gain" ; pset:value -6.0 ] .
        """).write(to: bundle.appendingPathComponent("quiet.ttl"), atomically: true, encoding: .utf8)
        let graph = """
        {"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"},
                   {"id": "gain", "plugin": "\(GraphSupport.amp)", "preset": "quiet"}],
         "connections": [{"from": "voice", "to": "gain"}], "outputs": ["gain"]}
        """
        let file = dir.appendingPathComponent("preset.json")
        try graph.write(to: file, atomically: true, encoding: .utf8)
        let extra = [bundle.deletingLastPathComponent().path]
        let dry = try GraphSupport.render(text, in: dir)
        let quiet = try GraphSupport.render(text + ["--graph", file.path], in: dir, extraLV2: extra)
        XCTAssertEqual(quiet.signal.rms() / dry.signal.rms(), 0.5, accuracy: 0.03)

        let unknown = GraphSupport.spkhost(["render", "--text", "Hi", "--graph", file.path, "--output", dir.appendingPathComponent("x.wav").path])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.hasPrefix("error: node 'gain'") && unknown.stderr.contains("quiet"), unknown.stderr)
    }
}
