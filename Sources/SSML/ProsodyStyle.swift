// Applying `<prosody>` changes to a style.

extension Style {
    /// Relative Hz changes need a base pitch in Hz. When no `pitch="…Hz"` sets one, a typical
    /// speaking voice's 120 Hz stands in for it: "+20Hz" then multiplies the pitch by 1 + 20/120.
    static let nominalPitchHz = 120.0
    /// Likewise for the pitch range: a typical voice's intonation spans about 60 Hz, so
    /// range="30Hz" is a range multiplier of 0.5 and range="+30Hz" adds 0.5 to it.
    static let nominalPitchRangeHz = 60.0

    mutating func change(rate change: ScaleChange) {
        switch change {
        case .scale(let factor): rate *= factor
        case .reset: rate = 1
        }
    }

    mutating func change(volume change: ScaleChange) {
        switch change {
        case .scale(let factor): volume *= factor
        case .reset: volume = 1
        }
    }

    mutating func change(pitch change: PitchChange, written text: String) throws(ValueError) {
        switch change {
        case .scale(let factor):
            pitch *= factor
        case .reset:
            pitch = 1
            pitchHz = nil
        case .hertz(let hertz):
            pitchHz = hertz
            pitch = 1
        case .relativeHertz(let hertz):
            // (base × pitch + hertz) / base: the same Hz change whatever the current multiplier.
            let changed = pitch + hertz / (pitchHz ?? Style.nominalPitchHz)
            guard changed > 0 else { throw ValueError("pitch \"\(text)\" would lower the pitch to 0 Hz or below") }
            pitch = changed
        }
    }

    mutating func change(pitchRange change: PitchChange, written text: String) throws(ValueError) {
        switch change {
        case .scale(let factor):
            pitchRange *= factor
        case .reset:
            pitchRange = 1
        case .hertz(let hertz):
            pitchRange = hertz / Style.nominalPitchRangeHz
        case .relativeHertz(let hertz):
            let changed = pitchRange + hertz / Style.nominalPitchRangeHz
            guard changed >= 0 else { throw ValueError("range \"\(text)\" would make the pitch range negative") }
            pitchRange = changed
        }
    }
}
