import Foundation
import LV2Host
import SpkTestSupport
import XCTest

/// What goes wrong with neural voices: not installed, a damaged model, metadata missing. Each is
/// one clear error, and the host goes on (sherpa-onnx would end the process on missing
/// metadata if spk let it see the model).
final class NeuralErrorTests: XCTestCase {
    var homes: [String] = []
    override func tearDown() { for home in homes { try? FileManager.default.removeItem(atPath: home) } }

    func render(_ home: String, text: String = "Hello there.") -> Fixture.Result {
        NeuralFixture.spkhost(["render", "--voice", NeuralFixture.voice, "--text", text, "--output", home + "/out.wav"], home: home)
    }

    func testAnUninstalledVoiceSaysHowToInstallIt() {
        let home = Fixture.temporaryDirectory().path
        homes.append(home)
        let result = render(home)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("spkhost voice install spk.neural.en-us-joe"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/out.wav"))
    }

    func testTheCatalogOffersNeuralVoicesThatAreNotInstalled() throws {
        let home = Fixture.temporaryDirectory().path
        homes.append(home)
        func identifiers(_ arguments: [String]) throws -> [String] {
            let result = NeuralFixture.spkhost(["voices", "--json"] + arguments, home: home)
            XCTAssertEqual(result.status, 0, result.stderr)
            return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
        }
        XCTAssertTrue(try identifiers(["--all"]).contains(NeuralFixture.voice))
        XCTAssertFalse(try identifiers([]).contains(NeuralFixture.voice), "not installed until fetched")
        XCTAssertTrue(try identifiers([]).contains("spk.flite.slt"), "voices that come with their engine count as installed")
        // The plugin, asked directly without a registry, does not list it either.
        setenv("XDG_DATA_HOME", home, 1)
        defer { setenv("XDG_DATA_HOME", Fixture.dataHome, 1) }
        let synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:neural", sampleRate: 48000, block: 256)
        XCTAssertEqual(try synth.voices().map(\.identifier), [])
        XCTAssertEqual(try synth.catalog().map(\.identifier), [NeuralFixture.voice])
    }

    func testADamagedModelIsAClearError() throws {
        try NeuralFixture.requireInstalled()
        let home = try NeuralFixture.copiedHome()
        homes.append(home)
        let model = home + "/spk/neural/voices/en-us-joe/model.onnx"
        // Garbage in the middle of the graph, same size: only onnxruntime can tell.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: model))
        try handle.seek(toOffset: 1000)
        handle.write(Data((0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }))
        try handle.close()
        let garbled = render(home)
        XCTAssertEqual(garbled.status, 1)
        // sherpa-onnx prints its own diagnosis first; spkhost's error line is the last.
        let last = garbled.stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("error: spk.neural.en-us-joe cannot speak") && last.contains("model.onnx"), garbled.stderr)
        XCTAssertTrue(last.contains("spkhost voice install spk.neural.en-us-joe"), last)
        // Cut short.
        try FileManager.default.removeItem(atPath: model)
        try FileManager.default.copyItem(atPath: NeuralFixture.voiceDirectory + "/model.onnx", toPath: model)
        let truncate = try XCTUnwrap(FileHandle(forWritingAtPath: model))
        try truncate.truncate(atOffset: 5_000_000)
        try truncate.close()
        let cut = render(home)
        XCTAssertEqual(cut.status, 1)
        XCTAssertTrue(cut.stderr.hasPrefix("error: ") && cut.stderr.contains("model.onnx") && cut.stderr.contains("cut short"), cut.stderr)
    }

    func testMissingMetadataIsAClearErrorAndTheHostGoesOn() throws {
        try NeuralFixture.requireInstalled()
        let home = try NeuralFixture.copiedHome()
        homes.append(home)
        // The model as Piper ships it (no metadata), described as installed.
        let voice = home + "/spk/neural/voices/en-us-joe"
        try stripMetadata(voice)

        // In this process: the error comes back as spk:Error and the host carries on.
        setenv("XDG_DATA_HOME", home, 1)
        defer { setenv("XDG_DATA_HOME", Fixture.dataHome, 1) }
        let synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:neural", sampleRate: 48000, block: 512)
        XCTAssertThrowsError(try synth.render(ssml: "Hello there.", voice: nil) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("metadata") && "\(error)".contains("model.onnx"), "\(error)")
        }
        // Mended (as a reinstall would), the same instance speaks: nothing was left broken.
        try FileManager.default.removeItem(atPath: voice)
        try FileManager.default.copyItem(atPath: NeuralFixture.voiceDirectory, toPath: voice)
        var audio: [Float] = []
        let events = try synth.render(ssml: "Hello there.", voice: nil) { audio += $0 }
        XCTAssertTrue(events.contains { if case .finished = $0.event { return true } else { return false } })
        XCTAssertGreaterThan(Signal(samples: audio, sampleRate: 48000).rms(), 0.01)
    }

    /// Writes the model without its metadata_props (field 14) and records its new size, so only
    /// the missing metadata is wrong.
    private func stripMetadata(_ voice: String) throws {
        let model = try Data(contentsOf: URL(fileURLWithPath: voice + "/model.onnx"))
        var bytes = [UInt8](model)
        // The converter appends the entries after the original fields: cut from the first one.
        var offset = 0
        func varint() -> Int {
            var value = 0, shift = 0
            while true {
                let byte = bytes[offset]; offset += 1
                value |= Int(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        while offset < bytes.count {
            let start = offset
            let key = varint()
            if key >> 3 == 14 { bytes.removeSubrange(start...); break }
            if key & 7 == 0 { _ = varint() } else { offset += varint() }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: voice + "/model.onnx"))
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: voice + "/voice.json"))) as! [String: Any]
        manifest["modelBytes"] = bytes.count
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: voice + "/voice.json"))
    }
}
