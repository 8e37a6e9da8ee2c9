import Foundation
import SSML
import SpkAudio
import SpeechEngines
import VoiceRegistry
import XCTest

/// The limits that keep hostile requests from crashing or hanging the engines: phoneme strings
/// at the parser's maximum through the real engines, custom voices out of range, and `<audio>`
/// files that are not regular files or are too long.
final class LimitTests: XCTestCase {
    func render(_ ssml: String, engine: SpeechEngine, voice: String, custom: [CustomVoice] = []) throws -> [Float] {
        let renderer = try ProgramRenderer(request: SpeechRequest(id: 1, ssml: ssml), catalog: VoiceCatalog(engine: engine, custom: custom),
                                           outputRate: 48000, defaultVoice: voice)
        var samples: [Float] = []
        while !renderer.isFinished { samples += try renderer.next().samples }
        return samples
    }

    /// The longest phoneme strings the parser lets through, in the forms that give espeak-ng the
    /// most input (every IPA symbol two espeak characters, no spaces: one word), speak.
    func phonemeStringsAtTheLimit() -> [String] {
        let n = SSMLLimits.maxPhonemeCharacters
        return [
            "<speak><phoneme alphabet=\"ipa\" ph=\"\(String(repeating: "ɑ", count: n))\">x</phoneme></speak>",
            "<speak><phoneme alphabet=\"ipa\" ph=\"\(String(repeating: "aɪ", count: n / 2))\">x</phoneme></speak>",
            "<speak><phoneme alphabet=\"x-espeak\" ph=\"\(String(repeating: "tS", count: n / 2))\">x</phoneme></speak>",
            "<speak>" + String(repeating: "<phoneme alphabet=\"ipa\" ph=\"\(String(repeating: "ɐ", count: n))\">x</phoneme>", count: 8) + "</speak>",
        ]
    }

    func testPhonemeStringsAtTheLimitSpeakWithEspeak() throws {
        for ssml in phonemeStringsAtTheLimit() {
            let samples = try render(ssml, engine: try EspeakEngine.shared(), voice: EspeakEngine.defaultVoice)
            XCTAssertGreaterThan(samples.count, 48000, ssml)
        }
    }

    func testPhonemeStringsAtTheLimitSpeakWithFlite() throws {
        for ssml in phonemeStringsAtTheLimit() {
            let samples = try render(ssml, engine: try FliteEngine.shared(), voice: FliteEngine.defaultVoice)
            XCTAssertGreaterThan(samples.count, 4800, ssml)
        }
    }

    /// A registry edited by hand (pitch -5, rate 1e308, NaN) reaches the engine clamped.
    func testCustomVoicesOutOfRangeAreClampedNotCrashed() throws {
        for (rate, pitch, volume) in [(1.0, -5.0, 1.0), (1e308, 1.0, 1e308), (Double.nan, Double.nan, Double.nan), (-1.0, 1e300, -3.0)] {
            let voice = CustomVoice(identifier: "spk.espeak-ng.odd", name: "Odd", base: EspeakEngine.defaultVoice, rate: rate, pitch: pitch, volume: volume)
            let samples = try render("<speak>Hello there.</speak>", engine: try EspeakEngine.shared(), voice: "spk.espeak-ng.odd", custom: [voice])
            XCTAssertGreaterThan(samples.count, 4800)
            XCTAssertTrue(samples.allSatisfy { $0.isFinite && abs($0) <= 2.5 }, "rate \(rate) pitch \(pitch) volume \(volume)")
        }
    }

    func testAudioThatIsNotARegularFileIsAnErrorNotAWait() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spk-limit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(mkfifo(dir + "/fifo.wav", 0o600), 0)
        for (path, kind) in [(dir + "/fifo.wav", "a FIFO"), (dir, "a directory"), ("/dev/zero", "a character device")] {
            XCTAssertThrowsError(try AudioFileReader.readMono(path: path)) { error in
                XCTAssertEqual((error as? AudioFileError)?.kind, .notRegularFile, "\(error)")
                XCTAssertTrue("\(error)".contains("not a regular file (\(kind))"), "\(error)")
            }
            XCTAssertThrowsError(try render("<speak>a <audio src=\"\(path)\">fallback</audio></speak>",
                                            engine: try EspeakEngine.shared(), voice: EspeakEngine.defaultVoice)) { error in
                XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
            }
        }
    }

    /// A 2 GB sparse WAV (its header says six hours) is refused before anything is read.
    func testAudioLongerThanTheMaximumIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spk-sparse-\(UUID().uuidString).wav").path
        defer { unlink(path) }
        let size: UInt32 = 2_000_000_000
        var header = Data("RIFF".utf8)
        func le32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) } }
        func le16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) } }
        le32(size + 36); header.append(contentsOf: Array("WAVEfmt ".utf8)); le32(16); le16(1); le16(1); le32(44100); le32(88200); le16(2); le16(16)
        header.append(contentsOf: Array("data".utf8)); le32(size)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: header))
        XCTAssertEqual(truncate(path, off_t(size) + 44), 0)
        XCTAssertThrowsError(try AudioFileReader.readMono(path: path)) { error in
            XCTAssertEqual((error as? AudioFileError)?.kind, .tooLong, "\(error)")
            XCTAssertTrue("\(error)".contains("a clip may last at most 300 s"), "\(error)")
        }
    }

    func testAMissingAudioFileStillSpeaksItsFallback() throws {
        let samples = try render("<speak><audio src=\"/nonexistent/clip.wav\">the fallback words</audio></speak>",
                                 engine: try EspeakEngine.shared(), voice: EspeakEngine.defaultVoice)
        XCTAssertGreaterThan(samples.count, 24000)
    }
}
