// The limits a request must stay within, each refused at parse time with its own error, so
// that no input can make the engines or the renderer overflow, allocate without bound or run
// for hours. The README's "Limits" section lists them.

public enum SSMLLimits {
    /// The longest `<break time>`, in seconds.
    public static let maxBreakSeconds = 60.0
    /// The most characters (Unicode scalars) in a `<phoneme ph>`; espeak-ng overruns its
    /// per-word phoneme buffer on a few hundred.
    public static let maxPhonemeCharacters = 128
}
