import Foundation
@testable import NeuralVoices
import XCTest

/// The installed voice's files: the ONNX model's metadata written and read without a protobuf
/// library, the Piper config's conversion, and the checks that keep sherpa-onnx from ending the
/// process on a voice that is not whole.
final class NeuralVoiceFilesTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("spk-neural-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A small ModelProto: ir_version, producer_name, a graph of `graphBytes` bytes, opset_import.
    func model(graphBytes: Int = 300) -> [UInt8] {
        func field(_ number: Int, _ payload: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [UInt8(number << 3 | 2)]
            var n = payload.count
            while n >= 0x80 { out.append(UInt8(n & 0x7F) | 0x80); n >>= 7 }
            return out + [UInt8(n)] + payload
        }
        return [0x08, 0x08] + field(2, Array("pytorch".utf8)) + field(7, [UInt8](repeating: 0x2A, count: graphBytes)) + field(8, [0x0A, 0x00, 0x10, 0x0F])
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try Data(bytes).write(to: dir.appendingPathComponent(name))
        return path(name)
    }

    func testMetadataIsWrittenReadAndReplaced() throws {
        let source = try ONNXModelFile(path: write(model(), "in.onnx"))
        XCTAssertEqual(source.metadata, [:])
        try source.write(to: path("one.onnx"), metadata: [("sample_rate", "22050"), ("comment", "piper")])
        let once = try ONNXModelFile(path: path("one.onnx"))
        XCTAssertEqual(once.metadata, ["sample_rate": "22050", "comment": "piper"])
        try once.write(to: path("two.onnx"), metadata: [("sample_rate", "16000")])
        let twice = try ONNXModelFile(path: path("two.onnx"))
        XCTAssertEqual(twice.metadata, ["sample_rate": "16000", "comment": "piper"])
        XCTAssertEqual(twice.size, once.size, "the old entry is gone, not shadowed")
    }

    func testAModelCutShortOrNotAModelIsRefusedNamingTheFile() throws {
        let whole = model()
        let cut = try write(Array(whole[..<200]), "cut.onnx")
        XCTAssertThrowsError(try ONNXModelFile(path: cut)) { XCTAssertTrue("\($0)".contains("cut.onnx") && "\($0)".contains("cut short"), "\($0)") }
        let text = try write(Array("not a model at all, just some text\n".utf8), "text.onnx")
        XCTAssertThrowsError(try ONNXModelFile(path: text)) { XCTAssertTrue("\($0)".contains("text.onnx"), "\($0)") }
        let empty = try write([], "empty.onnx")
        XCTAssertThrowsError(try ONNXModelFile(path: empty)) { XCTAssertTrue("\($0)".contains("no graph"), "\($0)") }
    }

    func piperConfig(_ map: String = #"{"_": [0], "^": [1], "$": [2], " ": [3], "a": [14], "ç": [40]}"#) -> String {
        #"{"audio": {"sample_rate": 22050}, "espeak": {"voice": "en-us"}, "inference": {"noise_scale": 0.5, "length_scale": 1.1, "noise_w": 0.7}, "#
            + #""phoneme_type": "espeak", "num_speakers": 1, "language": {"name_english": "English"}, "phoneme_id_map": "# + map + "}"
    }

    func convert(config: String) throws -> InstalledNeuralVoice {
        let source = try write(model(), "voice.onnx")
        try Data(config.utf8).write(to: URL(fileURLWithPath: source + ".json"))
        return try NeuralVoiceConversion.convert(entry: NeuralCatalog.voices[0], model: source, modelCard: nil, into: path("converted"))
    }

    func testConversionWritesTokensMetadataAndManifest() throws {
        let voice = try convert(config: piperConfig())
        let tokens = try String(contentsOfFile: voice.tokensPath, encoding: .utf8)
        XCTAssertEqual(tokens, "_ 0\n^ 1\n$ 2\n  3\na 14\nç 40\n")
        XCTAssertEqual(voice.symbols, Set(["_", "^", "$", " ", "a", "ç"].map { Unicode.Scalar($0)! }))
        let metadata = try ONNXModelFile(path: voice.modelPath).metadata
        XCTAssertEqual(metadata, ["model_type": "vits", "comment": "piper", "language": "English", "voice": "en-us",
                                  "has_espeak": "1", "n_speakers": "1", "sample_rate": "22050"])
        XCTAssertEqual(voice.manifest.noiseScaleW, 0.7)
        XCTAssertEqual(voice.manifest.lengthScale, 1.1)
    }

    func testAConfigWithoutPhonemeIdsIsRefused() throws {
        XCTAssertThrowsError(try convert(config: piperConfig(#"{"a": [14]}"#))) {
            XCTAssertTrue("\($0)".contains("voice.onnx.json") && "\($0)".contains("'_'"), "\($0)")
        }
    }

    func testMissingMetadataAndAChangedModelAreFoundBeforeLoading() throws {
        let voice = try convert(config: piperConfig())
        var manifest = voice.manifest
        // Another size than installed: replaced or cut short since.
        manifest.modelBytes += 1
        try manifest.write(voice.directory + "/voice.json")
        XCTAssertThrowsError(try InstalledNeuralVoice(directory: voice.directory)) { XCTAssertTrue("\($0)".contains("bytes"), "\($0)") }
        // The model as Piper ships it, without the metadata sherpa-onnx needs (it would exit).
        let piper = model()
        try Data(piper).write(to: URL(fileURLWithPath: voice.modelPath))
        manifest.modelBytes = piper.count
        try manifest.write(voice.directory + "/voice.json")
        XCTAssertThrowsError(try InstalledNeuralVoice(directory: voice.directory)) {
            XCTAssertTrue("\($0)".contains("model.onnx") && "\($0)".contains("metadata"), "\($0)")
        }
    }

    func testBrokenTokensNameTheLine() throws {
        let voice = try convert(config: piperConfig())
        try "_ 0\n^ one\n".write(toFile: voice.tokensPath, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try InstalledNeuralVoice(directory: voice.directory)) {
            XCTAssertTrue("\($0)".contains("tokens.txt") && "\($0)".contains("line 2"), "\($0)")
        }
    }
}
