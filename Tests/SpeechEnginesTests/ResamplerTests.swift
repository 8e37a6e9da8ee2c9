import Foundation
import SpkAudio
import XCTest

/// The resampler every engine's audio goes through on its way to the host's rate (libsoxr).
final class ResamplerTests: XCTestCase {
    /// A 440 Hz tone at 22050 Hz with a stretch of digital silence before it.
    private let input: [Float] = (0..<22050).map { i in i < 2205 ? 0 : 0.5 * Float(sin(2 * Double.pi * 440 * Double(i) / 22050)) }

    func testLengthFollowsTheRatio() throws {
        for (from, to) in [(22050.0, 48000.0), (16000.0, 48000.0), (8000.0, 16000.0), (48000.0, 22050.0)] {
            let oneSecond = (0..<Int(from)).map { Float(sin(Double($0) * 0.01)) }
            let out = try Resampler.convert(oneSecond, from: from, to: to)
            XCTAssertEqual(out.count, Int(to), "\(from) -> \(to)")
        }
    }

    func testOutputDoesNotDependOnHowTheInputIsSplit() throws {
        let whole = try Resampler.convert(input, from: 22050, to: 48000)
        for piece in [37, 441, 512, 5000] {
            let resampler = try Resampler(from: 22050, to: 48000)
            var out: [Float] = []
            var offset = 0
            while offset < input.count {
                let end = min(offset + piece, input.count)
                try resampler.process(Array(input[offset..<end]), final: end == input.count, into: &out)
                offset = end
            }
            XCTAssertEqual(out, whole, "pieces of \(piece)")
        }
    }

    /// soxr filters with FFTs, so silence would come out as rounding noise; it must stay zero
    /// (a 16-bit file would hold -1s, and hosts measure silence exactly). Within 10 ms of the
    /// tone the filter's own ringing starts, which is signal.
    func testDigitalSilenceStaysDigitalSilence() throws {
        let out = try Resampler.convert(input, from: 22050, to: 48000)
        let silentEnd = 4800 - 480
        XCTAssertTrue(out[..<silentEnd].allSatisfy { $0 == 0 }, "first non-zero at \(out.firstIndex { $0 != 0 } ?? -1)")
        let zeros = try Resampler.convert([Float](repeating: 0, count: 10000), from: 16000, to: 48000)
        XCTAssertTrue(zeros.allSatisfy { $0 == 0 })
    }

    /// Raising the rate leaves no image of the tone above the input's Nyquist frequency: at
    /// 48 kHz, 22050 - 440 = 21610 Hz must be far below the tone itself.
    func testNoImagesAboveTheInputNyquist() throws {
        let out = Array(try Resampler.convert(input, from: 22050, to: 48000)[9600..<48000 - 4800])
        func magnitude(_ hz: Double) -> Double {
            var re = 0.0, im = 0.0
            for (i, x) in out.enumerated() {
                let phase = 2 * Double.pi * hz * Double(i) / 48000
                re += Double(x) * cos(phase)
                im += Double(x) * sin(phase)
            }
            return (re * re + im * im).squareRoot()
        }
        let tone = magnitude(440), image = magnitude(22050 - 440)
        XCTAssertGreaterThan(20 * log10(tone / max(image, 1e-12)), 90, "image at 21610 Hz")
    }

    func testImpossibleRatesAreRefused() {
        XCTAssertThrowsError(try Resampler(from: 0, to: 48000))
    }
}
