import Foundation
import LV2Host
import XCTest

/// What other people's hosts see of the synths: their state, their description, their log.
final class HostFeatureTests: XCTestCase {
    override func setUp() { _ = Fixture.lv2Path }

    /// An unset voice saves nothing (a host would restore "" and warn); a set one is saved.
    func testStateSavesNoEmptyVoice() throws {
        let world = LV2World()
        let personal = try SpeechSynth(world: world, uri: "urn:spk:synth:personal", sampleRate: 48000, block: 256)
        let state = try personal.plugin.savedState()
        XCTAssertFalse(state.contains("\"\""), state)
        XCTAssertFalse(state.contains("urn:spk:ns#voice"), state)

        let espeak = try SpeechSynth(world: world, uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: 256)
        _ = try espeak.render(ssml: "Hi", voice: nil) { _ in }
        try espeak.runBlock(send: { $0.patchSet(property: espeak.plugin.urids.spk.voice, string: "spk.espeak-ng.fr", espeak.plugin.urids.spk) }, received: { _, _ in })
        try espeak.runBlock(send: nil, received: { _, _ in })
        XCTAssertTrue(try espeak.plugin.savedState().contains("spk.espeak-ng.fr"))
    }

    /// Every synth names its maker and licence, so hosts fill their Maker and licence columns.
    func testEverySynthHasAMaintainerAndALicence() throws {
        for uri in ["urn:spk:synth:espeak-ng", "urn:spk:synth:flite", "urn:spk:synth:neural", "urn:spk:synth:personal"] {
            let info = Fixture.run("lv2info", [uri], environment: ["LV2_PATH": Fixture.lv2Path])
            XCTAssertTrue(info.stdout.contains("Author:            the spk project"), uri + info.stdout)
        }
        let bundle = Fixture.packageRoot.appendingPathComponent("plugins/spk.lv2")
        // The synths' descriptions (the window's, spk-ui.ttl, describes a UI, not a plugin).
        let ttl = try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter { name in
            name.hasSuffix(".ttl") && (try? String(contentsOf: bundle.appendingPathComponent(name), encoding: .utf8))?.contains("lv2:InstrumentPlugin") == true
        }
        XCTAssertEqual(ttl.count, 4, "\(ttl)")
        for name in ttl {
            let text = try String(contentsOf: Fixture.packageRoot.appendingPathComponent("plugins/spk.lv2/\(name)"), encoding: .utf8)
            for term in ["doap:license", "doap:maintainer", "doap:developer"] { XCTAssertTrue(text.contains(term), "\(name): \(term)") }
        }
    }

    /// spkhost offers LV2 log; a request's error reaches it from the worker as well as spk:Error.
    func testRequestErrorsReachTheHostLog() throws {
        let synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: 256)
        XCTAssertThrowsError(try synth.render(ssml: "<speak>broken", voice: nil) { _ in })
        XCTAssertTrue(synth.plugin.logMessages.contains { $0.contains("spk: request") && $0.contains("SSML line 1") }, "\(synth.plugin.logMessages)")
    }
}
