import Foundation
import XCTest

/// Ardour, a host nobody here wrote, driven headless through its Lua interpreter (ardour7-lua,
/// dummy audio backend): it finds every spk synth, puts one on a MIDI track and saves a session
/// that holds it.
final class ArdourTests: XCTestCase {
    func testArdourFindsEverySynthAndPutsOneOnAMIDITrack() throws {
        let dir = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("probe.lua")
        try """
        AudioEngine:set_backend("None (Dummy)", "", "")
        AudioEngine:set_sample_rate(48000)
        AudioEngine:start(false)
        assert(create_session("\(dir.path)/session", "spk", 48000), "no session")
        for p in ARDOUR.LuaAPI.list_plugins():iter() do
          if string.find(p.unique_id, "urn:spk") then print("found " .. p.unique_id) end
        end
        local info = ARDOUR.LuaAPI.new_plugin_info("urn:spk:synth:espeak-ng", ARDOUR.PluginType.LV2)
        assert(not info:isnil(), "no plugin info")
        local tracks = Session:new_midi_track(ARDOUR.ChanCount(ARDOUR.DataType("midi"), 1), ARDOUR.ChanCount(ARDOUR.DataType("audio"), 2),
          true, info, nil, nil, 1, "Speech", ARDOUR.PresentationInfo.max_order, ARDOUR.TrackMode.Normal, true)
        for t in tracks:iter() do print("track " .. t:name() .. ": " .. t:nth_plugin(0):display_name()) end
        Session:save_state("", false, false, false, false, false)
        close_session()
        """.write(to: script, atomically: true, encoding: .utf8)
        // Ardour looks at the system's plugins too; the staged spk bundles come first.
        let result = Fixture.run("/usr/bin/timeout", ["120", "/usr/bin/ardour7-lua", script.path],
                                 environment: ["LV2_PATH": Fixture.lv2Path + ":/usr/lib/lv2", "HOME": dir.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        for uri in ["urn:spk:synth:espeak-ng", "urn:spk:synth:flite", "urn:spk:synth:neural", "urn:spk:synth:personal"] {
            XCTAssertTrue(result.stdout.contains("found \(uri)"), result.stdout)
        }
        XCTAssertTrue(result.stdout.contains("track Speech: spk espeak-ng"), result.stdout)
        let session = try String(contentsOf: dir.appendingPathComponent("session/spk.ardour"), encoding: .utf8)
        XCTAssertTrue(session.contains("urn:spk:synth:espeak-ng"), "the saved session holds the synth")
    }
}
