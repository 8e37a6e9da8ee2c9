/// Prosody for a neural voice. Rate goes to the model's length scale, which keeps the voice
/// natural from half to twice its speed. The length scale stretches phonemes but not the short
/// gaps between them, so speed `s` makes speech `u + (1 - u) / s` as long (`u` measured per voice,
/// NeuralVoiceEntry.unscaledShare): the model is asked for the speed that gives the rate wanted,
/// within that range, and libsonic makes up the rest. The model has no pitch control: libsonic
/// shifts the finished audio (formants move with it). Pitch range is the model's own.
struct NeuralProsody: Equatable {
    static let modelSpeedRange = 0.5...2.0

    /// Speed for the model (its length scale divided by this).
    var modelSpeed: Double
    /// Tempo and pitch changes left to libsonic (1 = none).
    var sonicSpeed: Double
    var sonicPitch: Double

    init(_ prosody: EngineProsody, meanF0: Double, unscaledShare u: Double) {
        let rate = max(prosody.rate, 0.01)
        let length = 1 / rate
        let wanted = length > u ? (1 - u) / (length - u) : Self.modelSpeedRange.upperBound
        modelSpeed = abs(rate - 1) < 1e-9 ? 1 : min(max(wanted, Self.modelSpeedRange.lowerBound), Self.modelSpeedRange.upperBound)
        // What the model's speed gives, and what is left for libsonic.
        let modelLength = u + (1 - u) / modelSpeed
        let left = modelLength / length
        sonicSpeed = abs(left - 1) < 0.01 ? 1 : left
        var pitch = prosody.pitch
        if let hz = prosody.pitchHz { pitch *= hz / meanF0 }
        sonicPitch = pitch
    }

    var needsSonic: Bool { sonicSpeed != 1 || abs(sonicPitch - 1) > 1e-6 }
}
