import CFlite
import SpkProtocol

/// A registered flite voice: its spk description, flite's handle, and how its pitch is moved.
struct FliteVoice: @unchecked Sendable {
    /// How a voice's pitch is changed, found by measuring each voice's f0 (autocorrelation) with
    /// the intonation targets set and not.
    enum PitchControl {
        /// flite's `int_f0_target_mean` / `int_f0_target_stddev` move the voice's f0 and its range.
        case intonationTargets
        /// flite ignores the targets for this voice (rms's clustergen model predicts f0 without
        /// them): libsonic shifts the finished audio, and the range stays the voice's own.
        case sonic
    }

    let voice: Voice
    /// Registered once per process; flite owns it until the process ends.
    let handle: UnsafeMutablePointer<cst_voice>
    let pitchControl: PitchControl
    /// The voice's own intonation: mean f0 and its standard deviation, in Hz.
    let f0Mean: Float
    let f0StdDev: Float
    /// The voice's own duration stretch (kal's is 1.1); rates divide it.
    let durationStretch: Float
}

extension FliteVoice {
    private typealias Register = (UnsafePointer<CChar>?) -> UnsafeMutablePointer<cst_voice>?

    /// The voices Debian's flite 2.2 ships. All take rate through `duration_stretch` (measured:
    /// length follows 1/rate from 0.25x to 4x on each of them).
    private static let catalog: [(short: String, name: String, languages: [String], gender: Voice.Gender,
                                  pitch: PitchControl, register: Register)] = [
        ("slt", "CMU SLT", ["en-US"], .female, .intonationTargets, register_cmu_us_slt),
        ("rms", "CMU RMS", ["en-US"], .male, .sonic, register_cmu_us_rms),
        // A Scottish English speaker; flite still reads with its US English lexicon and rules.
        ("awb", "CMU AWB", ["en-GB", "en-US"], .male, .intonationTargets, register_cmu_us_awb),
        ("kal16", "CMU KAL (16 kHz)", ["en-US"], .male, .intonationTargets, register_cmu_us_kal16),
        ("kal", "CMU KAL (8 kHz)", ["en-US"], .male, .intonationTargets, register_cmu_us_kal),
    ]

    /// Registers every voice with flite. Call once, holding the engine's lock, after `flite_init`.
    static func registerAll(plugin: String) throws(SpeechError) -> [FliteVoice] {
        var voices: [FliteVoice] = []
        for entry in catalog {
            guard let handle = entry.register(nil) else { throw SpeechError("flite could not register voice \(entry.short)") }
            let features = handle.pointee.features
            // Clustergen voices keep their intonation in the model; diphone voices in features.
            let model = feat_val(features, "cg_db").flatMap { val_cg_db($0) }?.pointee
            voices.append(FliteVoice(
                voice: Voice(identifier: "spk.flite.\(entry.short)", name: entry.name,
                             primaryLanguages: Array(entry.languages.prefix(1)), supportedLanguages: entry.languages,
                             gender: entry.gender, plugin: plugin),
                handle: handle, pitchControl: entry.pitch,
                f0Mean: get_param_float(features, "int_f0_target_mean", model?.f0_mean ?? 100),
                f0StdDev: get_param_float(features, "int_f0_target_stddev", model?.f0_stddev ?? 15),
                durationStretch: get_param_float(features, "duration_stretch", 1)))
        }
        return voices
    }
}
