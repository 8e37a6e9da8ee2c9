import Foundation
import LV2Host
import PersonalVoice
import SpkProtocol

/// Finds the synthetic voice closest to a person's recordings: each candidate flite voice speaks
/// a calibration text through the flite plugin, its pitch is tracked with the same tracker as the
/// recordings, and the nearest one is scaled to the person's pitch and pace.
struct VoiceMatcher {
    static let candidates = ["spk.flite.slt", "spk.flite.awb", "spk.flite.rms", "spk.flite.kal16"]
    static let calibration = "The quick brown fox jumps over the lazy dog. How are you today? I would like some water."

    let world: LV2World

    struct Measured {
        var voice: String
        var pitch: Double
        var wordsPerMinute: Double
    }

    func measure(_ voice: String) throws -> Measured {
        let synth = try SpeechSynth(world: world, uri: SpkURI.flitePlugin, sampleRate: 16000, block: 1024)
        var samples: [Float] = []
        let events = try synth.render(ssml: Self.calibration, voice: voice) { samples += $0 }
        let pitches = PitchTracker(sampleRate: 16000).track(samples)
        let words = events.filter { if case .marker(let m) = $0.event { return m.type == .word } else { return false } }
        let first = Double(words.first?.frame ?? 0) / 16000, last = Double(samples.count) / 16000
        return Measured(voice: voice, pitch: pitches.reduce(0, +) / Double(max(pitches.count, 1)),
                        wordsPerMinute: Double(words.count) / max(last - first, 0.1) * 60)
    }

    /// The candidate nearest in pitch (on a log scale), brought to the person's pitch and pace.
    func match(_ analysis: VoiceAnalysis) throws -> SyntheticVoice {
        let measured = try Self.candidates.map(measure)
        let nearest = measured.min { abs(log($0.pitch / analysis.meanPitch)) < abs(log($1.pitch / analysis.meanPitch)) }!
        return SyntheticVoice(base: nearest.voice,
                              rate: min(max(analysis.wordsPerMinute / nearest.wordsPerMinute, 0.5), 2),
                              pitch: min(max(analysis.meanPitch / nearest.pitch, 0.5), 2),
                              volume: 1)
    }
}
