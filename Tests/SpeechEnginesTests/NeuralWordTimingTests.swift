@testable import SpeechEngines
import XCTest

/// Word positions estimated from the audio's pauses and the words' phoneme counts.
final class NeuralWordTimingTests: XCTestCase {
    let rate = 1000.0

    /// Sound (a 100 Hz tone) and silence, as (seconds, sounding) pieces.
    func signal(_ pieces: [(Double, Bool)]) -> [Float] {
        pieces.flatMap { seconds, sounding in
            (0..<Int(seconds * rate)).map { i in sounding ? Float(0.3 * sin(2 * Double.pi * 100 * Double(i) / rate)) : 0 }
        }
    }

    func testClauseBoundariesFallInTheLongestPauses() {
        // Silence, clause one (0.5 s), a comma's pause, clause two (1 s), silence.
        let samples = signal([(0.1, false), (0.5, true), (0.25, false), (1.0, true), (0.2, false)])
        let starts = NeuralWordTiming.starts(weights: [[1], [1, 1]], loudness: NeuralLoudness(samples, sampleRate: rate), sampleRate: rate)
        XCTAssertEqual(starts[0], [100])
        XCTAssertEqual(starts[1][0], 850, "the second clause starts where the pause ends")
        XCTAssertEqual(Double(starts[1][1]), 1350, accuracy: 10, "its words share its span by weight")
    }

    func testAWordEstimateMovesToTheEndOfANearbyPause() {
        // One clause, two words of equal weight; the voice paused for a stop a little after halfway.
        let samples = signal([(0.5, true), (0.04, false), (0.46, true)])
        let starts = NeuralWordTiming.starts(weights: [[1, 1]], loudness: NeuralLoudness(samples, sampleRate: rate), sampleRate: rate)
        XCTAssertEqual(starts[0], [0, 540])
    }

    func testSilenceGivesZeroes() {
        let starts = NeuralWordTiming.starts(weights: [[1, 2]], loudness: NeuralLoudness([Float](repeating: 0, count: 500), sampleRate: rate), sampleRate: rate)
        XCTAssertEqual(starts, [[0, 0]])
    }
}
