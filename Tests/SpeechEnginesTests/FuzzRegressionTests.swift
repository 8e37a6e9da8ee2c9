import Foundation
import SSML
import SpeechEngines
import XCTest

/// Every input the fuzzers (Fuzz/, scripts/fuzz.sh) or the hardening issue found crashing,
/// hanging or misbehaving, replayed as the fuzz targets run them: Fuzz/regressions/ssml through
/// the parser, Fuzz/regressions/render (first byte: 0 espeak-ng, 1 flite) through the renderer
/// with the same 20 s budget. Each must be spoken or refused, never crash.
final class FuzzRegressionTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions")

    func inputs(_ target: String) throws -> [(String, Data)] {
        let dir = Self.root.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map {
            ($0, try Data(contentsOf: dir.appendingPathComponent($0)))
        }
    }

    func testSSMLRegressionsParseOrFailOnOneLine() throws {
        let all = try inputs("ssml")
        XCTAssertFalse(all.isEmpty)
        for (name, data) in all {
            do {
                _ = try SSMLParser.parse(String(decoding: data, as: UTF8.self))
            } catch let error as SSMLError {
                XCTAssertFalse(error.description.contains("\n"), name)
            }
        }
    }

    func testRenderRegressionsRenderOrAreRefused() throws {
        let all = try inputs("render")
        XCTAssertFalse(all.isEmpty)
        for (name, data) in all where !data.isEmpty {
            let flite = data[data.startIndex] & 1 == 1
            let request = String(decoding: data.dropFirst(), as: UTF8.self)
            let engine: SpeechEngine = flite ? try FliteEngine.shared() : try EspeakEngine.shared()
            do {
                let renderer = try ProgramRenderer(request: SpeechRequest(id: 1, ssml: request), engine: engine, outputRate: 16000,
                                                   defaultVoice: flite ? FliteEngine.defaultVoice : EspeakEngine.defaultVoice)
                var frames = 0
                while !renderer.isFinished && frames < 16000 * 20 {
                    let chunk = try renderer.next()
                    frames += chunk.samples.count
                    XCTAssertFalse(chunk.samples.contains { $0.isNaN }, name)
                }
            } catch {
                XCTAssertFalse("\(error)".isEmpty, name)
            }
        }
    }
}
