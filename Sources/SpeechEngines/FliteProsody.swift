/// An `EngineProsody` as one flite voice takes it: utterance features for what flite does itself,
/// and a libsonic pitch shift for what the voice ignores.
struct FliteProsody {
    /// Per-utterance flite features (`duration_stretch`, `int_f0_target_mean`, ...).
    let features: [String: Float]
    /// Pitch multiplier to apply to the finished audio, nil when flite moved the pitch itself.
    let sonicPitch: Double?

    init(_ prosody: EngineProsody, voice: FliteVoice) {
        // Every voice's length follows duration_stretch (measured from 0.25x to 4x).
        let rate = prosody.rate.clamped(0.1, 10)
        var features = ["duration_stretch": voice.durationStretch / Float(rate)]
        var pitch = prosody.pitch
        if let hz = prosody.pitchHz { pitch *= hz / Double(voice.f0Mean) }
        pitch = pitch.clamped(0.25, 4)
        switch voice.pitchControl {
        case .intonationTargets:
            // Raising every f0 value by a factor raises their spread by it too; the range scales it again.
            features["int_f0_target_mean"] = voice.f0Mean * Float(pitch)
            features["int_f0_target_stddev"] = voice.f0StdDev * Float(pitch * max(prosody.pitchRange, 0))
            sonicPitch = nil
        case .sonic:
            // Only the level moves; the voice keeps its own intonation range.
            sonicPitch = pitch == 1 ? nil : pitch
        }
        self.features = features
    }
}
